"""Leases on a real PostgreSQL: one worker per game at a time; a dead worker's games move."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from forumbot.clock import FakeClock
from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.models import Game
from forumbot.services import games, leases
from tests.runtime.conftest import GAME, make_runtime
from tests.storage.conftest import _postgres_database

pytestmark = pytest.mark.postgres
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
PERIOD = timedelta(seconds=60)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg_games(tmp_path):
    """A PostgreSQL database holding four running games; yields (url, sessions, engine)."""
    for url in _postgres_database():
        upgrade(url)
        rt = make_runtime(url, tmp_path / "forum", FakeClock(T0))
        for n in range(4):
            path = tmp_path / f"g{n}.yaml"
            text = GAME.replace("MODE", "auto").replace("test-village", f"village-{n}")
            path.write_text(text.replace("topic=5.0", f"topic={n + 10}.0"), encoding="utf-8")
            games.start(rt, games.register(rt, path))
        engine = make_engine(url)
        yield url, make_session_factory(engine), engine
        engine.dispose()
        rt.engine.dispose()


def test_two_workers_never_share_a_game(pg_games):
    _url, sessions, _engine = pg_games
    got: dict[str, list[int]] = {}
    barrier = threading.Barrier(2)

    def claim(worker):
        barrier.wait()
        got[worker] = leases.acquire(sessions, worker, T0, PERIOD, limit=3)

    threads = [threading.Thread(target=claim, args=(w,)) for w in ("A", "B")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not set(got["A"]) & set(got["B"])
    assert sorted(got["A"] + got["B"]) == [1, 2, 3, 4]
    # Renewing keeps a worker's own games; the other cannot take them while the lease runs.
    assert sorted(leases.acquire(sessions, "A", T0 + PERIOD / 2, PERIOD)) == sorted(got["A"])
    assert sorted(leases.acquire(sessions, "B", T0 + PERIOD / 2, PERIOD)) == sorted(got["B"])


def test_a_running_job_keeps_its_game_even_past_its_lease(pg_games):
    _url, sessions, engine = pg_games
    mine = leases.acquire(sessions, "A", T0, PERIOD)
    later = T0 + 3 * PERIOD  # A's leases have expired, but its job on mine[0] still runs
    with leases.guard(engine, mine[0], "A", T0, PERIOD):
        with sessions.begin() as session:  # the job itself can still write its game's row
            session.get(Game, mine[0]).last_post_id = "7"
        taken = leases.acquire(sessions, "B", later, PERIOD)
        assert sorted(taken) == [1, 2, 3, 4]  # B takes the expired leases...
        busy = leases.guard(engine, mine[0], "B", later, PERIOD)
        with pytest.raises(leases.LeaseLost), busy:  # ...but waits for A's running job
            pass
        other = leases.guard(engine, taken[1], "B", later, PERIOD)
        with other:  # and runs the games A is not busy with
            pass
    with leases.guard(engine, mine[0], "B", later, PERIOD):  # A's job is over: B's turn
        pass
    lost = leases.guard(engine, mine[0], "A", later, PERIOD)
    with pytest.raises(leases.LeaseLost), lost:  # and A never touches it again
        pass


WORKER = textwrap.dedent(
    """
    import sys, time
    from datetime import datetime, timedelta
    from forumbot.db import make_engine, make_session_factory
    from forumbot.services import leases
    url, now = sys.argv[1], datetime.fromisoformat(sys.argv[2])
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    held = leases.acquire(sessions, "doomed", now, timedelta(seconds=60))
    with leases.guard(engine, held[0], "doomed", now, timedelta(seconds=60)):
        print(" ".join(map(str, held)), flush=True)
        time.sleep(600)  # killed long before
    """
)


def test_killing_a_worker_hands_its_games_to_the_other(pg_games):
    url, sessions, engine = pg_games
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", WORKER, url, T0.isoformat()],
                            stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    try:
        held = [int(x) for x in proc.stdout.readline().split()]
        assert sorted(held) == [1, 2, 3, 4]
        assert leases.acquire(sessions, "survivor", T0 + PERIOD / 2, PERIOD) == []
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # Within one lease period of its last renewal, every game belongs to the survivor.
    moved = leases.acquire(sessions, "survivor", T0 + PERIOD + timedelta(seconds=1), PERIOD)
    assert sorted(moved) == [1, 2, 3, 4]
    with leases.guard(engine, held[0], "survivor", T0 + PERIOD + timedelta(seconds=2), PERIOD):
        pass


def test_two_scheduled_workers_share_games_and_one_takes_over(pg_games, tmp_path):
    """Two workers with real schedulers on one database: games split between them, each
    published once; when one stops without a word, the other carries all its games on."""
    from forumbot import jobs
    from forumbot.localforum import LocalForum

    url, sessions, _engine = pg_games
    clock = FakeClock(T0)
    workers = {w: make_runtime(url, tmp_path / "forum", clock, worker=w) for w in ("A", "B")}
    scheds = {w: jobs.make_scheduler(rt, manual=True) for w, rt in workers.items()}
    for w, sched in scheds.items():
        sched.start()
        jobs.add_sync_job(sched, workers[w])
    for _ in range(3):
        for sched in scheds.values():
            sched.run_due()
        clock.advance(timedelta(seconds=40))
    owners = {w: leases.owned(sessions, w, clock.now()) for w in ("A", "B")}
    assert sorted(owners["A"] + owners["B"]) == [1, 2, 3, 4]
    assert not set(owners["A"]) & set(owners["B"])

    scheds["A"].shutdown()  # A dies: no release, its leases simply stop being renewed
    clock.advance(PERIOD + timedelta(seconds=31))
    for _ in range(2):
        scheds["B"].run_due()
        clock.advance(timedelta(seconds=40))
    assert sorted(leases.owned(sessions, "B", clock.now())) == [1, 2, 3, 4]
    clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))  # every game's night 1 ends
    for _ in range(4):
        scheds["B"].run_due()
        clock.advance(timedelta(minutes=1))
    posts = LocalForum(tmp_path / "forum", "ModBot").state.posts
    assert len(posts) == 4  # one Night 1 post per game, none twice
    scheds["B"].shutdown()
    for rt in workers.values():
        rt.engine.dispose()
