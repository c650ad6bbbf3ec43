"""Structured logs never show a secret."""

from __future__ import annotations

import io
import json

import pytest

from forumbot import logs
from forumbot.credentials import Secret


@pytest.fixture(autouse=True)
def _restore_logger():
    logger = logs.get_logger()
    saved = (list(logger.handlers), logger.propagate, logger.level)
    yield
    logger.handlers[:], logger.propagate = saved[0], saved[1]
    logger.setLevel(saved[2])


def test_secret_fields_are_masked_in_both_formats():
    for as_json in (False, True):
        stream = io.StringIO()
        logs.setup(as_json=as_json, stream=stream)
        log = logs.get_logger("test")
        logs.event(log, "login.try", user="ModBot", password="hunter2",
                         session_id="abc123", secret=Secret("s3cret"), posts=3)  # fmt: skip
        text = stream.getvalue()
        assert "hunter2" not in text and "abc123" not in text and "s3cret" not in text
        assert "login.try" in text and "ModBot" in text
        if as_json:
            data = json.loads(text)
            assert data["password"] == "********" and data["posts"] == 3
