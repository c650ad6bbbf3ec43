"""Build the right adapter from a forum URL (detecting the engine from the page if needed)."""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path

from forum_adapters.core import Revealable
from forum_adapters.detect import ForumLocation, detect_engine, locate
from forum_adapters.engines import ENGINES
from forum_adapters.errors import ForumNotSupported
from forum_adapters.http import HttpSettings, PoliteSession
from forum_adapters.phpbb import PhpBBAdapter
from forum_adapters.smf import SMFAdapter

Adapter = SMFAdapter | PhpBBAdapter

ADAPTERS: dict[str, type[SMFAdapter] | type[PhpBBAdapter]] = {
    name: entry.adapter for name, entry in ENGINES.items()
}


def connect(
    url: str,
    username: str,
    password: Revealable | str | None,
    *,
    cookie_file: str | Path | None = None,
    settings: HttpSettings | None = None,
    tz: str | tzinfo | None = None,
    http: PoliteSession | None = None,
) -> tuple[Adapter, ForumLocation]:
    """An adapter for the forum at ``url`` and what the URL points at.

    The engine comes from the URL when it tells (``viewtopic.php``, ``?topic=``), else from
    the page at ``url`` (one GET).

    Args:
        url: a topic, board or forum index URL.
        username: the bot's account.
        password: its password (a ``Secret``-like object or a str); None reads as a guest.
        cookie_file: where to keep cookies between runs (mode 0600).
        settings: politeness settings (User-Agent, rate, timeouts, retries).
        tz: the zone the forum shows times in for this account (None: as the page says, or UTC).
        http: a ready session (tests); built from ``settings``/``cookie_file`` when None.

    Returns:
        The adapter and the normalised location.

    Raises:
        ForumNotSupported: neither the URL nor the page tells a supported engine.
        ForumUnavailable: the page could not be fetched.
    """
    http = http or PoliteSession(settings=settings, cookie_file=cookie_file)
    try:
        location = locate(url)
    except ForumNotSupported:
        response = http.get(url)
        location = locate(url, detect_engine(url, response.text))
    adapter = ADAPTERS[location.engine](location.base_url, username, password, http=http, tz=tz)
    return adapter, location
