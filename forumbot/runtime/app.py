"""Building a ``Runtime`` for the command line: database and real forum adapters."""

from __future__ import annotations

import os
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

from forum_adapters import ADAPTERS, HttpSettings, locate
from forumbot.credentials import read_password
from forumbot.db import database_url, make_engine, make_session_factory, upgrade
from forumbot.db.engine import default_data_dir
from forumbot.localforum import LocalForum
from forumbot.services.context import ForumAccess, Runtime


def make_adapter(access: ForumAccess) -> Any:
    """The adapter for a game's forum; the password is read here and only here."""
    if access.engine == "file":
        return LocalForum(default_data_dir() / "localforum" / str(access.game_id), access.username)

    password = read_password(env=access.password_env, file=access.password_file)
    cookies = default_data_dir() / "cookies" / f"game{access.game_id}.json"
    cookies.parent.mkdir(parents=True, exist_ok=True)
    return ADAPTERS[access.engine](
        access.base_url, access.username, password,
        settings=HttpSettings(rate=access.requests_per_second), cookie_file=cookies,
        post_interval=access.post_interval, date_order=access.date_order,
    )  # fmt: skip


def build_runtime(url: str | None = None, worker: str | None = None) -> Runtime:
    """A runtime on the configured database (upgraded to the newest schema)."""
    url = database_url(url)
    upgrade(url)
    engine = make_engine(url)
    return Runtime(engine=engine, sessions=make_session_factory(engine),
                   adapter_factory=make_adapter,
                   worker=worker or default_worker_name())  # fmt: skip


def default_worker_name() -> str:
    """``host-pid``: unique per process, so two workers never share a lease owner."""
    return f"{socket.gethostname()}-{os.getpid()}"


def read_thread(
    url: str, engine: str, username: str, *, cookie_file: Path | None = None
) -> tuple[str, list[tuple[str, str, datetime]]]:
    """(title, [(author, body, posted at)]) of a thread, for ``forumbot init`` (logs in when
    needed).

    Each page is read once.
    """
    where = locate(url, None if engine == "auto" else engine)
    adapter = ADAPTERS[where.engine](where.base_url, username, read_password(),
                                     cookie_file=cookie_file)  # fmt: skip
    topic = where.topic_id or 0
    page = adapter.topic_page(where.topic_url, topic)
    title, posts = page.title or f"topic {topic}", list(page.posts)
    while page.next_url:  # page by page, each once: page 1 gives the title too
        page = adapter.topic_page(page.next_url, topic)
        posts.extend(page.posts)
    adapter.save_cookies()
    return title, [(p.author.name, p.body_html, p.posted_at) for p in posts]


__all__ = ["Path", "build_runtime", "make_adapter", "read_thread"]
