"""Accuracy of the vote counter's decision on TeamLiquid games nobody here studied (blind).

The games are TeamLiquid mafia threads scraped by the public repository
``Xatalos/mafia-votecount`` (``data-*.clj``: a Clojure list of ``{:user NAME, :message
TREE}``, each message an HTML tree of ``{:tag :attrs :content}`` maps, quotes and spoilers
already removed by its scraper). They stay outside the project: fetch that repository by
hand, copy its ``data-*.clj`` files into a folder (default ``../tl/games`` beside the
project) and write the labels file (default ``../tl/labels.json``) from the hosts' own
posts. This script only reads them when present and skips otherwise; it never touches the
network. Run::

    .venv/bin/python benchmarks/tl_threads.py [GAMES_DIR] [--labels FILE] [--days] [--verbose]

The labels file gives, per game file, the hosts, the players (``names``, current first, and
``fate`` such as ``lynched D2``, ``killed N1``, ``modkilled D1``, ``endgamed D4``), the vote
rules the host announced (a ``vote:`` section), mid-Day events (``{day, post, kind,
player}``) and each Day's ``start``/``end`` post (0-based index in the scraped list) with
the lynch the host announced (``lynched``, null for no lynch) and ``usable``. Each message is
turned into the HTML a TeamLiquid page shows (bold ``<b>``, strike ``<s>``, quotes as
``<blockquote>``) and every usable Day is scored as ``benchmarks/real_threads.py`` scores it:
right, undecided or confidently wrong. A Day whose posts the scraper failed to fetch is
reported as incomplete, never scored.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from real_threads import DayResult, Game, Player, day_result, roster_for_day  # noqa: E402

from parsers.votes import PostInput, count_votes, day_from_data, rules_from_data  # noqa: E402

GAMES = ROOT.parent / "tl" / "games"
LABELS = ROOT.parent / "tl" / "labels.json"

# --- the scraped Clojure data ---------------------------------------------------------------

_TOKEN = re.compile(
    r'\s+|,|;[^\n]*|"(?:\\.|[^"\\])*"|#<[^>]*>|#\{|[()\[\]{}]|[^\s,()\[\]{}"]+', re.S
)
_OPEN = {"(": list, "[": list, "#{": list, "{": dict}


def read_clojure(text: str) -> Any:
    """The first form of Clojure data: lists, vectors, maps, strings, keywords, nil.

    Keywords become their names (``:user`` is ``"user"``); anything else unquoted (a failed
    post's ``#<NullPointerException java.lang.NullPointerException>``) is kept as its text.
    """
    stack: list[tuple[str, list[Any]]] = [("", [])]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token.isspace() or token == "," or token.startswith(";"):
            continue
        if token in _OPEN:
            stack.append((token, []))
        elif token in ")]}":
            kind, items = stack.pop()
            value = dict(zip(items[::2], items[1::2], strict=True)) if kind == "{" else items
            stack[-1][1].append(value)
        else:
            stack[-1][1].append(_atom(token))
    return stack[0][1][0]


def _atom(token: str) -> Any:
    if token.startswith('"'):
        return json.loads(token.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r"))
    if token == "nil":
        return None
    return token[1:] if token.startswith(":") else token


# --- a message tree as TeamLiquid HTML ------------------------------------------------------

_VOID = {"br", "hr", "img"}
_DROPPED = {"script", "style"}


def message_html(node: Any) -> str:
    """The HTML of a scraped message tree, as the TeamLiquid page showed it."""
    if node is None:
        return ""
    if isinstance(node, str):
        return html.escape(node, quote=False)
    if isinstance(node, list):
        return "".join(message_html(n) for n in node)
    tag = str(node.get("tag") or "span")
    if tag in _DROPPED:
        return ""
    attrs = node.get("attrs") or {}
    if "quote" in str(attrs.get("class", "")):
        tag = "blockquote"
    shown = "".join(
        f' {k}="{html.escape(str(v))}"' for k, v in attrs.items() if k in ("style", "class")
    )
    if tag in _VOID:
        return f"<{tag}{shown}>"
    return f"<{tag}{shown}>{message_html(node.get('content'))}</{tag}>"


def load_posts(path: Path) -> list[PostInput | None]:
    """The thread's posts in order; None where the scraper failed to fetch the post."""
    posts: list[PostInput | None] = []
    for index, entry in enumerate(read_clojure(path.read_text(encoding="utf-8"))):
        if not isinstance(entry, dict):
            posts.append(None)
            continue
        body = message_html(entry.get("message"))
        posts.append(PostInput(str(index), str(entry.get("user")), body, number=index))
    return posts


# --- labels and scoring ---------------------------------------------------------------------

_FATE = re.compile(r"(\w+)\s+([DN])(\d+)", re.I)


def labelled_game(name: str, label: dict[str, Any], posts: list[PostInput | None]) -> Game:
    """A :class:`real_threads.Game` from the labels (players, hosts) and the posts."""
    players = []
    for entry in label["players"]:
        fate = str(entry["fate"])
        player = Player(list(entry["names"]), fate)
        match = _FATE.fullmatch(fate.strip())
        if match:
            player.fate_phase = "day" if match.group(2).upper() == "D" else "night"
            player.fate_number = int(match.group(3))
        players.append(player)
    ends = [int(d["end"]) for d in label["days"]]
    kept = [p for p in posts if p is not None]
    return Game(name, list(label["hosts"]), players, ends, kept)


def score_day(
    game: Game, label: dict[str, Any], day: dict[str, Any], posts: list[PostInput | None]
) -> DayResult | str:
    """The verdict on one labelled Day, or why it is not scored."""
    number = int(day["day"])
    window = posts[int(day["start"]) : int(day["end"]) + 1]
    if not day.get("usable", True) or any(p is None for p in window):
        return f"Day {number}: not scored (incomplete: posts missing from the scrape)"
    events = [
        {k: v for k, v in e.items() if k in ("post", "kind", "player")}
        for e in label.get("events", [])
        if int(e["day"]) == number
    ]
    setup = day_from_data({"day": {"number": number, "ended": True}, "events": events})
    rules = rules_from_data(label["rules"])
    result = count_votes([p for p in window if p], roster_for_day(game, number), rules, setup)
    return day_result(game.key, number, day.get("lynched"), result)


def main(argv: list[str] | None = None) -> int:
    """Score every labelled Day of the scraped games and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="?", type=Path, default=GAMES)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--days", action="store_true", help="one line per Day, right or wrong")
    parser.add_argument("--verbose", "-v", action="store_true", help="reasons and queued votes")
    args = parser.parse_args(argv)
    if not args.games.is_dir() or not args.labels.is_file():
        print(
            f"skipped: {args.games} or {args.labels} not found (the games are not in the project)"
        )
        return 0
    labels = json.loads(args.labels.read_text(encoding="utf-8"))["games"]
    all_days: list[DayResult] = []
    for name in sorted(labels):
        path = args.games / name
        if not path.is_file():
            print(f"{name:22} skipped: not in {args.games}")
            continue
        posts = load_posts(path)
        game = labelled_game(name, labels[name], posts)
        scored = [score_day(game, labels[name], d, posts) for d in labels[name]["days"]]
        days = [d for d in scored if isinstance(d, DayResult)]
        all_days.extend(days)
        marks = {v: sum(d.verdict == v for d in days) for v in ("right", "undecided", "wrong")}
        print(
            f"{name:22} {len(days)} days: {marks['right']} right, {marks['undecided']} "
            f"undecided, {marks['wrong']} confidently wrong; {sum(d.queued for d in days)} queued"
        )
        for item in scored:
            _print_day(item, args.days, args.verbose)
    total = len(all_days)
    marks = {v: sum(d.verdict == v for d in all_days) for v in ("right", "undecided", "wrong")}
    share = 100 * marks["right"] / total if total else 0.0
    print(
        f"\noverall: {total} Days: {marks['right']} right ({share:.1f}%), {marks['undecided']} "
        f"undecided, {marks['wrong']} confidently wrong; "
        f"{sum(d.queued for d in all_days)} votes queued"
    )
    return 0


def _print_day(item: DayResult | str, every: bool, verbose: bool) -> None:
    if isinstance(item, str):
        print(f"    {item}")
        return
    if every or item.verdict != "right":
        print(
            f"    Day {item.day}: {item.verdict.upper()}: host {item.expected or 'no lynch'}, "
            f"counter {item.outcome}, {item.queued} queued | {item.summary}"
        )
        if item.verdict != "right" or verbose:
            print(f"        reason: {item.reason}")
    for queued in item.queue if verbose else []:
        print(f"        queued: {queued}")


if __name__ == "__main__":
    raise SystemExit(main())
