"""Render time of the GM page's queue and phase pages with 500 queue items and 30 players.

Target (issue 8): each page renders in under 100 ms. Plays the web tests' game through the
runtime into a SQLite file, lengthens its queue with benchmark-only copies of its queued
order (``_queue_more``: 500 PMs through the runtime take minutes), logs in through
Flask's test client (the whole request: routing, auth, queries, templates), and reports the
median and worst of ``--repeat`` renders after a warm-up. The queue page shows 50 items a
page (oldest first) whatever the queue's length; ``queue-all`` times all 500 on one page,
for information. Run::

    .venv/bin/python benchmarks/bench_web.py [--items 500] [--players 30] [--repeat 20] [--json]

Exits 1 if a median is over the target.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from forumbot.db import make_engine, make_session_factory  # noqa: E402
from forumbot.db.enums import ReviewKind  # noqa: E402
from forumbot.db.models import RawPM, ReviewItem  # noqa: E402
from forumbot.web import create_app  # noqa: E402
from tests.web.seed import NOW, ROSTER, build  # noqa: E402

TARGET_MS = 100.0
TOKEN = "bench-token-0123456789"


def _seed(directory: Path, items: int, players: int) -> tuple[str, int, int]:
    """The web tests' game played through the runtime (``tests/web/seed.py``, villagers
    added), then ``items - 2`` more open order items: the night 2 file's URL and ids."""
    built = build(directory, extra_players=max(0, players - len(ROSTER)))
    url = f"sqlite:///{built.night}"
    engine = make_engine(url)
    with make_session_factory(engine).begin() as session:
        _queue_more(session, built.ids.game_id, built.ids.night2_id, items - 2)  # the game has 2
    engine.dispose()
    return url, built.ids.game_id, built.ids.night2_id


def _queue_more(session: Session, game_id: int, phase_id: int, count: int) -> None:
    """Benchmark-only rows: ``count`` open order items, copies of Bob's queued PM and item.

    Playing 500 unclear PMs through the runtime takes over ten minutes here, so the queue's
    length (what this benchmark measures) is made up of copies; the tests never do this.
    """
    item = session.scalars(select(ReviewItem).where(
        ReviewItem.game_id == game_id, ReviewItem.kind == ReviewKind.ORDER)).one()  # fmt: skip
    pm = session.get_one(RawPM, item.raw_pm_id)
    for i in range(count):
        copy = RawPM(forum_id=pm.forum_id, account=pm.account, pm_id=f"bench-{i}",
                     sender_name=pm.sender_name, sent_at=pm.sent_at, subject=pm.subject,
                     body_html=f"<p>heal {i}? <b>x</b></p>", recipients=pm.recipients)  # fmt: skip
        session.add(copy)
        session.flush()
        reason = f"unsure about 'heal {i}?'"
        session.add(ReviewItem(game_id=game_id, phase_id=phase_id, kind=ReviewKind.ORDER,
                               raw_pm_id=copy.id, player_id=item.player_id, reason=reason,
                               candidates=item.candidates))  # fmt: skip


def _time(client: object, path: str, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each request (CPU is steadier on a busy machine)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(path)  # type: ignore[attr-defined]
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return wall, cpu


def main() -> int:
    """Seed, warm up, time, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--items", type=int, default=500)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        url, game_id, phase_id = _seed(Path(tmp), args.items, args.players)
        seeded_s = time.perf_counter() - started
        engine = make_engine(url)
        app = create_app(make_session_factory(engine), token=TOKEN, now=lambda: NOW)
        client = app.test_client()
        client.get("/login")
        with client.session_transaction() as sess:
            csrf = sess["csrf"]
        client.post("/login", data={"token": TOKEN, "name": "bench", "csrf_token": csrf})
        pages = {
            "queue": f"/games/{game_id}/queue",
            "queue-all": f"/games/{game_id}/queue?per_page=500",  # informative: one long page
            "phase": f"/games/{game_id}/phase/{phase_id}",
            "drafts": f"/games/{game_id}/drafts",
            "state": f"/games/{game_id}/state",
        }
        results = {}
        for name, path in pages.items():
            _time(client, path, 3)  # warm-up: templates compiled, ruleset loaded
            wall, cpu = _time(client, path, args.repeat)
            results[name] = {
                "median_ms": statistics.median(wall),
                "max_ms": max(wall),
                "cpu_median_ms": statistics.median(cpu),
            }
        size = len(client.get(pages["queue"]).data)
        engine.dispose()
    report = {"items": args.items, "players": args.players, "queue_bytes": size,
              "seed_s": round(seeded_s, 1), **results}  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.items} queue items, {args.players} players, queue page {size} bytes"
              f" (game played through the runtime in {seeded_s:.1f} s)")  # fmt: skip
        for name, r in results.items():
            print(
                f"  {name:9s} median {r['median_ms']:7.1f} ms   max {r['max_ms']:7.1f} ms"
                f"   (CPU median {r['cpu_median_ms']:6.1f} ms)"
            )
    slow = [n for n in ("queue", "phase") if results[n]["median_ms"] > TARGET_MS]
    if slow:
        print(f"over the {TARGET_MS:.0f} ms target: {', '.join(slow)}", file=sys.stderr)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
