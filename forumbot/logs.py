"""Structured logs: one event name plus typed fields per line, never a secret.

``event(log, "poll.done", game=7, posts=3)`` writes ``poll.done game=7 posts=3`` (or one JSON
object per line with ``--log-json``). Fields whose name looks like a secret are replaced by
``********`` and ``Secret`` values hide themselves, so a stray field cannot leak a password;
the ``user:password@`` of any URL in a line (message, field or traceback) is masked too.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from typing import Any, TextIO

from forumbot.credentials import mask_url_credentials

LOGGER_NAME = "forumbot"
_SECRET_KEY = re.compile(r"pass|secret|token|cookie|session_id|sid$", re.IGNORECASE)
_MASK = "********"


def get_logger(name: str = "") -> logging.Logger:
    """The forumbot logger (or a child: ``get_logger("publish")``)."""
    return logging.getLogger(f"{LOGGER_NAME}.{name}" if name else LOGGER_NAME)


def scrub(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with every secret-looking value masked."""
    return {key: _MASK if _SECRET_KEY.search(key) else value for key, value in fields.items()}


def event(log: logging.Logger, name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log one structured event."""
    log.log(level, name, extra={"fb_event": name, "fb_fields": scrub(fields)})


class KeyValueFormatter(logging.Formatter):
    """``2026-12-01T22:00:05 INFO poll.done game=7 posts=3``."""

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fb_fields", {})
        parts = [f"{key}={_plain(value)}" for key, value in fields.items()]
        stamp = self.formatTime(record, "%Y-%m-%dT%H:%M:%S")
        line = " ".join([stamp, record.levelname, record.getMessage(), *parts])
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return mask_url_credentials(line)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``{"time":..., "level":..., "event":..., fields...}``."""

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "event": getattr(record, "fb_event", record.getMessage()),
            **getattr(record, "fb_fields", {}),
        }
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return mask_url_credentials(json.dumps(data, ensure_ascii=False, default=str))


def setup(level: str = "INFO", *, as_json: bool = False, stream: TextIO | None = None) -> None:
    """Send forumbot's logs to ``stream`` (stderr) in the chosen format."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if as_json else KeyValueFormatter())
    root = get_logger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


def _plain(value: Any) -> str:
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if (" " in text or not text) else text
