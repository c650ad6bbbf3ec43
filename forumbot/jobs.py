"""Scheduled jobs: the only module that imports APScheduler.

Jobs are kept in the database (``SQLAlchemyJobStore``, one table per worker), so a restarted
worker resumes its schedule. Each job takes ids, runs one service call inside the game's
lease guard, and is idempotent. APScheduler stores a job by reference, so a job finds its
``Runtime`` by name in ``RUNTIMES``, filled by ``make_scheduler`` (the one registry here).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.executors import base as aps_exec
from apscheduler.executors.debug import DebugExecutor
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers import base as aps_base
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy import MetaData, Table
from sqlalchemy.exc import OperationalError

from forum_adapters.errors import ForumError, ForumUnavailable, LayoutChanged
from forumbot import services
from forumbot.clock import Clock
from forumbot.errors import ForumbotError
from forumbot.logs import event
from forumbot.services import alerts, games, leases, status
from forumbot.services.context import Runtime
from resolver.errors import ResolverError

RUNTIMES: dict[str, Runtime] = {}
SCHEDULERS: dict[str, BaseScheduler] = {}
SYNC_EVERY = timedelta(seconds=30)


def game_cycle(runtime: str, game_id: int) -> None:
    """Poll, tick and publish one game, if this worker holds its lease."""
    rt = RUNTIMES[runtime]
    run_guarded(rt, game_id, lambda: services.cycle(rt, game_id))


def sync_leases(runtime: str) -> None:
    """Claim and renew games; schedule a cycle for each held game, drop the others."""
    rt = RUNTIMES[runtime]
    held = leases.acquire(rt.sessions, rt.worker, rt.clock.now(), rt.lease_period)
    _reschedule(rt, runtime, held)


class ManualScheduler(BaseScheduler):
    """A scheduler driven by hand on the runtime's clock (tests, the demo, benchmarks).

    ``run_due()`` runs, in the calling thread, every job due at ``clock.now()``. APScheduler
    3 reads ``datetime.now`` itself, so for the length of ``run_due`` its two modules see
    the runtime's clock instead: the real scheduler logic, on a fake clock.
    """

    def __init__(self, clock: Clock, **options: Any) -> None:
        self.clock = clock
        super().__init__(**options)

    def shutdown(self, wait: bool = False) -> None:
        """Stop (there is no thread to wait for)."""
        super().shutdown(wait=False)

    def wakeup(self) -> None:
        """Nothing to wake: the caller drives the loop."""

    def run_due(self) -> None:
        """Run every job due now, on the runtime's clock."""
        clock = self.clock

        class _Now(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
                return clock.now().astimezone(tz or UTC)

        saved = (aps_base.datetime, aps_exec.datetime)
        aps_base.datetime, aps_exec.datetime = _Now, _Now  # type: ignore[misc]
        try:
            self._process_jobs()
        finally:
            aps_base.datetime, aps_exec.datetime = saved  # type: ignore[misc]


def make_scheduler(rt: Runtime, *, manual: bool = False) -> BaseScheduler:
    """A scheduler whose jobs live in the runtime's database, with the lease sync job added."""
    RUNTIMES[rt.worker] = rt
    store = SQLAlchemyJobStore(engine=rt.engine, tablename=_job_table(rt))
    options: dict[str, Any] = {
        "jobstores": {"default": store},
        "executors": {"default": DebugExecutor() if manual else ThreadPoolExecutor(4)},
        "job_defaults": {"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
        "timezone": UTC,
    }
    scheduler = ManualScheduler(rt.clock, **options) if manual else BlockingScheduler(**options)
    SCHEDULERS[rt.worker] = scheduler
    return scheduler


def _job_table(rt: Runtime) -> str:
    return "apscheduler_jobs_" + re.sub(r"[^a-z0-9]+", "_", rt.worker.lower())[:40]


def drop_job_store(rt: Runtime) -> None:
    """Drop this worker's job table (a clean stop; the next worker has its own name)."""
    Table(_job_table(rt), MetaData()).drop(rt.engine, checkfirst=True)


def add_sync_job(scheduler: BaseScheduler, rt: Runtime) -> None:
    """Add (or replace) the lease sync job; call after ``scheduler.start()``."""
    scheduler.add_job(sync_leases, _every(rt, SYNC_EVERY), args=[rt.worker], id="sync-leases",
                      replace_existing=True, next_run_time=rt.clock.now())  # fmt: skip


def _every(rt: Runtime, interval: timedelta) -> IntervalTrigger:
    return IntervalTrigger(seconds=interval.total_seconds(), start_date=rt.clock.now())


def _reschedule(rt: Runtime, runtime: str, held: list[int]) -> None:
    scheduler = _scheduler_of(runtime)
    if scheduler is None:
        return
    wanted = {f"game-{gid}": gid for gid in held}
    for job in scheduler.get_jobs():
        if job.id.startswith("game-") and job.id not in wanted:
            job.remove()
            rt.forget_adapter(int(job.id.split("-")[1]))
    for job_id, gid in wanted.items():
        every = status.poll_interval(rt, gid)
        job = scheduler.get_job(job_id)
        if job is None or job.trigger.interval != every:
            scheduler.add_job(game_cycle, _every(rt, every),
                              args=[runtime, gid], id=job_id, replace_existing=True,
                              next_run_time=rt.clock.now())  # fmt: skip


def _scheduler_of(runtime: str) -> BaseScheduler | None:
    return SCHEDULERS.get(runtime)


def run_guarded(rt: Runtime, game_id: int, work: Any) -> bool:
    """The one broad catch of the runtime: a failing game never stops the others.

    An outage waits for the next cycle; a forum that refuses the bot, a page the adapter
    cannot read, or a resolver error needs a person: the GM is alerted (and a resolver
    error parks the game). After a page it cannot read, a resolver error or a bug, what is
    approved is still published (``_publish_anyway``): the alert itself, receipts. A
    database that cannot be written is logged in one line and alerts nothing (the alert
    could not be stored either); the cycle is retried.

    Returns:
        False if the cycle failed (for ``run --once``'s exit status), True if it ran or the
        game passed to another worker.
    """
    try:
        with leases.guard(rt.engine, game_id, rt.worker, rt.clock.now(), rt.lease_period):
            work()
            alerts.forum_back(rt, game_id)
        return True
    except leases.LeaseLost:
        event(rt.log, "job.lease_lost", game=game_id, worker=rt.worker)
        return True
    except ForumUnavailable as exc:
        event(rt.log, "job.forum_unavailable", level=30, game=game_id, error=str(exc))
        _or_database_error(rt, game_id, alerts.note_outage, rt, game_id, str(exc))
    except ForumError as exc:
        _or_database_error(rt, game_id, _needs_person, rt, game_id, exc)
        if isinstance(exc, LayoutChanged):  # the forum answers: only a page is unreadable
            _publish_anyway(rt, game_id)
    except ForumbotError as exc:  # a setting a person must fix (a password not set...)
        event(rt.log, "job.needs_person", level=40, game=game_id, error=str(exc))
        key = f"config:{type(exc).__name__}"
        _or_database_error(rt, game_id, alerts.alert, rt, game_id, key, str(exc))
    except ResolverError as exc:
        event(rt.log, "job.resolver_error", level=40, game=game_id, error=str(exc))
        why = f"the resolver failed: {exc}"
        _or_database_error(rt, game_id, alerts.park, rt, game_id, why)
        _publish_anyway(rt, game_id)
    except OperationalError as exc:
        _database_error(rt, game_id, exc)
    except Exception as exc:
        rt.log.exception("job.failed game=%s: %s", game_id, exc)
        key, why = f"bug:{type(exc).__name__}", f"internal error: {exc}"
        _or_database_error(rt, game_id, alerts.alert, rt, game_id, key, why)
        _publish_anyway(rt, game_id)
    return False


def _publish_anyway(rt: Runtime, game_id: int) -> None:
    """After a cycle that failed before publishing: send what is approved (the alert just
    raised, receipts, results), so one failing step never holds every message back. A
    failure here is logged only (the cycle's own failure is alerted already)."""
    try:
        with leases.guard(rt.engine, game_id, rt.worker, rt.clock.now(), rt.lease_period):
            services.publish.publish_approved(rt, game_id)
    except Exception as exc:  # the second broad catch: the cycle's failure is the news
        event(rt.log, "job.publish_failed", level=40, game=game_id, error=str(exc))


def _or_database_error(
    rt: Runtime, game_id: int, record: Callable[..., object], *args: Any
) -> None:
    """Record a failure (alert, outage, park); a database that cannot take it is logged."""
    try:
        record(*args)
    except OperationalError as exc:
        _database_error(rt, game_id, exc)


def _database_error(rt: Runtime, game_id: int, exc: OperationalError) -> None:
    event(rt.log, "job.database_error", level=40, game=game_id, error=str(exc.orig),
          hint="check free disk space and that the database is writable")  # fmt: skip


def _needs_person(rt: Runtime, game_id: int, exc: ForumError) -> None:
    where = ""
    if isinstance(exc, LayoutChanged) and exc.saved_html:
        saved = games.quarantine(exc.saved_html, game_id, rt.clock.now().isoformat())
        where = f" (page saved to {saved})"
    event(rt.log, "job.needs_person", level=40, game=game_id, error=str(exc))
    alerts.alert(rt, game_id, f"forum:{type(exc).__name__}", f"{exc}{where}")
