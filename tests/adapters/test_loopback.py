"""The SMF 2.1 recorded pages served by a real HTTP server on loopback: real sockets, real
redirects and real cookies (the replay tests stop at the ``requests`` adapter)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from forum_adapters import SMFAdapter, ThreadRef
from forum_adapters.base import PostId
from forum_adapters.http import HttpSettings, PoliteSession
from tests.adapters.conftest import Capture, FakeClock

RECORDED = "http://127.0.0.1:8121"
ROUTES = {
    "/index.php?action=login": "login_page",
    "/index.php?action=login2;sa=check;member=2": "login_post_response__hop1",
    "/index.php": "login_post_response__hop2",
    "/index.php?topic=2.0": "topic_p1",
    "/index.php?topic=2.15": "topic_p2",
    "/index.php?topic=2.30": "topic_p3",
    "/index.php?topic=2.45": "topic_p4",
    "/index.php?topic=2.60": "topic_p5",
    "/index.php?topic=2.msg65": "topic_p5",
}


class Forum(BaseHTTPRequestHandler):
    """Serves the recorded pages; member pages only to a client that sends the auth cookie."""

    base: ClassVar[str] = ""
    seen: ClassVar[list[tuple[str, str, str]]] = []

    def _answer(self, name: str) -> None:
        capture = Capture.load("smf21", name)
        body = capture.body.replace(RECORDED.encode(), self.base.encode())
        self.send_response(capture.status)
        for key, value in capture.headers:
            self.send_header(key, value.replace(RECORDED, self.base))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.seen.append(("GET", self.path, self.headers.get("Cookie", "")))
        name = ROUTES.get(self.path)
        if name is None:
            self.send_error(404)
            return
        if name.startswith("topic_") and "SMFCookie574" not in self.headers.get("Cookie", ""):
            name = "guest_topic_p1"  # the forum forgot us
        self._answer(name)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length).decode()
        self.seen.append(("POST", self.path, body))
        self._answer("login_post_response" if "action=login2" in self.path else "reply_form")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def forum() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Forum)
    Forum.base = f"http://127.0.0.1:{server.server_port}"
    Forum.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Forum.base
    finally:
        server.shutdown()
        server.server_close()


def test_login_cookies_and_reading_over_real_http(forum: str, tmp_path: Path) -> None:
    clock = FakeClock()
    jar = tmp_path / "cookies.json"
    http = PoliteSession(
        settings=HttpSettings(rate=0), cookie_file=jar, clock=clock.time, sleep=clock.sleep
    )
    bot = SMFAdapter(f"{forum}/index.php", "ModBot", "not-the-real-password", http=http)
    posts = list(bot.iter_posts(ThreadRef(2)))
    assert [p.post_id for p in posts] == list(range(2, 66))
    logins = [entry for entry in Forum.seen if entry[0] == "POST"]
    assert len(logins) == 1 and "user=ModBot" in logins[0][2]
    assert "SMFCookie574" in jar.read_text()

    # A new run with the saved cookies: no login, and an idle poll is one request.
    Forum.seen.clear()
    again = PoliteSession(cookie_file=jar, clock=clock.time, sleep=clock.sleep)
    rerun = SMFAdapter(f"{forum}/index.php", "ModBot", "not-the-real-password", http=again)
    assert list(rerun.iter_posts(ThreadRef(2), after=PostId(65))) == []
    assert [(method, path) for method, path, _ in Forum.seen] == [
        ("GET", "/index.php?topic=2.msg65")
    ]
    assert "SMFCookie574" in Forum.seen[0][2]
