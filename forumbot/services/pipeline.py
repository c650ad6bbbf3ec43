"""The shell's view of the pure layers: vote counting, order parsing, resolution, rendering.

Each piece is a small callable with shell-side data types, so the runtime does not depend on
the exact API of ``parsers``/``resolver``/``forumbot.render`` while they are being built:
``load_pipeline()`` wires in whatever has landed and records, for each missing piece, one
clear line saying why it is not there. The runtime then degrades: with no order parser,
every order PM goes to the GM queue; with no resolver, a frozen phase waits for the GM.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Verdict = Literal["accepted", "ambiguous", "rejected"]


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    """One structured order: canonical ability id, targets, parameters."""

    ability: str
    targets: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """``protect Bob`` — for receipts and the queue."""
        return " ".join([self.ability.replace("_", " "), *self.targets]).strip()


@dataclass(frozen=True, slots=True)
class OrderReading:
    """What the order parser made of one PM."""

    status: Verdict
    orders: tuple[ParsedOrder, ...] = ()
    candidates: tuple[Mapping[str, Any], ...] = ()  # the parser's Candidate.as_json()
    reason: str = ""
    confidence: float = 0.0
    # False when every reading uses abilities of another kind of phase ("I protect X tonight"
    # sent during the day): the PM is then filed for the phase it fits.
    fits_phase: bool = True


@dataclass(frozen=True, slots=True)
class OrderRequest:
    """Everything the order parser needs for one PM (no I/O behind it)."""

    text: str
    actor: str
    phase: str
    ruleset: str
    roster: Mapping[str, str | None]  # player name -> role id, dead players included
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    alive: tuple[str, ...] | None = None  # None: everyone in the roster is alive
    recipients: tuple[str, ...] | None = None  # every recipient of the PM (hand-offs, rules)
    learned_names: Mapping[str, str] = field(default_factory=dict)  # taught by GM decisions
    learned_abilities: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StoredPost:
    """A stored thread post as the vote counter reads it."""

    post_id: str
    author: str
    body_html: str
    posted_at: str  # ISO time
    recipients: tuple[str, ...] = ()  # PMs: everyone it was sent to
    previous_html: str | None = None  # the body before its last edit, when one was seen
    edited: bool = False
    edited_at: str | None = None  # ISO time of the last edit, when the forum shows it


@dataclass(frozen=True, slots=True)
class Tally:
    """A vote count: voters per target in order, who is not voting, and what it decides."""

    votes: Mapping[str, tuple[str, ...]]
    not_voting: tuple[str, ...]
    events: tuple[Mapping[str, Any], ...] = ()
    queued: tuple[Mapping[str, Any], ...] = ()
    decision: Mapping[str, Any] | None = None
    post: str = ""  # the BBCode vote-count post, when the counter can render one


@dataclass(frozen=True, slots=True)
class VoteRequest:
    """Everything the vote counter needs for one day."""

    posts: Sequence[StoredPost]
    ruleset: str
    roster: Mapping[str, str | None]
    alive: tuple[str, ...]
    hosts: tuple[str, ...]
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    syntax: tuple[str, ...] = ("dollar_bold",)
    day: int | None = None
    deadline: datetime | None = None
    now: datetime | None = None
    pms: Sequence[StoredPost] = ()  # the day's PMs from players (votes when the game takes PMs)
    overrides: Mapping[str, Any] = field(default_factory=dict)  # what the game file says
    corrections: tuple[tuple[str, str, str, Any], ...] = ()  # (correct|ignore, post, voter, target)


@dataclass(frozen=True, slots=True)
class PhaseInput:
    """A frozen phase handed to the resolver: state before, orders, votes, seed."""

    ruleset: str
    phase: str
    seed: int
    state: Mapping[str, Any] | None  # the previous phase's state_after (None: first phase)
    roster: Mapping[str, str | None]
    orders: tuple[tuple[str, ParsedOrder], ...]  # (actor, order), last valid order per ability
    votes: Mapping[str, str] = field(default_factory=dict)  # voter -> target (day phases)
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PhaseOutcome:
    """The resolver's answer in shell terms: JSON state, events with visibility, winner."""

    state: Mapping[str, Any]
    events: tuple[Mapping[str, Any], ...]  # {kind, visibility, to, data}
    dead: tuple[str, ...] = ()
    winner: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class DraftMessage:
    """A message to draft: a public post (``to`` empty) or a PM."""

    key: str  # unique within the phase: "post", "pm:Ann"
    body: str
    to: tuple[str, ...] = ()
    subject: str = ""


VoteCounter = Callable[[VoteRequest], Tally]
OrderParser = Callable[[OrderRequest], OrderReading]
PhaseResolver = Callable[[PhaseInput], PhaseOutcome]
Actors = Callable[[str, Mapping[str, str | None], str], tuple[str, ...]]
"""(ruleset, alive player -> role, phase) -> the players who have an order to send."""
Renderer = Callable[[str, str, PhaseOutcome, str], tuple[DraftMessage, ...]]
"""(ruleset, phase, outcome, game name) -> drafts; a PM to ``@gm`` goes to the game's GM."""


@dataclass(frozen=True, slots=True)
class Pipeline:
    """The pieces available to this process, and why any is missing."""

    votes: VoteCounter | None = None
    orders: OrderParser | None = None
    resolver: PhaseResolver | None = None
    renderer: Renderer | None = None
    actors: Actors | None = None
    missing: Mapping[str, str] = field(default_factory=dict)


def plain_renderer(
    ruleset: str, phase: str, outcome: PhaseOutcome, game: str
) -> tuple[DraftMessage, ...]:
    """A sober BBCode rendering used until ``forumbot.render`` lands.

    Only public events reach the post; each private event goes to its recipients alone;
    GM-only events are never drafted.
    """
    title = phase_title(phase)
    lines = [f"[b]{game} — {title} is over.[/b]", ""]
    for ev in outcome.events:
        if ev.get("visibility") == "public":
            lines.append(describe_event(ev))
    if outcome.winner:
        lines += ["", f"[b]The game is over: {describe_winner(outcome.winner)}.[/b]"]
    drafts = [DraftMessage(key="post", body="\n".join(lines).strip())]
    private: dict[str, list[str]] = {}
    for ev in outcome.events:
        if ev.get("visibility") == "private":
            for name in ev.get("to", ()):
                private.setdefault(name, []).append(describe_event(ev))
    for name, parts in private.items():
        body = "\n".join([f"{title}: your results.", "", *parts])
        drafts.append(DraftMessage(key=f"pm:{name}", body=body, to=(name,), subject=title))
    return tuple(drafts)


def phase_title(phase: str) -> str:
    """``night2`` -> ``Night 2``."""
    head = phase.rstrip("0123456789")
    return f"{head.capitalize()} {phase[len(head) :]}".strip()


def describe_event(ev: Mapping[str, Any]) -> str:
    """One line for an event: its kind and its data, readable by a player."""
    data = ev.get("data") or {}
    detail = ", ".join(f"{k}: {_short(v)}" for k, v in data.items())
    kind = str(ev.get("kind", "event")).replace("_", " ")
    return f"- {kind}" + (f" ({detail})" if detail else "")


def describe_winner(winner: Mapping[str, Any]) -> str:
    """``Village wins (Ann, Bob)``."""
    factions = ", ".join(winner.get("factions", ())) or "nobody"
    players = ", ".join(winner.get("players", ()))
    return f"{factions} win" + (f" ({players})" if players else "")


def _short(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)
