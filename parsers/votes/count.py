"""Replay a day's posts (and PMs) into vote events, the standing votes and the GM queue.

:func:`count_votes` is the one entry point: posts in thread order in, a
:class:`~parsers.votes.model.CountResult` out. It is an event replay, so a count "as of any
post" is the same call on a shorter list, and GM events (deaths, checkpoints, corrections)
are applied at the post they name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from parsers.html import DEFAULT_SKIP, PostView, parse_html
from parsers.names import (
    Ambiguous,
    EntryKind,
    MatchKind,
    NameEntry,
    NameIndex,
    Resolution,
    Resolved,
    Unknown,
    account_key,
    fold,
)
from parsers.roster import Roster, Slot
from parsers.votes.config import Channel, EditPolicy, RevotePolicy, Syntax, VoteRules
from parsers.votes.dayend import DayEndWatch
from parsers.votes.extract import RawAction, clean_target, extract_actions, may_hold_votes
from parsers.votes.gm import GmEvents, names_post
from parsers.votes.hostrulings import HostRuling, host_contradiction, host_rulings
from parsers.votes.lynch import Cast, Hammer, standing, tally, vote_refusal
from parsers.votes.model import (
    NO_LYNCH,
    Action,
    CountResult,
    DayEventKind,
    EditFlag,
    EventStatus,
    PostInput,
    QueueItem,
    Snapshot,
    Source,
    VoteEvent,
    Voter,
)
from parsers.votes.setup import DaySetup

__all__ = ["count_votes"]

# A quote tag the forum left as text ("...vote: X[/quote]"): what is quoted is unknown.
_BROKEN_QUOTE = re.compile(r"\[/?quote\b", re.IGNORECASE)


def maybe_quoted(view: PostView, actions: Sequence[RawAction]) -> bool:
    """True when an action may sit inside a quote whose BBCode the forum did not render.

    A literal ``[quote]`` quotes what follows it up to its ``[/quote]`` (or the end of the
    post); a literal ``[/quote]`` with no opening closes a quote that began anywhere before
    it. Votes outside every such span are the author's own: after a stray ``[/quote]``, a
    human reader sees the vote as the author's, and so does the counter. A post is held
    for the GM only when its last vote may be quoted; otherwise its quoted votes are
    dropped and its own count.
    """
    spans = _unrendered_quote_spans(view)
    return any(a.start <= hi and lo <= a.end for a in actions for lo, hi in spans)


def _unrendered_quote_spans(view: PostView) -> list[tuple[int, int]]:
    """The segment ranges (inclusive) an unrendered quote tag may cover."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    for index, segment in enumerate(view.segments):
        for match in _BROKEN_QUOTE.finditer(segment.text):
            if not match.group().startswith("[/"):
                opened.append(index)
            elif opened:
                spans.append((opened.pop(), index))
            else:
                spans.append((0, index))
    spans.extend((start, len(view.segments)) for start in opened)
    return spans


# Unknown names that are certainly no valid target: ignored, never queued.
_INVALID = ("is not alive", "is the host, not a player")

_NO_LYNCH_NAMES = (
    "No Lynch",
    "No Elimination",
    "No Lynching",
    "No Execution",
    "Sleep",
    "Nightfall",
    "No Kill",
    "Nolynch",
    "Нет посадки",
    "Pas de lynchage",
)


def count_votes(
    posts: Sequence[PostInput], roster: Roster, rules: VoteRules, day: DaySetup | None = None
) -> CountResult:
    """Count the votes of one day.

    Args:
        posts: thread posts in thread order, and PMs to the GM (any order; they are taken in
            time order); only what the day window holds.
        roster: the players at the start of the window.
        rules: the ruleset's vote rules.
        day: deadline, mid-day events and GM corrections.

    Returns:
        The tally, every vote event, the GM queue, edits, and the lynch decision. Doubtful
        votes are queue items, never exceptions.
    """
    day = day or DaySetup()
    result = _count(posts, roster, rules, day)
    rulings = _host_rulings(posts, roster, rules, day, result)
    if rulings:
        events = day.events + tuple(r.event for r in rulings)
        notes = [r.note for r in rulings]
        result = _count(posts, roster, rules, replace(day, events=events), notes)
    return _unless_host_disagrees(posts, roster, rules, day, result)


def _unless_host_disagrees(
    posts: Sequence[PostInput],
    roster: Roster,
    rules: VoteRules,
    day: DaySetup,
    result: CountResult,
) -> CountResult:
    """Hold a decision the host's own last vote count contradicts: the GM decides.

    Once the GM has corrected the Day's count (corrections, checkpoints), his decisions
    settle it: a host count posted before them is not read against it.
    """
    decision = result.decision
    settled = any(e.kind in (*_CORRECTIONS, DayEventKind.CHECKPOINT) for e in day.events)
    if decision.pending or settled:
        return result
    names = _NO_LYNCH_NAMES if rules.no_lynch else ()
    thread = [p for p in posts if p.source is Source.THREAD]
    decided = decision.lynched or (NO_LYNCH if decision.no_lynch else None)
    voters = next((w.voters for w in result.wagons if w.target == decided), ())
    names_on = [v.name for v in voters]
    why = host_contradiction(thread, roster, decided, names_on, decision.majority, names)
    if why is None:
        return result
    reason = f"{decision.reason} But {why}: the GM decides."
    held = replace(
        decision, lynched=None, no_lynch=False, pending=True, reason=reason, waits_for="gm"
    )
    return replace(result, decision=held)


def _host_rulings(
    posts: Sequence[PostInput], roster: Roster, rules: VoteRules, day: DaySetup, first: CountResult
) -> list[HostRuling]:
    """What the host's vote counts decide of the queued names (the GM's corrections win)."""
    if not first.queue:
        return []
    names = _NO_LYNCH_NAMES if rules.no_lynch else ()
    thread = [p for p in posts if p.source is Source.THREAD]
    corrected = {str(e.post) for e in day.events if e.kind in _CORRECTIONS}
    found = host_rulings(thread, roster, first.queue, first.events, names)
    return [r for r in found if str(r.event.post) not in corrected]


_CORRECTIONS = (DayEventKind.IGNORE, DayEventKind.CORRECT)


def _count(
    posts: Sequence[PostInput],
    roster: Roster,
    rules: VoteRules,
    day: DaySetup,
    notes: Sequence[str] = (),
) -> CountResult:
    counter = _Counter(roster, rules, day)
    counter.notes.extend(notes)
    for post in _in_order(posts, rules):
        if counter.hammer is None:
            counter.apply_events_before(post)
        counter.read(post)
    if counter.hammer is None:
        counter.apply_events_before(None)
    return counter.result()


def _in_order(posts: Sequence[PostInput], rules: VoteRules) -> list[PostInput]:
    if rules.channel is Channel.THREAD:
        return list(posts)
    thread = [p for p in posts if p.source is Source.THREAD]
    pms = sorted(
        (p for p in posts if p.source is Source.PM), key=lambda p: (p.time is None, p.time)
    )
    return thread + pms


@dataclass(slots=True)
class _Counter(GmEvents):
    roster: Roster
    rules: VoteRules
    day: DaySetup
    current: dict[str, Cast] = field(default_factory=dict)
    pending: dict[str, QueueItem] = field(default_factory=dict)
    withdrawn: dict[str, list[Voter]] = field(default_factory=dict)
    voted: set[str] = field(default_factory=set)
    voided: set[str] = field(default_factory=set)
    participated: set[str] = field(default_factory=set)
    events: list[VoteEvent] = field(default_factory=list)
    queue: list[QueueItem] = field(default_factory=list)
    edits: list[EditFlag] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    applied: set[int] = field(default_factory=set)
    last: PostInput | None = None
    seq: int = 0
    outsiders: set[str] = field(default_factory=set)
    accounts: dict[str, str] = field(default_factory=dict)
    watch: DayEndWatch = field(default_factory=DayEndWatch)
    deadline_passed: bool = False
    missed: tuple[str, ...] = ()
    timeline: list[Snapshot] = field(default_factory=list)
    _changes: int = -1
    _index: tuple[frozenset[str], NameIndex] | None = None

    # --- names -------------------------------------------------------------------------

    def _extra_entries(self) -> list[NameEntry]:
        if not self.rules.no_lynch:
            return []
        return [NameEntry(NO_LYNCH, n, EntryKind.ALIAS) for n in _NO_LYNCH_NAMES]

    def living_index(self) -> NameIndex:
        alive = frozenset(s.name for s in self.roster.slots if s.alive)
        if self._index is None or self._index[0] != alive:
            entries = self.roster.name_entries(alive_only=True) + self._extra_entries()
            self._index = (alive, NameIndex(entries, acronyms=True))
        return self._index[1]

    def resolve(self, text: str) -> tuple[Resolution, str]:
        found, used = self.living_index().resolve_leading(text)
        if isinstance(found, Unknown):
            everyone = NameIndex(self.roster.name_entries() + self._extra_entries(), acronyms=True)
            dead, used_dead = everyone.resolve_leading(text)
            if isinstance(dead, Resolved):
                return Unknown(text, f"{dead.slot} is not alive"), used_dead
            hosts = NameIndex(NameEntry(h, h) for h in self.roster.hosts)
            host, used_host = hosts.resolve_leading(text)
            if isinstance(host, Resolved) and host.how in (MatchKind.EXACT, MatchKind.TYPO):
                return Unknown(text, f"{host.slot} is the host, not a player"), used_host
        return found, used

    # --- who may vote, and for how much ------------------------------------------------

    def can_vote(self, slot: Slot) -> str | None:
        """None when ``slot`` may vote now, else the reason it may not."""
        return vote_refusal(slot, self.rules)

    # --- posts -------------------------------------------------------------------------

    @property
    def hammer(self) -> Hammer | None:
        """The post that ended the Day by reaching a majority, once one did."""
        return self.watch.hammer

    def read(self, post: PostInput) -> None:
        """Read one post (or PM); after the hammer its votes are listed and do not count."""
        if self.hammer is not None:
            self._after_hammer(post)
            return
        self.last = post
        self._read(post)
        self._watch(post)

    def _watch(self, post: PostInput) -> None:
        """After a post that changed the votes: the timeline, and (``majority_ends_day``)
        whether it ended the Day."""
        changes = len(self.events) + len(self.applied) + len(self.notes)
        if changes == self._changes:
            return
        self._changes = changes
        now = standing(self)
        wagons = tuple((w.target, w.total, tuple(v.name for v in w.voters)) for w in now.wagons)
        if not self.timeline or self.timeline[-1].wagons != wagons:
            where: int | str = post.number if post.number is not None else post.id
            self.timeline.append(Snapshot(where, post.time, wagons))
        if self.rules.majority_ends_day:
            self.watch.check(now, post)

    def _after_hammer(self, post: PostInput) -> None:
        slot = self.roster.by_account(post.author, post.author_id)
        if slot is None or self.roster.is_host_account(post.author, post.author_id):
            return
        actions = []
        if may_hold_votes(post.html, self._syntaxes(post)):
            actions = extract_actions(
                parse_html(post.html, DEFAULT_SKIP), self.rules, self._syntaxes(post)
            )
        where = self.hammer.post if self.hammer else "?"
        why = f"after the Day ended (majority reached at post {where})"
        for action in actions:
            self._event(post, slot.name, action, None, EventStatus.IGNORED, why)

    def _read(self, post: PostInput) -> None:
        if self.roster.is_host_account(post.author, post.author_id):
            if self.rules.host_counts:
                self._host_count(post)
            return
        slot = self.roster.by_account(post.author, post.author_id)
        if slot is not None:
            self._replacement(slot, post)
        if post.source is Source.THREAD and slot is not None:
            self.participated.add(slot.name)
        wanted = Channel.PM if post.source is Source.PM else Channel.THREAD
        if self.rules.channel not in (wanted, Channel.BOTH):
            return
        syntaxes = self._syntaxes(post)
        actions = []
        view = None
        if may_hold_votes(post.html, syntaxes) or post.previous_html is not None:
            view = parse_html(post.html, DEFAULT_SKIP)
            actions = extract_actions(view, self.rules, syntaxes)
        actions = self._corrected(post, actions)
        if not actions:
            return
        if slot is None:
            self._outsider(post, actions)
            return
        refusal = self._refusal(post, slot, actions)
        if refusal is not None:
            for action in actions:
                self._event(post, slot.name, action, None, EventStatus.IGNORED, refusal)
            return
        if not self._edit_allows(post, slot, actions):
            return
        if _BROKEN_QUOTE.search(post.html) and not any(
            names_post(e, post) for e in self.day.events
        ):
            if view is None or maybe_quoted(view, actions[-1:]):
                why = "the post has a quote tag the forum did not render: its vote may be a quote"
                self._hold(post, slot, actions, "broken_quote", why)
                return
            # The post's last vote is the author's own: what it quoted before does not count.
            actions = [a for a in actions if not maybe_quoted(view, [a])]
        self._apply(post, slot, actions)

    def _outsider(self, post: PostInput, actions: list[RawAction]) -> None:
        """Votes by an account off the roster never count; they are listed for the GM.

        An account whose name only looks like a player's or a host's (``Аnn`` with a
        Cyrillic А, ``Ann\u200b``) is another account: its votes are ignored. Any other
        outsider may be a replacement the GM has not entered yet: until the GM says who it
        is (players/replaces) or ignores it, its vote is doubtful and may hold the decision.
        """
        raw = "; ".join(a.raw for a in actions)
        mimics = self._mimicked(post.author)
        if mimics is not None:
            why = f"{post.author!r} is another account that looks like {mimics}: ignored"
            self.queue.append(QueueItem("lookalike_account", post.id, post.author, raw, (), why))
            for action in actions:
                self._event(post, post.author, action, None, EventStatus.IGNORED, why)
            return
        self.outsiders.add(post.author)
        why = f"{post.author} is not in the player list (a replacement?)"
        self.queue.append(QueueItem("unknown_voter", post.id, post.author, raw, (), why))
        for action in actions:
            self._event(post, post.author, action, None, EventStatus.QUEUED, why)

    def _mimicked(self, author: str) -> str | None:
        """The player or host an outsider's name folds to (a look-alike), if any."""
        slot = self.roster.by_author(author)
        if slot is not None:
            return slot.name
        return next((h for h in self.roster.hosts if fold(h) == fold(author)), None)

    def _replacement(self, slot: Slot, post: PostInput) -> None:
        """A replacement's first post: without ``replacement_inherits_vote`` the vote goes."""
        account = post.author_id or account_key(post.author)
        before = self.accounts.get(slot.name)
        self.accounts[slot.name] = account
        if before is None or before == account or self.rules.replacement_inherits_vote:
            return
        if self._clear(slot.name, post):
            self.notes.append(
                f"{post.author} replaced {slot.name}'s previous player at post "
                f"{post.number if post.number is not None else post.id}: the old vote does "
                "not carry over (replacement_inherits_vote: false)"
            )

    def _syntaxes(self, post: PostInput) -> frozenset[Syntax]:
        """The syntaxes of a post; in a PM-voting game ``syntax`` describes the PMs too."""
        if post.source is not Source.PM:
            return self.rules.syntax
        if self.rules.channel is Channel.PM:
            return self.rules.pm_syntax | self.rules.syntax
        return self.rules.pm_syntax

    def _corrected(self, post: PostInput, actions: list[RawAction]) -> list[RawAction]:
        for event in self.day.events:
            if not names_post(event, post):
                continue
            if event.kind is DayEventKind.IGNORE:
                return []
            if event.kind is DayEventKind.CORRECT:
                start = actions[0].start if actions else 0
                syntax = actions[0].syntax if actions else Syntax.BOLD_VOTE
                kind = Action.VOTE if event.target else Action.UNVOTE
                text = event.target or ""
                raw = f"GM correction: {text or 'unvote'}"
                return [RawAction(kind, text, raw, syntax, start, start)]
        return actions

    def _refusal(self, post: PostInput, slot: Slot, actions: list[RawAction]) -> str | None:
        if self.day.deadline and post.time and post.time > self.day.deadline:
            self.deadline_passed = True
            return "posted after the deadline"
        if (
            post.source is Source.PM
            and len(post.recipients) > 1
            and not self.rules.multi_recipient_pm
        ):
            return "PM sent to several recipients: the rules ignore it"
        if slot.name in self.voided:
            return f"{slot.name}'s vote is void for the day (changed vote)"
        return self.can_vote(slot)

    def _hold(
        self, post: PostInput, slot: Slot, actions: list[RawAction], kind: str, why: str
    ) -> None:
        """The post's vote waits for the GM: the old vote no longer stands, the voter is
        pending (a doubtful vote) until the GM decides."""
        item = QueueItem(kind, post.id, slot.name, _summary(actions), (), why)
        self.queue.append(item)
        self._clear(slot.name, post)
        self.pending[slot.name] = item
        for action in actions:
            self._event(post, slot.name, action, None, EventStatus.QUEUED, why)

    def _edit_allows(self, post: PostInput, slot: Slot, actions: list[RawAction]) -> bool:
        """Apply the edit policy; False when this post's votes must not count."""
        if not (post.edited or post.previous_html is not None):
            return True
        deadline, edited_at = self.day.deadline, post.edited_at
        if deadline and edited_at and edited_at > deadline:
            # What the post said at the deadline is unknown: the GM decides.
            why = "post edited after the deadline: its vote at the deadline is unknown"
            self._hold(post, slot, actions, "edited_after_deadline", why)
            return False
        after = _summary(actions)
        before = None
        if post.previous_html is not None:
            syntaxes = self._syntaxes(post)
            before = _summary(extract_actions(parse_html(post.previous_html), self.rules, syntaxes))
            if before == after:
                return True
            self.edits.append(EditFlag(post.id, slot.name, before, after))
        policy = self.rules.edited_votes
        if policy is EditPolicy.COUNT:
            return True
        reason = (
            "edited vote (the rules void edited votes)"
            if policy is EditPolicy.IGNORE
            else "edited vote: the GM decides"
        )
        versions = (before or "(previous version unknown)", after)
        self.queue.append(QueueItem("edited_vote", post.id, slot.name, after, (), reason, versions))
        for action in actions:
            self._event(post, slot.name, action, None, EventStatus.QUEUED, reason)
        if policy is EditPolicy.IGNORE:
            self._clear(slot.name, post)
        return False

    def _apply(self, post: PostInput, slot: Slot, actions: list[RawAction]) -> None:
        """Apply a post's actions: only where the post leaves the vote matters.

        "Vote: No Lynch ... just kidding. Vote: Akonyl" from someone already on Akonyl changes
        nothing (phpBB fixture #50); "Unvote" then "Vote: X" moves the vote to X.
        """
        start = self.current.get(slot.name)
        state: str | None = start.target if start else None
        doubt: QueueItem | None = None
        steps: list[_Step] = []
        final: int | None = None
        for action in actions:
            step, state, doubt, decisive = self._step(post, slot, action, state, doubt)
            steps.append(step)
            if decisive:
                final = len(steps) - 1
        for i, step in enumerate(steps):
            superseded = step.status in (EventStatus.COUNTED, EventStatus.QUEUED)
            if i != final and superseded and step.action.action is Action.VOTE:
                steps[i] = replace(
                    step, status=EventStatus.NO_CHANGE, reason="superseded later in the same post"
                )
        if final is not None:
            steps[final] = self._settle(post, slot, steps[final], start, state, doubt)
        for step in steps:
            self._event(
                post, slot.name, step.action, step.target, step.status, step.reason, step.found
            )

    def _step(
        self,
        post: PostInput,
        slot: Slot,
        action: RawAction,
        state: str | None,
        doubt: QueueItem | None,
    ) -> tuple[_Step, str | None, QueueItem | None, bool]:
        """One action on the post's running state: (event, new state, doubt, decisive)."""
        if action.action is Action.UNVOTE:
            return _Step(action, None, EventStatus.COUNTED), None, None, True
        found, _ = self.resolve(action.target)
        target = found.slot if isinstance(found, Resolved) else None
        if action.action is Action.WITHDRAW:
            if target is not None and target == state:
                return _Step(action, target, EventStatus.COUNTED, "", found), None, None, True
            why = "not currently voting that name"
            return _Step(action, target, EventStatus.NO_CHANGE, why, found), state, doubt, False
        if not isinstance(found, Resolved):
            if isinstance(found, Unknown) and found.reason.endswith(_INVALID):
                return _Step(action, None, EventStatus.IGNORED, found.reason), state, doubt, False
            if isinstance(found, Ambiguous):
                candidates = found.candidates
            else:  # suggestions only, for the GM to pick from
                candidates = self.living_index().suggest(action.target.split(",")[0][:40])
            kind = "ambiguous_name" if isinstance(found, Ambiguous) else "unresolved_name"
            written = clean_target(action.target)
            item = QueueItem(
                kind, post.id, slot.name, action.raw, candidates, found.reason, written=written
            )
            return _Step(action, None, EventStatus.QUEUED, found.reason), None, item, True
        why = self._invalid_target(slot, found.slot)
        if why:
            forbidden_self = found.slot == slot.name and not self.rules.self_vote
            step = _Step(action, found.slot, EventStatus.IGNORED, why, found)
            # A forbidden self-vote counts as no vote at all (seed 004): it clears the vote.
            return (step, None, None, True) if forbidden_self else (step, state, doubt, False)
        return _Step(action, found.slot, EventStatus.COUNTED, "", found), found.slot, None, True

    def _settle(
        self,
        post: PostInput,
        slot: Slot,
        step: _Step,
        start: Cast | None,
        state: str | None,
        doubt: QueueItem | None,
    ) -> _Step:
        """Make the post's final state the voter's vote; returns the decisive event."""
        if doubt is not None:
            # The voter clearly moved his vote, but to whom is the GM's call: his old vote no
            # longer stands and he is listed as pending until the GM decides.
            self.queue.append(doubt)
            self._clear(slot.name, post)
            self.pending[slot.name] = doubt
            return step
        self.pending.pop(slot.name, None)
        if state is None:
            had = self._clear(slot.name, post)
            if not had and step.status is EventStatus.COUNTED:
                return replace(step, status=EventStatus.NO_CHANGE, reason="no vote to remove")
            return step
        if start is not None and start.target == state:
            return replace(step, status=EventStatus.NO_CHANGE, reason="already voting")
        if self.rules.revote is RevotePolicy.VOID and slot.name in self.voted:
            self._clear(slot.name, post)
            self.voided.add(slot.name)
            why = "second vote: the rules void the player's vote for the day"
            return replace(step, status=EventStatus.IGNORED, reason=why)
        self._clear(slot.name, post)
        self.seq += 1
        self.current[slot.name] = Cast(state, post.id, post.number, self.seq, post.time)
        self.voted.add(slot.name)
        return step

    def _invalid_target(self, slot: Slot, target: str) -> str:
        if target == NO_LYNCH:
            return ""
        if target == slot.name and not self.rules.self_vote:
            return "self-votes are forbidden (counts as no vote)"
        blocked = sorted(self.roster.slot(target).statuses & self.rules.unvotable_statuses)
        return f"{target} cannot be voted ({', '.join(blocked)})" if blocked else ""

    def _clear(self, voter: str, post: PostInput) -> bool:
        cast = self.current.pop(voter, None)
        if cast is None:
            return False
        self.withdrawn.setdefault(cast.target, []).append(Voter(voter, cast.post_id, cast.number))
        return True

    def _event(
        self,
        post: PostInput,
        voter: str,
        action: RawAction,
        target: str | None,
        status: EventStatus,
        reason: str,
        found: Resolution | None = None,
    ) -> None:
        how = found.how.value if isinstance(found, Resolved) else None
        self.events.append(
            VoteEvent(
                post.id,
                post.number,
                voter,
                action.action,
                target,
                action.raw,
                action.syntax.value,
                status,
                reason,
                how,
                post.time,
            )
        )

    def result(self) -> CountResult:
        """The count: the tally and the Day's decision."""
        last = self.last.number if self.last and self.last.number is not None else None
        if self.hammer is None:
            self.missed = self.watch.could_have_ended(standing(self))
        return tally(self, last)


@dataclass(frozen=True, slots=True)
class _Step:
    """One action's outcome inside a post, before it becomes a :class:`VoteEvent`."""

    action: RawAction
    target: str | None
    status: EventStatus
    reason: str = ""
    found: Resolution | None = None


def _summary(actions: list[RawAction]) -> str:
    return "; ".join(f"{a.action.value} {a.target}".strip() for a in actions)
