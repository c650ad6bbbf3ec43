"""Requests the bot costs a real board, counted in the board's own access log.

Targets (issue 16): an idle poll costs 1 topic + 1 inbox request; catching up a topic of N
pages costs N + 1 (its pages and the inbox); a PM costs at most 4 requests, a post at most 3.
Each board (phpBB 3.3.10, SMF 2.1.4, SMF 2.0.19) is started from the live-board kits
(``../shared/live-boards`` or ``$FORUMBOT_LIVE_BOARDS``) in a temporary folder, seeded by
players through the forms, measured with the real adapter logged in as the bot, and stopped.
Run::

    .venv/bin/python benchmarks/bench_live.py [--boards phpbb,smf21,smf20] [--pages 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forum_adapters import HttpSettings, PoliteSession, PostId, ThreadRef  # noqa: E402
from tests.live.boards import Board, start_board  # noqa: E402

PER_PAGE = {"phpbb": 10, "smf": 15}
TARGETS = {"idle_poll": 2, "per_pm": 4, "per_post": 3}


def _count(board: Board, action: Callable[[], object]) -> int:
    """Requests the board's web server logged while ``action`` ran."""
    before = len(board.log_lines())
    action()
    return len(board.log_lines()) - before


def measure(board: Board, pages: int, folder: Path) -> dict[str, Any]:
    """Seed a topic of ``pages`` pages and count each kind of bot work on it: the first
    contact of a bot that keeps its session (cookie file, none yet: login included), then,
    logged in, a catch-up, an idle poll, a PM and a post."""
    players = [board.player(name) for name in ("Conia", "Маша")]
    topic = board.player("GameMaster").new_topic("Bench", "Benchmark topic")
    for n in range(PER_PAGE[board.engine] * (pages - 1) + 1):
        players[n % 2].reply(topic, f"[b]Vote: {players[(n + 1) % 2].name}[/b] ({n})")
    thread = ThreadRef(topic)
    http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), cookie_file=folder / "jar")
    fresh = board.adapter(http=http)
    first = _count(board, lambda: (list(fresh.iter_posts(thread)), list(fresh.iter_pms())))
    time.sleep(3)  # SMF lets a login follow another only 2 s later (per IP)
    logins = _count(board, board.adapter().login)
    bot = board.adapter()
    bot.login()
    seen: dict[str, Any] = {}

    def catch_up() -> None:
        seen["posts"] = list(bot.iter_posts(thread))
        seen["pms"] = list(bot.iter_pms())

    catch = _count(board, catch_up)
    last = PostId(max(p.post_id for p in seen["posts"]))
    newest = max((pm.pm_id for pm in seen["pms"]), default=None)
    idle = _count(board, lambda: (list(bot.iter_posts(thread, after=last)),
                                  list(bot.iter_pms(after=newest))))  # fmt: skip
    pm = _count(board, lambda: bot.send_pm(["Conia"], "Bench", "Your result."))
    post = _count(board, lambda: bot.reply(thread, "Bench vote count."))
    shown_pages = max(p.page for p in seen["posts"])
    return {"board": f"{board.engine} {board.version}", "topic_pages": shown_pages,
            "first_contact": first, "login": logins, "catch_up": catch,
            "catch_up_target": shown_pages + 1, "idle_poll": idle, "per_pm": pm,
            "per_post": post}  # fmt: skip


def _ok(row: dict[str, Any]) -> bool:
    within = all(row[key] <= limit for key, limit in TARGETS.items())
    first = row["first_contact"] <= row["login"] + row["catch_up_target"]  # each page once
    return within and first and row["catch_up"] <= row["catch_up_target"]


def main() -> int:
    """Start each board, measure, stop; print a table (or JSON); exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="phpbb,smf21,smf20")
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for kind in args.boards.split(","):
        with tempfile.TemporaryDirectory(prefix=f"bench-{kind}-") as folder:
            board = start_board(kind, Path(folder) / "board")
            try:
                board.set_flood(0)
                rows.append(measure(board, args.pages, Path(folder)))
            finally:
                board.stop()
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    else:
        print(f"{'board':10} {'pages':>5} {'first':>6} {'login':>6} {'catch-up':>9} "
              f"{'(N+1)':>6} {'idle':>5} {'PM':>4} {'post':>5}")  # fmt: skip
        for r in rows:
            print(f"{r['board']:10} {r['topic_pages']:>5} {r['first_contact']:>6} "
                  f"{r['login']:>6} {r['catch_up']:>9} {r['catch_up_target']:>6} "
                  f"{r['idle_poll']:>5} {r['per_pm']:>4} {r['per_post']:>5}")  # fmt: skip
        print(f"targets: first contact = login + N+1, catch-up N+1, idle "
              f"{TARGETS['idle_poll']}, PM <= {TARGETS['per_pm']}, "
              f"post <= {TARGETS['per_post']}")  # fmt: skip
    return 0 if all(_ok(r) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
