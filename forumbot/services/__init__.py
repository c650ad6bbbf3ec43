"""Services: modules of functions that each do one unit of work for one game.

Jobs, commands and the web page call these; each opens its own database session(s).
``cycle`` is the one thing a worker does for a game on every tick.
"""

from __future__ import annotations

from dataclasses import dataclass

from forumbot.services import ingest, publish
from forumbot.services.context import Runtime
from forumbot.services.phases import clock, daycount


@dataclass(frozen=True, slots=True)
class CycleReport:
    """What one cycle of a game did."""

    game_id: int
    posts: int
    pms: int
    phase: str | None
    sent: int


def cycle(rt: Runtime, game_id: int) -> CycleReport:
    """Poll the forum, move the phase clock, publish what is approved: one game, one tick."""
    clock.open_first(rt, game_id)  # a phase must be open before orders are read for it
    polled = ingest.poll_game(rt, game_id)
    edits = ingest.final_read(rt, game_id)  # at a day's deadline: edited votes in older posts
    if polled.posts or polled.pms or edits:
        daycount.queue_doubtful(rt, game_id)  # votes the counter cannot decide go to the GM
    phase = clock.tick(rt, game_id)
    sent = publish.publish_approved(rt, game_id)
    return CycleReport(game_id, polled.posts, polled.pms, phase, sent.sent)
