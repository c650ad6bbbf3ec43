"""``forumbot serve`` pieces: the token file, host checks, and the command's refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session, sessionmaker

from forumbot.cli import main
from forumbot.errors import ConfigError
from forumbot.web import create_app
from forumbot.web.auth import TOKEN_FILE, ensure_token
from forumbot.web.server import LOOPBACK_NAMES, is_loopback, start_in_thread
from tests.web.conftest import TOKEN, csrf_of
from tests.web.seed import Seeded


def test_token_is_created_owner_only_and_reused(tmp_path: Path) -> None:
    token, created = ensure_token(tmp_path / "data")
    assert created and len(token) >= 40
    path = tmp_path / "data" / TOKEN_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    again, created_again = ensure_token(tmp_path / "data")
    assert (again, created_again) == (token, False)


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_token_readable_by_others_is_refused(tmp_path: Path) -> None:
    ensure_token(tmp_path)
    (tmp_path / TOKEN_FILE).chmod(0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        ensure_token(tmp_path)


def test_loopback_detection() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_serve_refuses_an_empty_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    result = CliRunner().invoke(
        main, ["serve", "--database", url, "--data-dir", str(tmp_path / "d"), "--port", "0"]
    )
    assert result.exit_code == 2
    assert "forumbot db upgrade" in result.output


def test_serve_is_registered_with_loopback_default() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "127.0.0.1" in result.output and "--database" in result.output


def test_foreign_host_header_is_refused(factory: sessionmaker[Session], seeded: Seeded) -> None:
    app = create_app(factory, token=TOKEN, trusted_hosts=LOOPBACK_NAMES)
    client = app.test_client()
    assert client.get("/login", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/login", headers={"Host": "127.0.0.1:8765"}).status_code == 200


def test_cross_site_post_is_refused_even_with_the_token(gm, seeded: Seeded) -> None:
    url = f"/games/{seeded.game_id}/drafts/{seeded.pm_draft_id}/approve"
    response = gm.post(
        url, data={"csrf_token": csrf_of(gm)}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 400


def test_a_real_server_on_a_free_loopback_port(
    factory: sessionmaker[Session], seeded: Seeded
) -> None:
    import urllib.request

    running = start_in_thread(create_app(factory, token=TOKEN), "127.0.0.1", 0)
    try:
        assert running.server.port > 0
        with urllib.request.urlopen(f"{running.url}/login") as response:
            assert response.status == 200
            assert b'name="csrf_token"' in response.read()
    finally:
        running.stop()


def test_resolve_now_through_the_runtime(db_url: str, seeded: Seeded) -> None:
    from forumbot.db.enums import PhaseStatus
    from forumbot.db.models import Phase
    from forumbot.web.resolve import CannotResolve, runtime_resolve_now

    resolve_now = runtime_resolve_now(db_url)
    with pytest.raises(CannotResolve):
        resolve_now(seeded.game_id, seeded.day1_id, "Steph")
    message = resolve_now(seeded.game_id, seeded.night2_id, "Steph")
    assert "night2" in message
    from forumbot.db import make_engine, make_session_factory

    engine = make_engine(db_url)
    with make_session_factory(engine)() as session:
        assert session.get_one(Phase, seeded.night2_id).status is not PhaseStatus.OPEN
    engine.dispose()


def test_the_serve_command_runs_and_shows_the_token_once(db_url: str, tmp_path: Path) -> None:
    import re
    import subprocess
    import sys
    import urllib.request

    data = tmp_path / "data"
    command = [sys.executable, "-m", "forumbot", "serve", "--database", db_url,
               "--data-dir", str(data), "--port", "0"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "GM page: http://" in line:
                break
        output = "".join(lines)
        token = (data / TOKEN_FILE).read_text(encoding="utf-8").strip()
        assert token in output and "shown once" in output
        url = re.search(r"http://127\.0\.0\.1:\d+/", output)
        assert url is not None
        with urllib.request.urlopen(url.group(0) + "login") as response:
            assert response.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    again = CliRunner().invoke(main, ["serve", "--database", "sqlite://", "--data-dir", str(data)])
    assert token not in again.output  # shown once: later runs name the file only
