"""Benchmark of ``forumbot run``: 20 active games on one worker.

Targets (issue 7): memory under 150 MB, at most two requests per game per idle poll, and a
new order PM parsed and receipted within one poll interval. Each game has its own stateful
SMF 2.1 test forum on loopback (``tests/runtime/smf_forum.py``) read by the real SMF
adapter; the worker runs on the real scheduler with a fake clock and a SQLite database.

Run: ``.venv/bin/python benchmarks/bench_runtime.py`` (prints the numbers as JSON), or
``.venv/bin/pytest benchmarks/bench_runtime.py`` (asserts the targets).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forum_adapters import HttpSettings, PoliteSession, SMFAdapter  # noqa: E402
from forumbot import jobs  # noqa: E402
from forumbot.clock import FakeClock  # noqa: E402
from forumbot.db import make_engine, make_session_factory, upgrade  # noqa: E402
from forumbot.services import games  # noqa: E402
from forumbot.services.context import Runtime  # noqa: E402
from tests.runtime.conftest import GAME  # noqa: E402
from tests.runtime.smf_forum import SMFTestForum  # noqa: E402

GAMES = 20
IDLE_POLLS = 5
POLL = timedelta(minutes=2)


def rss_mb() -> float:
    """Resident memory of this process now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _adapter(forum: SMFTestForum) -> SMFAdapter:
    http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), sleep=lambda s: None)
    return SMFAdapter(forum.base_url, "ModBot", "pw", http=http, post_interval=0)


def run() -> dict[str, float]:
    """Set up 20 games, catch up, poll idle, then time an order PM to its receipt."""
    clock = FakeClock(datetime(2026, 12, 1, 21, 0, 30, tzinfo=UTC))
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        forums = [stack.enter_context(SMFTestForum(clock)) for _ in range(GAMES)]
        by_port = {f.base_url: f for f in forums}
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        engine = make_engine(url)
        rt = Runtime(engine=engine, sessions=make_session_factory(engine),
                     adapter_factory=lambda access: _adapter(by_port[access.base_url]),
                     clock=clock, worker="bench")  # fmt: skip
        for n, forum in enumerate(forums):
            forum.add_post("Steph", "Welcome: <b>night 1</b> has started")
            path = Path(tmp) / f"g{n}.yaml"
            text = GAME.replace("MODE", "auto").replace("test-village", f"bench-{n}")
            path.write_text(text.replace("http://127.0.0.1:9/index.php", forum.base_url))
            games.start(rt, games.register(rt, path))
        scheduler = jobs.make_scheduler(rt, manual=True)
        scheduler.start()
        jobs.add_sync_job(scheduler, rt)
        scheduler.run_due()
        scheduler.run_due()  # first cycle: log in, catch up
        before = sum(f.data.requests for f in forums)
        started = time.perf_counter()
        for _ in range(IDLE_POLLS):
            clock.advance(POLL)
            scheduler.run_due()
        idle_seconds = (time.perf_counter() - started) / IDLE_POLLS
        idle_requests = (sum(f.data.requests for f in forums) - before) / (GAMES * IDLE_POLLS)
        sent_at = clock.now()
        forums[7].add_pm("Ann", "N1", "check Zed")
        clock.advance(POLL)
        scheduler.run_due()
        receipt = [pm for pm in forums[7].data.sent if pm["to"] == "Ann"]
        scheduler.shutdown()
        engine.dispose()
        return {
            "games": GAMES,
            "rss_mb": round(rss_mb(), 1),
            "requests_per_game_per_idle_poll": round(idle_requests, 2),
            "wall_seconds_per_idle_round_of_20_games": round(idle_seconds, 3),
            "order_receipted_within_s_of_fake_time": (clock.now() - sent_at).total_seconds()
            if receipt else float("inf"),
            "poll_interval_s": POLL.total_seconds(),
        }  # fmt: skip


def test_runtime_targets() -> None:
    numbers = run()
    assert numbers["rss_mb"] < 150
    assert numbers["requests_per_game_per_idle_poll"] <= 2
    assert numbers["order_receipted_within_s_of_fake_time"] <= numbers["poll_interval_s"]


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
