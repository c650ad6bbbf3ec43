"""The forum engines forumbot supports: one registry entry per engine.

Everything that differs per engine outside its own package is named here once: the adapter
class, how a saved page is read, and what reading the inbox does to the forum's unread
marks. ``ENGINES`` is what the shell offers (game file ``forum.engine``, ``--engine``) and
what a stored forum row may say; adding an engine is adding its package and one entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Protocol

from forum_adapters.markup import HtmlElement
from forum_adapters.phpbb import PhpBBAdapter
from forum_adapters.saved import SavedPage, read_saved_phpbb, read_saved_smf
from forum_adapters.smf import SMFAdapter


class SavedReader(Protocol):
    """Reads one saved page of an engine (``forum_adapters.saved``)."""

    def __call__(
        self, root: HtmlElement, where: str, *, now: datetime, tz: tzinfo
    ) -> SavedPage: ...


@dataclass(frozen=True, slots=True)
class EngineEntry:
    """One supported forum engine.

    Attributes:
        name: its id (``"smf"``, ``"phpbb"``): stored, printed and written in game files.
        adapter: the adapter class (``adapter(base_url, username, password, ...)``).
        read_saved: reads a saved topic or PM page (``forum_adapters.saved``).
        inbox_note: what the bot's reading the inbox does to the members' unread marks.
        limits_note: the engine's stock sending limits and how a GM lifts them for the bot.
        pms_per_hour: the engine's stock cap on an ordinary member's PMs an hour (counted
            per recipient), or None when it has none.
    """

    name: str
    adapter: type[SMFAdapter] | type[PhpBBAdapter]
    read_saved: SavedReader
    inbox_note: str
    limits_note: str
    pms_per_hour: int | None = None


ENGINES: dict[str, EngineEntry] = {
    entry.name: entry
    for entry in (
        EngineEntry(
            SMFAdapter.engine,
            SMFAdapter,
            read_saved_smf,
            "SMF marks the inbox page read when the bot opens it (stock 'all at once' display).",
            "SMF lets ordinary members send 20 PMs an hour (stock 'Max PMs per hour'); a night's "
            "results and receipts can need more. The bot counts what it sent in the last hour "
            "and holds the rest back (results first) before SMF refuses. Lift it for the bot: "
            "put its account in a membergroup with the 'send_mail' permission (see "
            "docs/adapters.md), then set forum.pms_per_hour: 0 in the game file (or the "
            "board's own number if the admin changed it).",
            pms_per_hour=20,
        ),
        EngineEntry(
            PhpBBAdapter.engine,
            PhpBBAdapter,
            read_saved_phpbb,
            "phpBB marks each PM read when the bot opens it; only new PMs are opened.",
            "phpBB's flood interval (stock 15 s per user) spaces the bot's posts and PMs.",
        ),
    )
}
