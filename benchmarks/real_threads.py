"""Accuracy of the vote counter's decision on real mafiascum.net games (``shared/real_threads``).

For every Day of every game: count the Day's posts up to the post where the Day ended, with
the game's own rules (majority lynches and ends the Day at the hammer; the deadline rule and
the No Lynch threshold each moderator announced), and score the counter's *decision* against
the lynch the archive records: **right** (the same lynch, or no lynch), **undecided** (the
counter says it cannot decide, with the reason, and the GM decides) or **confidently wrong**
(it names a lynch, or no lynch, that did not happen: the defect that must never occur).

The threads stay outside the project (licence: see their README); this script only reads
them when present and skips otherwise. Run::

    .venv/bin/python benchmarks/real_threads.py [--verbose] [--game t15783] [--mod-counts]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parsers.html import Region, parse_html  # noqa: E402
from parsers.names import MatchKind, NameEntry, NameIndex, Resolved, fold  # noqa: E402
from parsers.roster import Roster, Slot  # noqa: E402
from parsers.votes import NO_LYNCH, PostInput, VoteRules, count_votes, rules_from_data  # noqa: E402
from parsers.votes.setup import DaySetup  # noqa: E402

THREADS = next(
    (p for p in (ROOT.parent / "shared" / "real_threads", ROOT.parents[1] / "shared" /
                 "real_threads") if p.is_dir()),
    ROOT.parent / "shared" / "real_threads",
)  # fmt: skip
# mafiascum.net Normal/Mini games: [vote] tags and bold "Vote: X"; a majority lynches and the
# Day ends at the post that reaches it.
SITE = {"syntax": ["vote_tag", "bold_vote"], "rule": "majority", "majority_ends_day": True}
# Each game's rules as its moderator announced them in the opening posts (what a GM would
# write in the game file): the deadline rule without a majority, and the votes a No Lynch
# needs. Games whose posts state no deadline rule are "unknown": the counter must not guess.
GAME_RULES: dict[str, dict[str, str]] = {
    "t15783": {"at_deadline": "plurality", "no_lynch_votes": "half"},  # "the person in the lead"
    "t15982": {"at_deadline": "unknown", "no_lynch_votes": "half"},
    "t16537": {"at_deadline": "no_lynch", "no_lynch_votes": "majority_minus_one"},
    "t17173": {"at_deadline": "no_lynch"},
    "t17401": {"at_deadline": "no_lynch"},
    "t17830": {"at_deadline": "unknown"},
    "t18412": {"at_deadline": "no_lynch", "no_lynch_votes": "half"},
    "t18983": {"at_deadline": "no_lynch", "no_lynch_votes": "half"},
    "t21826": {"at_deadline": "no_lynch", "no_lynch_votes": "half"},
    "t22335": {"at_deadline": "unknown"},
    "t22828": {"at_deadline": "moderator"},  # "at deadline, majority is cut in half"
    "t23262": {"at_deadline": "moderator"},  # "a majority of the votes cast" at the deadline
    "t24075": {"at_deadline": "no_lynch"},
    "t25648": {"at_deadline": "moderator"},  # as t23262
    "t27836": {"at_deadline": "no_lynch"},
    "t29457": {"at_deadline": "no_lynch"},
    "t30991": {"at_deadline": "no_lynch"},
    "t34696": {"at_deadline": "no_lynch"},
    "t39665": {"at_deadline": "unknown"},
    "t51535": {"at_deadline": "unknown"},
    "t59547": {"at_deadline": "no_lynch"},
    "t61664": {"at_deadline": "no_lynch"},
    "t62826": {"at_deadline": "no_lynch", "no_lynch_votes": "half"},
    "t63200": {"at_deadline": "no_lynch"},
}


def rules_of(key: str) -> VoteRules:
    """The vote rules of one game (``mafiascum_t15783``): the site's, then its moderator's."""
    stated = GAME_RULES.get(key.rsplit("_", 1)[-1], {"at_deadline": "unknown"})
    return rules_from_data({**SITE, **stated})


# Fates as labelled, typos included ("killed ngiht 2").
_FATE = re.compile(
    r"(lynched|killed|modkilled|endgamed|died|vigged|shot)\s+([dn])\w*\s+(\d+)", re.I
)


@dataclass
class Player:
    """One archive line: the slot's names (current first) and its fate."""

    names: list[str]
    fate: str
    fate_phase: str | None = None
    fate_number: int | None = None


@dataclass
class Game:
    """One archived game."""

    key: str
    hosts: list[str]
    players: list[Player]
    day_ends: list[int]
    posts: list[PostInput]
    notes: str = ""


@dataclass
class DayResult:
    """The benchmark's verdict on one Day: ``right``, ``undecided`` or ``wrong``."""

    game: str
    day: int
    expected: str | None
    outcome: str  # the counter's decision: "lynch X", "no lynch", "undecided"
    verdict: str
    queued: int
    summary: str
    reason: str
    queue: list[str] = field(default_factory=list)


def load_game(folder: Path) -> Game:
    """Read one game folder (archive entry, transitions, posts)."""
    text = (folder / "archive_entry.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    hosts: list[str] = []
    players: list[Player] = []
    notes = ""
    in_players = False
    for line in lines:
        if line.startswith("Moderator"):
            hosts = [h.strip() for h in line.split(":", 1)[1].split(",") if h.strip()]
        elif line.startswith("Notes"):
            notes = line
        elif line.strip() == "Players":
            in_players = True
        elif in_players and line.strip():
            parts = [p.strip() for p in line.split(",")]
            names = [n.strip() for n in parts[0].split(" replaced ")]
            # An archive typo glues the faction to a name ("nbtnbt5Town, Vanilla Townie").
            glued = re.fullmatch(r"(.+?)(Town|Mafia)", names[-1])
            if glued and len(parts) > 1 and not parts[1].startswith(("Town", "Mafia")):
                names[-1] = glued.group(1)
            fate = parts[-1]
            match = _FATE.search(fate)
            player = Player(names, fate)
            if match:
                player.fate_phase = "day" if match.group(2).lower() == "d" else "night"
                player.fate_number = int(match.group(3))
            players.append(player)
    row = (folder / "transitions_row.tsv").read_text(encoding="utf-8").splitlines()[-1]
    ends = [int(c) for c in row.split("\t")[1:] if c.strip().isdigit()]
    posts = []
    with (folder / "posts.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            posts.append(
                PostInput(str(raw["id"]), raw["user"], raw["content"], number=raw["number"])
            )
    posts.sort(key=lambda p: p.number or 0)
    _fix_archive_spelling(players, posts, hosts)
    return Game(folder.name, hosts, players, ends, posts, notes)


def _fix_archive_spelling(players: list[Player], posts: list[PostInput], hosts: list[str]) -> None:
    """Archive typos ("Starbunkles" for the user Starbuckles): add the user name as an alias.

    Only a poster who is in no archive line, and whose name is a typo of exactly one archive
    name that never posted, is mapped. Data cleaning for the benchmark, not counter logic.
    """
    authors = {p.author for p in posts} - set(hosts)
    known = {fold(n) for player in players for n in player.names}
    silent = [(player, n) for player in players for n in player.names if n not in authors]
    index = NameIndex([NameEntry(n, n) for _, n in silent])
    for author in sorted(a for a in authors if fold(a) not in known):
        found = index.resolve(author)
        if isinstance(found, Resolved) and found.how is MatchKind.TYPO:
            owner = next(player for player, n in silent if n == found.slot)
            owner.names.append(author)


def roster_for_day(game: Game, day: int) -> Roster:
    """The slots alive at the start of ``day`` (night N follows day N)."""
    slots = []
    for player in game.players:
        ended = player.fate.lower().startswith("endgamed")
        dead = player.fate_number is not None and player.fate_number < day and not ended
        slots.append(Slot(name=player.names[0], previous=tuple(player.names[1:]), alive=not dead))
    return Roster(slots=tuple(slots), hosts=tuple(game.hosts))


def expected_lynch(game: Game, day: int) -> str | None:
    """The slot the archive says was lynched on ``day``, or None."""
    for player in game.players:
        if player.fate.lower().startswith("lynched") and player.fate_number == day:
            return player.names[0]
    return None


def verdict(expected: str | None, lynched: str | None, outcome: str) -> str:
    """``right``, ``undecided`` or ``wrong`` for a decision against the archive's lynch."""
    if outcome == "undecided":
        return "undecided"
    return "right" if (lynched if outcome == "lynch" else None) == expected else "wrong"


def run_game(game: Game) -> list[DayResult]:
    """Count every Day of a game (the Day over at its last post) and score the decision."""
    results = []
    start = 0
    rules = rules_of(game.key)
    for index, end in enumerate(game.day_ends):
        day = index + 1
        window = [p for p in game.posts if p.number is not None and start <= p.number <= end]
        result = count_votes(window, roster_for_day(game, day), rules, DaySetup(day, ended=True))
        expected = expected_lynch(game, day)
        decision = result.decision
        outcome = decision.outcome
        shown = f"lynch {decision.lynched}" if outcome == "lynch" else outcome.replace("_", " ")
        summary = "; ".join(
            f"{w.target} {w.total} ({', '.join(v.name for v in w.voters)})"
            for w in result.wagons[:4]
        )
        results.append(
            DayResult(
                game.key,
                day,
                expected,
                shown,
                verdict(expected, decision.lynched, outcome),
                len(result.queue),
                summary,
                decision.reason,
                [f"#{q.post_id} {q.voter}: {q.raw!r} {q.candidates}" for q in result.queue],
            )
        )
        start = end + 1
    return results


# "Name (3) - a, b, c", "(3) Name - a, b", "Name - a, b (3)": the moderators' usual lines.
_MOD_LINES = (
    re.compile(r"^\s*(?P<name>[^()]{2,40}?)\s*[(\[]\s*(?P<n>\d+)\s*(?:/\s*\d+)?\s*[)\]]"),
    re.compile(r"^\s*[(\[]?\s*(?P<n>\d+)\s*[)\]]\s*(?P<name>[^-:–—]{2,40}?)\s*[-:–—]"),
    re.compile(r"^\s*(?P<name>[^()]{2,40}?)\s*[-:–—][^()]*?[(\[]\s*(?P<n>\d+)\s*[)\]]\s*$"),
)


# "Parama (LYNCHED): a, b, c": a wagon that ended the Day, its votes only listed.
_MOD_ENDED = re.compile(
    r"^\s*(?P<name>[^()]{2,40}?)\s*[(\[]\s*(?:lynched|reached|hammered)\s*[)\]]\s*[-:–—]"
    r"(?P<voters>.*)$",
    re.I,
)
_VOTERS = re.compile(r"[)\]]\s*[-:–—]\s*(?P<voters>[^()]+)$")


def moderator_count(html: str, roster: Roster) -> tuple[dict[str, int], list[str]]:
    """A moderator's vote-count post read roughly: (wagon -> votes, the moderator's slips).

    A slip is a line whose number disagrees with the voters it lists ("Cecily (2/5):
    Riceballtail"): the post is not the moderator's count of record.
    """
    index = roster.name_index()
    found: dict[str, int] = {}
    slips = []
    for line in parse_html(html, Region(0)).lines(Region.SPOILER | Region.CODE):
        if "not voting" in line.lower():
            continue
        ended = _MOD_ENDED.match(line)
        match = next((m for pattern in _MOD_LINES if (m := pattern.match(line))), None)
        if ended:
            name, votes = ended.group("name"), len(_names(ended.group("voters")))
        elif match and int(match.group("n")):
            name, votes = match.group("name"), int(match.group("n"))
            listed = _VOTERS.search(line)
            if (
                listed
                and _names(listed.group("voters"))
                and len(_names(listed.group("voters"))) != votes
            ):
                slips.append(line.strip())
        else:
            continue
        resolved = index.resolve(name.strip(" *[]"))
        if isinstance(resolved, Resolved):
            found[resolved.slot] = votes
        elif "lynch" in name.lower():
            found[NO_LYNCH] = votes
    return found, slips


def _names(text: str) -> list[str]:
    return [n for n in (part.strip(" .*") for part in text.split(",")) if n]


def compare_moderator_counts(game: Game) -> tuple[int, int, int, int, list[str]]:
    """Our count just before each moderator vote count, against it.

    Returns:
        (same, waiting, slipped, total, diffs): ``slipped`` counts the moderator's own
        slips (a number that disagrees with the voters listed); ``waiting`` the posts that
        differ only by the votes our count holds for the GM (each such vote moves at most
        one vote off one wagon and onto another: the difference is at most twice their
        number).
    """
    same = waiting = total = slipped = 0
    diffs = []
    start = 0
    for index, end in enumerate(game.day_ends):
        roster = roster_for_day(game, index + 1)
        window = [p for p in game.posts if p.number is not None and start <= p.number <= end]
        for i, post in enumerate(window):
            if i == 0 or not roster.is_host(post.author) or not _COUNT.search(post.html):
                continue
            theirs, slips = moderator_count(post.html, roster)
            if not theirs:
                continue
            total += 1
            if slips:
                diffs.append(f"Day {index + 1} post {post.number}: moderator slip {slips[0]!r}")
                slipped += 1
                continue
            result = count_votes(window[:i], roster, rules_of(game.key))
            ours = {w.target: w.total for w in result.wagons}
            same += ours == theirs
            if ours != theirs:
                keys = sorted(set(ours) | set(theirs))
                gap = sum(abs(ours.get(k, 0) - theirs.get(k, 0)) for k in keys)
                held = len(result.pending) + len(
                    {e.voter for e in result.events if e.reason.endswith("(a replacement?)")}
                )
                if gap <= 2 * held:
                    waiting += 1
                    continue
                diff = {
                    k: (theirs.get(k), ours.get(k)) for k in keys if ours.get(k) != theirs.get(k)
                }
                diffs.append(f"Day {index + 1} post {post.number}: (mod, ours) {diff}")
        start = end + 1
    return same, waiting, slipped, total, diffs


_COUNT = re.compile(r"vote\s?count", re.I)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print per-game and overall numbers."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", "-v", action="store_true", help="show every wrong Day")
    parser.add_argument("--queue", action="store_true", help="list every queued vote")
    parser.add_argument("--days", action="store_true", help="one line per Day, right or wrong")
    parser.add_argument("--game", help="only games whose folder contains this text")
    parser.add_argument(
        "--mod-counts",
        action="store_true",
        help="also compare with the moderators' own vote-count posts (rough reading of them)",
    )
    parser.add_argument("--threads", type=Path, default=THREADS)
    args = parser.parse_args(argv)
    if not args.threads.is_dir():
        print(f"skipped: {args.threads} not found (the real threads are not in the project)")
        return 0
    folders = sorted(p for p in args.threads.iterdir() if (p / "posts.jsonl").exists())
    if args.game:
        folders = [f for f in folders if args.game in f.name]
    began = time.perf_counter()
    all_days: list[DayResult] = []
    posts = mod_same = mod_held = mod_slips = mod_total = 0
    for folder in folders:
        game = load_game(folder)
        posts += len(game.posts)
        days = run_game(game)
        all_days.extend(days)
        marks = {v: sum(d.verdict == v for d in days) for v in ("right", "undecided", "wrong")}
        queued = sum(d.queued for d in days)
        print(
            f"{game.key:22} {len(days)} days: {marks['right']} right, {marks['undecided']} "
            f"undecided, {marks['wrong']} confidently wrong; {queued} queued"
        )
        if args.mod_counts:
            same, held, slips, total, diffs = compare_moderator_counts(game)
            mod_same, mod_held, mod_total = mod_same + same, mod_held + held, mod_total + total
            mod_slips += slips
            print(
                f"{'':22} moderator vote counts reproduced: {same}/{total}, {held} differ "
                f"only by votes waiting for the GM, {slips} moderator slips"
            )
            for diff in diffs if args.verbose else []:
                print(f"    {diff}")
        for d in days:
            if args.days or (args.verbose and d.verdict != "right"):
                print(
                    f"    Day {d.day}: {d.verdict.upper()}: archive {d.expected or 'no lynch'}, "
                    f"counter {d.outcome}, {d.queued} queued | {d.summary}"
                )
                if d.verdict != "right":
                    print(f"        reason: {d.reason}")
            if args.queue:
                for item in d.queue:
                    print(f"    Day {d.day} queue: {item}")
    elapsed = time.perf_counter() - began
    total = len(all_days)
    marks = {v: sum(d.verdict == v for d in all_days) for v in ("right", "undecided", "wrong")}
    queued = sum(d.queued for d in all_days)
    share = 100 * marks["right"] / total if total else 0.0
    print(
        f"\noverall: {total} Days: {marks['right']} right ({share:.1f}%), {marks['undecided']} "
        f"undecided, {marks['wrong']} confidently wrong; {queued} votes queued; {posts} posts "
        f"in {elapsed:.2f} s"
    )
    if args.mod_counts:
        print(
            f"moderator vote counts reproduced: {mod_same}/{mod_total}; {mod_held} more differ "
            f"only by the votes waiting for the GM; {mod_slips} are moderator slips; "
            f"{mod_total - mod_same - mod_held - mod_slips} other (their posts are read "
            "roughly: see --verbose)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
