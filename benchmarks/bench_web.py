"""Render time of the GM page's queue and phase pages with 500 queue items and 30 players.

Target (issue 8): each page renders in under 100 ms. Seeds a SQLite file, logs in through
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

from forumbot.db import make_engine, make_session_factory, upgrade  # noqa: E402
from forumbot.db.models import Player  # noqa: E402
from forumbot.web import create_app  # noqa: E402
from tests.web.seed import NOW, ROSTER, seed_game, seed_queue  # noqa: E402

TARGET_MS = 100.0
TOKEN = "bench-token-0123456789"


def _seed(url: str, items: int, players: int) -> tuple[int, int]:
    upgrade(url)
    engine = make_engine(url)
    with make_session_factory(engine)() as session:
        ids = seed_game(session, extra_players=max(0, players - len(ROSTER)))
        bob = session.query(Player).filter_by(game_id=ids.game_id, display_name="Bob").one()
        seed_queue(session, ids.game_id, ids.night2_id, bob.id, items - 2)  # seed has 2
        session.commit()
    engine.dispose()
    return ids.game_id, ids.night2_id


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
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        game_id, phase_id = _seed(url, args.items, args.players)
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
    report = {"items": args.items, "players": args.players, "queue_bytes": size, **results}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.items} queue items, {args.players} players, queue page {size} bytes")
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
