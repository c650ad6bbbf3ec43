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

from parsers.html import parse_html  # noqa: E402
from parsers.names import EntryKind, MatchKind, NameEntry, NameIndex, Resolved, fold  # noqa: E402
from parsers.roster import Roster, Slot  # noqa: E402
from parsers.votes import (  # noqa: E402
    NO_LYNCH,
    CountResult,
    PostInput,
    VoteRules,
    count_votes,
    rules_from_data,
)
from parsers.votes.hostrulings import NOT_VOTING, CountLine, read_count  # noqa: E402
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
GAME_RULES: dict[str, dict[str, str | bool]] = {
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
    # Wake1 drops a replaced player's vote (Day 2: ICEninja's vote on Varsoon is gone from
    # his counts once Bitmap replaces him): the game's replacement_inherits_vote is false.
    "t51535": {"at_deadline": "unknown", "replacement_inherits_vote": False},
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
    hosts = _with_opening_poster(hosts, players, posts)
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


def _with_opening_poster(
    hosts: list[str], players: list[Player], posts: list[PostInput]
) -> list[str]:
    """The thread's opening post is the moderator's: its account is a host.

    The archive names a moderator by one account ("Wake88") while the game was run from
    another ("Wake1", who posts the rules and every vote count); a GM would list both.
    Data cleaning for the benchmark, not counter logic.
    """
    if not posts:
        return hosts
    opener = posts[0].author
    names = {fold(n) for player in players for n in player.names}
    if fold(opener) in names or fold(opener) in {fold(h) for h in hosts}:
        return hosts
    return [*hosts, opener]


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


# A moderator's post that opens a Day: "It is now Day 3", "Day 2 begins", a night's deaths
# ("killed Night 1", "No one died"), a dawn in the flavour, the Day's first vote count.
_DAY_OPENS = re.compile(
    r"\bit\s+is\s+now\s+(?:day|d)\s*\d|\b(?:day|d)\s*\d+\s+(?:begins|starts|dawns|has\s+begun)"
    r"|\bday\s+(?:two|three|four|five|six|seven)\b|\b(?:killed|died|murdered|shot|dead)\b"
    r"|\bno\s?(?:one|body)\s+(?:has\s+)?died|\bdawn|\bmorning|\bwakes?\s+up|\bawakes?\b"
    r"|\bsun\b|\bnew\s+day|day\s?break|\bvote\s?count\b|\bnot\s+voting\b",
    re.IGNORECASE,
)


def day_windows(game: Game) -> list[list[PostInput]]:
    """Each Day's posts: from the moderator's post that opens it to the post where it ended.

    Posts after a Day's end and before the moderator opens the next (chatter after the
    hammer, posts at night) belong to no Day: their votes do not count. The Day opens at
    the first host post after the previous end that announces it (:data:`_DAY_OPENS`),
    looked for in the moderator's first posts after the end (up to the first player post
    that follows them); if none announces it, at the first of them. When the archive
    marks the opening post itself as the previous Day's end (t23262 Day 5), the Day opens
    right after it.
    """
    roster = roster_for_day(game, 1)
    numbered = [p for p in game.posts if p.number is not None]
    windows, start = [], 0
    for end in game.day_ends:
        windows.append([p for p in numbered if start <= (p.number or 0) <= end])
        start = _next_day_start(numbered, roster, end)
    return windows


def _next_day_start(posts: list[PostInput], roster: Roster, end: int) -> int:
    """The number of the post that opens the Day after the one that ended at post ``end``."""
    ending = next((p for p in posts if p.number == end), None)
    if ending is not None and roster.is_host(ending.author) and _opens_day(ending):
        return end + 1
    first: int | None = None
    for post in (p for p in posts if (p.number or 0) > end):
        if roster.is_host(post.author):
            first = post.number if first is None else first
            if _opens_day(post):
                return post.number or 0
        elif first is not None:
            break
    return first if first is not None else end + 1


def _opens_day(post: PostInput) -> bool:
    return bool(_DAY_OPENS.search(" ".join(parse_html(post.html).text().split())))


def day_result(key: str, day: int, expected: str | None, result: CountResult) -> DayResult:
    """One Day's score: the counter's decision against the recorded lynch, with its summary."""
    decision = result.decision
    outcome = decision.outcome
    shown = f"lynch {decision.lynched}" if outcome == "lynch" else outcome.replace("_", " ")
    summary = "; ".join(
        f"{w.target} {w.total} ({', '.join(v.name for v in w.voters)})" for w in result.wagons[:4]
    )
    return DayResult(
        key,
        day,
        expected,
        shown,
        verdict(expected, decision.lynched, outcome),
        len(result.queue),
        summary,
        decision.reason,
        [f"#{q.post_id} {q.voter}: {q.raw!r} {q.candidates}" for q in result.queue],
    )


def run_game(game: Game) -> list[DayResult]:
    """Count every Day of a game (the Day over at its last post) and score the decision."""
    results = []
    rules = rules_of(game.key)
    for index, window in enumerate(day_windows(game)):
        day = index + 1
        result = count_votes(window, roster_for_day(game, day), rules, DaySetup(day, ended=True))
        expected = expected_lynch(game, day)
        results.append(day_result(game.key, day, expected, result))
    return results


@dataclass
class ModCounts:
    """The moderators' vote-count posts against our count just before each.

    ``same``: every voter the moderator lists (on a wagon or not voting) is where we have
    him, and nobody we count is missing from his wagons. ``waiting``: the only differences
    are voters whose vote our count holds for the GM. ``slips``: the moderator's post
    contradicts itself (a number that is not the voters listed, a voter on two wagons).
    ``unread``: a listed name we cannot read as a player. The rest are ``diffs``.
    """

    same: int = 0
    waiting: int = 0
    slips: int = 0
    unread: int = 0
    total: int = 0
    diffs: list[str] = field(default_factory=list)

    def add(self, other: ModCounts) -> None:
        """Add another game's numbers."""
        self.same += other.same
        self.waiting += other.waiting
        self.slips += other.slips
        self.unread += other.unread
        self.total += other.total
        self.diffs += other.diffs


# Moderator counts that differ from the thread, each read by hand (game, post): voter -> why.
# The comparison reports them apart; they are the moderators', not the counter's: his slips,
# and his rulings no vote rule of the game's (a game option) states.
_SLIP_MISSED = "the moderator's count missed this vote"
MODERATOR_SLIPS: dict[tuple[str, int], dict[str, str]] = {
    ("t16537", 226): {
        v: "the wagon is labelled 'Akaria', no player: his misspelling of Akira (the line lists"
        " our 5 voters on Akira)"
        for v in ("AGar", "DemonHybrid", "Parama", "Twistedspoon", "[winger]")
    },
    ("t17401", 12): {"Fishythefish": "his only post before it is '/confirm': no vote"},
    ("t17830", 166): {
        "Beck": "'[b]vote para[/b]' (post 72): the count has him on himself",
        "bobsnox": "'UNVOTE: don', then a vote tag on Beck (post 138): " + _SLIP_MISSED,
    },
    ("t17830", 706): {
        v: "the lynched wagon is labelled Parama; its voters are don_johnson's"
        for v in ("CooLskins", "Parama", "deselby")
    },
    **{
        ("t23262", n): {"Elias_the_thief": "official 'UNVOTE: Robb' (post 82) " + _SLIP_MISSED}
        for n in (108, 125, 150, 175)
    },
    **{
        ("t23262", n): {"Hoopla": "'VOTE: Demon Core' (post 278): " + _SLIP_MISSED}
        for n in (301, 331, 366, 397)
    },
    ("t23262", 1018): {"Elias_the_thief": "'Unvote, vote KingdomAces' (post 1016) " + _SLIP_MISSED},
    **{
        ("t27836", n): {
            "Fegelein": "'VOTE: Zhero' (post 124, in his count 1.5 at post 125), never withdrawn:"
            " count 1.6 lists 12 of the 13 living players and 'Not Voting [0]'"
        }
        for n in (151, 178)
    },
    ("t27836", 691): {"Palmar": "the line 'Palmar [1] - roflcopter' is roflcopter's wagon"},
    ("t29457", 100): {"Bub Bidderskins": "he voted Alabaska J (post 12) and never RadiantCowbells"},
    **{
        ("t29457", n): {"TMTOLBTWNTOF": "'[b]Unvote[/b]' (post 470) " + _SLIP_MISSED}
        for n in (489, 501)
    },
    ("t30991", 200): {
        "theaceofspades": "'[vote]wake[/vote]' (post 154, withdrawn at 202) " + _SLIP_MISSED,
        "archaebob": "bold 'unvote vote theaceofspades' (post 157) "
        + _SLIP_MISSED
        + " (count 1.05 is count 1.04 of post 152 with only Antihero's vote added)",
    },
    ("t30991", 903): {"NicCage": "the archive notes the moderator's miscount (post 831: Banksys)"},
    ("t39665", 26): {
        "Titus": "the moderator's ruling: ika's bare bold 'pisskop' (post 16) counts for him"
        " ('I only respond to bolded text', post 1); the game's syntax is 'Vote: X' and"
        " [vote] tags, which a bare bold name is not"
    },
    ("t51535", 644): {
        "Aegor": "the moderator's ruling: ICEninja's vote (post 568) goes when he announces"
        " the replacement (post 637); the counter drops it at Bitmap's first post (649)"
    },
    ("t51535", 586): {"Nobody Special": "'[b]Vote: gameplay[/b]' (post 566) " + _SLIP_MISSED},
    **{
        ("t62826", n): {"Ranmaru": "'[b]Vote: Catboi[/b]' (post 51) " + _SLIP_MISSED}
        for n in (53, 76)
    },
}


_NOT_VOTING = "(not voting)"


def moderator_votes(
    lines: tuple[CountLine, ...], players: set[str]
) -> tuple[dict[str, str], list[str], bool]:
    """A moderator's count as voter -> wagon (or not voting), his slips, and whether every
    name was read."""
    votes: dict[str, str] = {}
    slips = []
    complete = True
    for line in lines:
        if line.label not in players and line.label != NOT_VOTING:
            continue  # a wagon on no player (a joke, "Deadline Extension"): no lynch vote
        listed = [v for v in line.voters if v is not None]
        complete = complete and len(listed) == len(line.voters)
        label = _NOT_VOTING if line.label == NOT_VOTING else line.label
        counted = line.number is not None and line.label != NOT_VOTING and listed
        if counted and line.number != len(line.voters):
            slips.append(f"{label} ({line.number}) lists {len(line.voters)} voters")
        for voter in listed:
            if (
                voter in votes
                and votes[voter] != label
                and _NOT_VOTING not in (votes[voter], label)
            ):
                slips.append(f"{voter} listed on {votes[voter]} and on {label}")
            votes.setdefault(voter, label)
    return votes, slips, complete


def compare_moderator_counts(game: Game) -> ModCounts:
    """Our count just before each moderator vote count, voter by voter, against his."""
    out = ModCounts()
    rules = rules_of(game.key)
    for index, window in enumerate(day_windows(game)):
        roster = roster_for_day(game, index + 1)
        names = NameIndex(
            roster.name_entries() + [NameEntry(NO_LYNCH, n, EntryKind.ALIAS) for n in _NO_LYNCH],
            acronyms=True,
        )
        for i, post in enumerate(window):
            if i == 0 or not roster.is_host(post.author) or not _COUNT.search(post.html):
                continue
            lines = tuple(line for line in read_count(post.html, names) if line.voters)
            if not any(line.label != NOT_VOTING for line in lines):
                continue
            out.total += 1
            where = f"Day {index + 1} post {post.number}"
            players = {s.name for s in roster.slots} | {NO_LYNCH}
            theirs, slips, complete = moderator_votes(lines, players)
            if slips:
                out.slips += 1
                out.diffs.append(f"{where}: moderator slip: {slips[0]}")
                continue
            result = count_votes(window[:i], roster, rules)
            ours = {v.name: w.target for w in result.wagons for v in w.voters}
            voters = set(ours) | {v for v, t in theirs.items() if t != _NOT_VOTING}
            voters |= {v for v, t in theirs.items() if t == _NOT_VOTING and v in ours}
            differ = sorted(v for v in voters if ours.get(v, _NOT_VOTING) != theirs.get(v))
            known = MODERATOR_SLIPS.get((game.key.rsplit("_", 1)[-1], post.number or 0), {})
            if differ and set(differ) <= set(known):
                out.slips += 1
                out.diffs.append(f"{where}: documented moderator slip: {known[differ[0]]}")
            elif not differ:
                out.same += 1
            elif set(differ) <= set(result.pending) | _outsider_slots(result, roster):
                out.waiting += 1
            elif not complete:
                out.unread += 1
            else:
                shown = ", ".join(
                    f"{v}: mod {theirs.get(v, '-')}, ours {ours.get(v, _NOT_VOTING)}"
                    f" ({_last_vote(result, v)})"
                    for v in differ
                )
                out.diffs.append(f"{where}: {shown}")
    return out


def _outsider_slots(result: CountResult, roster: Roster) -> set[str]:
    """Slots whose current player may be an outsider voting for them (a replacement)."""
    if not any(e.reason.endswith("(a replacement?)") for e in result.events):
        return set()
    return {s.name for s in roster.slots}


def _last_vote(result: CountResult, voter: str) -> str:
    last = [e for e in result.events if e.voter == voter]
    if not last:
        return "no vote read"
    event = last[-1]
    return f"post {event.post_number} {event.raw!r}: {event.status.value}"


_COUNT = re.compile(r"vote\s?count|not\s+voting", re.I)
_NO_LYNCH = ("No Lynch", "No Elimination", "NoLynch", "No-Lynch")


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
    posts = 0
    mods = ModCounts()
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
            mod = compare_moderator_counts(game)
            mods.add(mod)
            print(
                f"{'':22} moderator vote counts reproduced: {mod.same}/{mod.total}, "
                f"{mod.waiting} differ only by votes waiting for the GM, {mod.slips} "
                f"moderator slips, {mod.unread} with names we cannot read"
            )
            for diff in mod.diffs if args.verbose else []:
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
        other = mods.total - mods.same - mods.waiting - mods.slips - mods.unread
        share = 100 * mods.same / mods.total if mods.total else 0.0
        print(
            f"moderator vote counts, voter by voter: {mods.same}/{mods.total} equal "
            f"({share:.1f}%); {mods.waiting} differ only by the votes waiting for the GM; "
            f"{mods.slips} are moderator slips; {mods.unread} list a name we cannot read; "
            f"{other} differ (see --verbose)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
