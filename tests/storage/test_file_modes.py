"""The SQLite file and its -wal/-shm are owner-only; an existing readable one is warned."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from forumbot.db import make_engine

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _forumbot(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    return subprocess.run(
        [sys.executable, "-m", "forumbot", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_new_database_and_its_wal_are_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "data" / "forumbot.sqlite3"
    done = _forumbot("db", "upgrade", "--url", f"sqlite:///{path}")
    assert done.returncode == 0, done.stderr
    assert _mode(path) == 0o600
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect() as connection:  # the worker holds it open: -wal and -shm exist
        connection.execute(text("CREATE TABLE IF NOT EXISTS probe (x INTEGER)"))
        connection.execute(text("INSERT INTO probe VALUES (1)"))
        connection.commit()
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            assert side.exists() and _mode(side) == 0o600, suffix
    engine.dispose()


def test_an_existing_database_readable_by_others_is_warned_at_start(tmp_path: Path) -> None:
    path = tmp_path / "forumbot.sqlite3"
    url = f"sqlite:///{path}"
    assert _forumbot("db", "upgrade", "--url", url).returncode == 0
    path.chmod(0o644)
    done = _forumbot("db", "upgrade", "--url", url)
    assert done.returncode == 0
    assert f"chmod 600 {path}" in done.stderr
    assert "readable by other users" in done.stderr
    path.chmod(0o600)
    assert "chmod" not in _forumbot("db", "upgrade", "--url", url).stderr
