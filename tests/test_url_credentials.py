"""A password in the forum URL is refused (pointing to FORUMBOT_PASSWORD) and never logged."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from forumbot import logs
from forumbot.credentials import mask_url_credentials

EXAMPLE = Path(__file__).resolve().parent.parent / "config" / "example-game.yaml"
PASSWORD = "pw-Kx93"


def _forumbot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FORUMBOT_PASSWORD": "from-env"}
    return subprocess.run(
        [sys.executable, "-m", "forumbot", *args],
        capture_output=True, text=True, env=env, timeout=120, check=False, cwd=cwd,
    )  # fmt: skip


def _game_with_url(tmp_path: Path, url: str) -> Path:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["forum"]["url"] = url
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "url",
    [
        f"http://ModBot:{PASSWORD}@127.0.0.1:9/index.php?topic=1.0",
        f"https://ModBot:{PASSWORD}@forum.example.org/viewtopic.php?t=5",
        f"http://:{PASSWORD}@127.0.0.1:9/index.php?topic=1.0",
    ],
)
def test_game_check_and_run_refuse_a_password_in_the_url(tmp_path: Path, url: str) -> None:
    game = _game_with_url(tmp_path, url)
    database = tmp_path / "db.sqlite3"
    for args in (
        ("game", "check", str(game)),
        ("run", "--once", "--database", f"sqlite:///{database}", str(game)),
    ):
        done = _forumbot(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "forum.url" in done.stderr and "FORUMBOT_PASSWORD" in done.stderr
        assert "Traceback" not in done.stderr
        assert PASSWORD not in done.stdout + done.stderr
    if database.exists():
        assert PASSWORD.encode() not in database.read_bytes()


def test_init_and_forum_check_refuse_a_password_in_the_url(tmp_path: Path) -> None:
    url = f"http://ModBot:{PASSWORD}@127.0.0.1:9/index.php?topic=1.0"
    init = ("init", url, "--user", "ModBot")
    for args in (init, ("forum", "check", "--url", url, "--user", "M")):
        done = _forumbot(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "FORUMBOT_PASSWORD" in done.stderr and PASSWORD not in done.stderr
    assert not (tmp_path / "game.yaml").exists()


def test_url_credentials_are_masked_in_every_log_line() -> None:
    logger = logs.get_logger()
    saved = (list(logger.handlers), logger.propagate, logger.level)
    url = f"http://ModBot:{PASSWORD}@forum.example.org/index.php"
    db_url = f"postgresql+psycopg://forumbot:{PASSWORD}@localhost/forumbot"
    try:
        for as_json in (False, True):
            stream = io.StringIO()
            logs.setup(as_json=as_json, stream=stream)
            log = logs.get_logger("test")
            logs.event(log, "poll.fail", where=url, database=db_url)
            log.warning("could not reach %s", url)
            try:
                raise ConnectionError(f"refused: {url}")
            except ConnectionError:
                log.exception("cycle failed")
            text = stream.getvalue()
            assert PASSWORD not in text, text
            assert "forum.example.org/index.php" in text and "ModBot" not in text
    finally:
        logger.handlers[:], logger.propagate = saved[0], saved[1]
        logger.setLevel(saved[2])
    logging.getLogger("forumbot.test").handlers.clear()


def test_mask_keeps_a_url_without_credentials() -> None:
    plain = "https://forum.example.org/index.php?topic=1.0 and mailto:ann@example.org"
    assert mask_url_credentials(plain) == plain
    assert mask_url_credentials("x http://a:b@h/ y") == "x http://********@h/ y"
