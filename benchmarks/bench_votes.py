"""Speed of vote counting: a 2,000-post thread from stored posts, HTML parsing included.

Target: under 0.5 s for the whole count. The thread is synthetic but shaped like the real
games (../shared/real_threads): chatter, bold and [vote] votes, unvotes, nested quotes of
earlier posts (votes inside them), spoilers, the host's vote counts. Run::

    .venv/bin/python benchmarks/bench_votes.py            # prints posts/s
    .venv/bin/pytest benchmarks/bench_votes.py --benchmark-enable
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forumbot.votecount import load_posts_jsonl, load_vote_rules  # noqa: E402
from parsers.roster import roster_from_data  # noqa: E402
from parsers.votes import PostInput, count_votes, rules_from_data  # noqa: E402

PLAYERS = [f"Player{i:02d}" for i in range(13)] + ["Mr Fox", "Zoé", "Маша"]
ROSTER = roster_from_data({"players": PLAYERS, "hosts": ["TheMod"]})
RULES = rules_from_data({"syntax": ["vote_tag", "bold_vote"], "rule": "majority"})
WORDS = [
    "I",
    "think",
    "that",
    "the",
    "town",
    "should",
    "look",
    "at",
    "this",
    "slot",
    "because",
    "their",
    "posts",
    "feel",
    "off",
    "and",
    "scummy",
    "reads",
    "are",
    "hard",
    "today",
    "but",
    "we",
    "need",
    "pressure",
    "on",
    "someone",
    "before",
    "deadline",
]
BOLD = '<div style="display:inline;font-weight:bold">{}</div>'


def _chatter(rng: random.Random) -> str:
    lines = [" ".join(rng.choices(WORDS, k=rng.randint(8, 40))) for _ in range(rng.randint(1, 6))]
    return "<br>\n".join(lines)


def _post_html(rng: random.Random, earlier: list[str]) -> str:
    parts = []
    if earlier and rng.random() < 0.45:
        quoted = rng.choice(earlier[-30:])
        for _ in range(rng.randint(1, 3)):
            cite = f"<cite>{rng.choice(PLAYERS)} wrote:</cite>"
            quoted = f"<blockquote><div>{cite}{quoted}</div></blockquote>"
        parts.append(quoted)
    parts.append(_chatter(rng))
    roll = rng.random()
    target = rng.choice(PLAYERS)
    if roll < 0.15:
        parts.append(
            f'<span class="bbvote" title="This is an official vote.">VOTE: {target}</span>'
        )
    elif roll < 0.25:
        parts.append(BOLD.format(f"Vote: {target.lower()}"))
    elif roll < 0.28:
        parts.append('<span class="bbvote" title="This is an official unvote.">UNVOTE: </span>')
    elif roll < 0.32:
        parts.append(BOLD.format("I am town and you know it"))
    if rng.random() < 0.05:
        parts.append(
            '<div class="quotetitle"><b>Spoiler:</b></div><div class="quotecontent">'
            f'<div style="display:none">{_chatter(rng)}</div></div>'
        )
    return "<br>\n<br>\n".join(parts)


def make_thread(size: int = 2000, seed: int = 7) -> list[dict[str, object]]:
    """A synthetic thread of ``size`` stored posts (id, author, time, html), in order."""
    rng = random.Random(seed)
    posts: list[dict[str, object]] = []
    bodies: list[str] = []
    for number in range(size):
        if number % 100 == 0:
            author = "TheMod"
            html = (
                BOLD.format("Vote Count")
                + "<br>"
                + "<br>".join(f"{p} (1) - {rng.choice(PLAYERS)}" for p in PLAYERS[:6])
            )
        else:
            author = rng.choice(PLAYERS)
            html = _post_html(rng, bodies)
        bodies.append(html)
        minute = f"{number % 60:02d}"
        posts.append(
            {
                "id": str(100000 + number),
                "author": author,
                "time": f"2026-11-29T{number // 60 % 24:02d}:{minute}:00+00:00",
                "html": html,
                "number": number,
            }
        )
    return posts


def as_inputs(posts: list[dict[str, object]]) -> list[PostInput]:
    """The stored posts as the counter's input."""
    return [
        PostInput(str(p["id"]), str(p["author"]), str(p["html"]), number=int(p["number"]))  # type: ignore[call-overload]
        for p in posts
    ]


def test_count_2000_posts(benchmark) -> None:  # pytest-benchmark
    posts = as_inputs(make_thread())
    result = benchmark(count_votes, posts, ROSTER, RULES)
    assert result.wagons


def rules_load_ms(ruleset: str = "failheap", tallies: int = 20) -> tuple[float, float]:
    """``load_vote_rules`` in ms: the first call (file read, validated) and then per tally."""
    began = time.perf_counter()
    load_vote_rules(ruleset, {})
    first = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(tallies):
        load_vote_rules(ruleset, {"vote": {}})
    return first * 1000, (time.perf_counter() - began) / tallies * 1000


def main() -> int:
    """Time the rules' load, the count (best and median of 7 runs) and the JSONL round trip."""
    first_ms, cached_ms = rules_load_ms()
    stored = make_thread()
    size = sum(len(str(p["html"])) for p in stored)
    posts = as_inputs(stored)
    runs, cpu = [], []
    for _ in range(7):
        began, began_cpu = time.perf_counter(), time.process_time()
        result = count_votes(posts, ROSTER, RULES)
        runs.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "posts.jsonl"
        path.write_text("\n".join(json.dumps(p) for p in stored), encoding="utf-8")
        began = time.perf_counter()
        loaded = load_posts_jsonl(path, UTC)
        count_votes(loaded, ROSTER, RULES)
        round_trip = time.perf_counter() - began
    best, median, cpu_median = min(runs), statistics.median(runs), statistics.median(cpu)
    print(f"{len(posts)} posts ({size / 1e6:.1f} MB of HTML), {len(result.events)} vote events")
    print(
        f"count, wall: best {best:.3f} s, median {median:.3f} s "
        f"-> {len(posts) / best:,.0f} posts/s at best"
    )
    print(
        f"count, CPU time (what a loaded shared machine cannot inflate): median "
        f"{cpu_median:.3f} s -> {len(posts) / cpu_median:,.0f} posts/s"
    )
    print(f"from the JSONL file, load + count: {round_trip:.3f} s")
    print(f"load_vote_rules: first {first_ms:.1f} ms, then {cached_ms:.3f} ms per tally (cached)")
    print("target < 0.5 s:", "met" if min(best, cpu_median) < 0.5 else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
