"""``forumbot run``: one long-running worker for every active game it can lease."""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import TextIO

from forumbot import jobs
from forumbot.logs import event
from forumbot.services import cycle, games, leases
from forumbot.services.context import Progress, Runtime


def tty_progress(stream: TextIO = sys.stderr) -> Progress | None:
    """A one-line progress display for long catch-up scrapes, when ``stream`` is a terminal."""
    if not stream.isatty():
        return None

    def show(what: str, count: int) -> None:
        if count == 1 or count % 10 == 0:
            stream.write(f"\r  catching up: {count} {what} read   ")
            stream.flush()

    return show


def register_and_start(rt: Runtime, game_files: Sequence[Path]) -> list[int]:
    """Register (or refresh) each game file and mark its game running; returns their ids."""
    ids = []
    for path in game_files:
        game_id = games.register(rt, path)
        games.start(rt, game_id)
        ids.append(game_id)
    return ids


def run_once(rt: Runtime) -> tuple[list[int], list[int]]:
    """One pass: lease what is free, run one cycle of each leased game (cron-friendly).

    Returns:
        The games cycled, and those whose cycle failed (alerted or logged).
    """
    held = leases.acquire(rt.sessions, rt.worker, rt.clock.now(), rt.lease_period)
    failed = [gid for gid in held if not jobs.run_guarded(rt, gid, lambda g=gid: cycle(rt, g))]
    return held, failed


def run_forever(rt: Runtime) -> None:
    """Run the scheduler until Ctrl+C or SIGTERM, then hand the games back (leases released)."""
    scheduler = jobs.make_scheduler(rt)

    def stop(_signum: int, _frame: FrameType | None) -> None:
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    jobs.add_sync_job(scheduler, rt)
    event(rt.log, "worker.start", worker=rt.worker)
    try:
        scheduler.start()  # blocks until shutdown
    except KeyboardInterrupt:
        pass
    finally:
        released = leases.release(rt.sessions, rt.worker)
        event(rt.log, "worker.stop", worker=rt.worker, released=released)
