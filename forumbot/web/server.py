"""Run the GM page on a real HTTP server (werkzeug's threaded server; one local user)."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from forumbot.db import current_revision, make_engine, make_session_factory
from forumbot.errors import ConfigError
from forumbot.web.app import create_app
from forumbot.web.auth import TOKEN_FILE, ensure_token
from forumbot.web.resolve import runtime_resolve_now

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.1, ::1 and ``localhost``: the page is then unreachable from outside."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class RunningServer:
    """A server started in a background thread (tests, embedding)."""

    server: BaseWSGIServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:43121``."""
        return f"http://{self.server.host}:{self.server.port}"

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def make(app: Flask, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> BaseWSGIServer:
    """A threaded server for ``app`` (port 0 picks a free port)."""
    return make_server(host, port, app, threaded=True)


def start_in_thread(app: Flask, host: str = DEFAULT_HOST, port: int = 0) -> RunningServer:
    """Start serving in a daemon thread and return at once."""
    server = make(app, host, port)
    thread = threading.Thread(target=server.serve_forever, name="forumbot-web", daemon=True)
    thread.start()
    return RunningServer(server, thread)


def run_gm_page(
    url: str, host: str, port: int, data_dir: Path, echo: Callable[[str, bool], None]
) -> None:
    """``forumbot serve``: token, database check, warnings, then serve until Ctrl+C.

    Args:
        url: the database URL.
        host: address to listen on (a non-loopback one is warned about).
        port: TCP port (0 picks a free one).
        data_dir: where the token file is kept.
        echo: prints a line for the GM (``(text, is_warning)``).

    Raises:
        ConfigError: the database is empty, or the token file is unsafe.
    """
    token, created = ensure_token(data_dir)
    engine = make_engine(url)
    try:
        if current_revision(engine) is None:
            raise ConfigError("database", "it is empty: run 'forumbot db upgrade' first")
        hosts = LOOPBACK_NAMES if is_loopback(host) else None
        app = create_app(
            make_session_factory(engine),
            token=token,
            trusted_hosts=hosts,
            resolve_now=runtime_resolve_now(url),
        )
        where = data_dir / TOKEN_FILE
        if created:
            echo(f"Your GM page token (shown once; kept owner-only in {where}):", False)
            echo(f"\n  {token}\n", False)
        else:
            echo(f"Log in with the token kept in {where}.", False)
        if not is_loopback(host):
            echo(
                f"Warning: listening on {host}: other machines can reach this page over plain "
                "HTTP; only the token protects the game's secrets.",
                True,
            )
        server = make(app, host, port)
        echo(f"GM page: http://{host}:{server.port}/  (Ctrl+C to stop)", False)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            echo("stopped", False)
        finally:
            server.server_close()
    finally:
        engine.dispose()
