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
    try:
        failed = [gid for gid in held if not jobs.run_guarded(rt, gid, lambda g=gid: cycle(rt, g))]
    finally:
        leases.release(rt.sessions, rt.worker)  # the next run (another process) takes them
    event(rt.log, "worker.once", worker=rt.worker, games=len(held), failed=len(failed))
    return held, failed


def stop_on_sigterm() -> None:
    """Make SIGTERM stop ``run`` as Ctrl+C does (a KeyboardInterrupt in the main thread)."""

    def stop(_signum: int, _frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: a second one waits too
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


def run_forever(rt: Runtime) -> None:
    """Run the scheduler until Ctrl+C or SIGTERM (``stop_on_sigterm``), then let running
    jobs finish and hand the games back (leases released)."""
    scheduler = jobs.make_scheduler(rt)
    jobs.add_sync_job(scheduler, rt)
    event(rt.log, "worker.start", worker=rt.worker)
    try:
        scheduler.start()  # blocks until shutdown
    except KeyboardInterrupt:
        pass
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)  # the jobs finish; a second signal waits too
        if scheduler.running:
            scheduler.shutdown(wait=True)
        released = leases.release(rt.sessions, rt.worker)
        jobs.drop_job_store(rt)
        event(rt.log, "worker.stop", worker=rt.worker, released=released)
