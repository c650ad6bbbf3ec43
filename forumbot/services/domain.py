"""Storage rows to the pure layers' types and back, in one place.

The services call ``parsers`` and ``resolver`` directly; this module is the only one that
turns a row (a player, a stored post, a phase's saved state, an order, a logged event) into
their types, or their results back into what a row stores.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from forumbot.db.enums import OrderStatus, PhaseKind, PlayerStatus, Visibility
from forumbot.db.models import Game, LearnedMapping, Phase, PhaseEvent, Player, RawPM, RawPost
from forumbot.db.models import Order as OrderRow
from forumbot.services import games, schedule, statecodec
from forumbot.services import slots as slot_rows
from parsers.orders import DayResult, Handoff, History, Learned, OrderParser, ParseResult, PastOrder
from parsers.orders import Order as ParsedOrder
from parsers.roster import Roster, Slot
from parsers.votes import CountResult, PostInput, Source
from parsers.votes.config import with_game_votes
from resolver.model import Event, EventKind, GameState, Order
from resolver.model import Visibility as EventVisibility
from resolver.model.catalogue import Ruleset
from resolver.report import jsonable
from resolver.ruleset import load_ruleset
from resolver.setup import new_game
from resolver.validate import PERFORMER

NO_LYNCH = "No Lynch"  # the vote counter's name for a vote for no lynch


# --- rulesets and the order parser (loaded once per process) ----------------------------------


def ruleset_of(game: Game) -> Ruleset:
    """The game's ruleset, with the options of its game file and its ``votes:`` laid over
    the ruleset's ``vote:`` (the rules the counter, the resolver and the GM page all read)."""
    return _ruleset(game.ruleset, _options_key(game), _votes_key(game))


def _votes_key(game: Game) -> str:
    """The game file's ``votes:`` overrides, as a cache key (validated when it was read)."""
    stated = games.config_of(game).vote_rules if (game.settings or {}).get("game_yaml") else {}
    return json.dumps(dict(stated), sort_keys=True, default=str)


def parser_of(game: Game) -> OrderParser:
    """The order parser of the game's ruleset (built once: it takes about 0.1 s)."""
    return _parser(game.ruleset, _options_key(game), _votes_key(game))


def _options_key(game: Game) -> str:
    """The ruleset options of the game file the game was registered with, as a cache key."""
    settings = game.settings or {}
    options = settings.get("options")
    if options is None and settings.get("game_yaml"):
        options = games.config_of(game).options
    return json.dumps(options or {}, sort_keys=True, default=str)


@functools.lru_cache(maxsize=32)
def _ruleset(name: str, options: str, votes: str = "{}") -> Ruleset:
    ruleset = load_ruleset(name, options=json.loads(options) or None)
    overrides = json.loads(votes)
    return with_game_votes(ruleset, overrides) if overrides else ruleset


@functools.lru_cache(maxsize=32)
def _parser(name: str, options: str, votes: str = "{}") -> OrderParser:
    return OrderParser(_ruleset(name, options, votes))


# --- players, stored posts and PMs to the parsers ---------------------------------------------


def roster_of(
    game: Game,
    players: Iterable[Player],
    hosts: Sequence[str] = (),
    state: GameState | None = None,
) -> Roster:
    """The slots of these players of ``game`` (dead ones marked dead, for orders on the dead),
    each with its role, life and statuses as the last resolved phase left them (a recruited
    player orders with his new role, a released one is alive again, a revealed Mayor's vote
    weighs 3), or as ``state`` has them (a past Day is counted as it began). A replaced
    account holds no slot: it is its slot's previous name (its earlier posts count for the
    slot, votes on it land on the slot)."""
    state = state if state is not None else latest_state(game)
    previous = slot_rows.previous_names(game.players)
    now = {p.name: p for p in state.players} if state is not None else {}
    slots = tuple(
        Slot(
            name=p.display_name,
            role=now[p.display_name].role if p.display_name in now else p.role,
            aliases=tuple(p.aliases),
            alive=now[p.display_name].alive
            if p.display_name in now
            else p.status is PlayerStatus.ALIVE,
            statuses=frozenset(s.id for s in now[p.display_name].statuses)
            if p.display_name in now
            else frozenset(),
            user_id=p.forum_user_id,  # a vote's author is the account, never a look-alike
            previous=previous.get(p.display_name, ()),
        )
        for p in slot_rows.holders(players)
    )
    return Roster(slots=slots, hosts=tuple(hosts))


def latest_state(game: Game) -> GameState | None:
    """The state after the last resolved phase (None before the first resolution)."""
    resolved = [p for p in game.phases if p.state_after]
    if not resolved:
        return None
    last = max(resolved, key=lambda p: p.sequence)
    return slot_rows.adjust(statecodec.decode(GameState, last.state_after), game.players)


def learned_of(rows: Iterable[LearnedMapping]) -> Learned:
    """What the GM's decisions taught for a game (player names and ability words)."""
    taught: dict[str, dict[str, str]] = {"player": {}, "ability": {}}
    for row in rows:
        taught.setdefault(row.kind, {})[row.text] = row.value
    return Learned(names=taught["player"], abilities=taught["ability"])


def thread_post(row: RawPost, number: int, previous_html: str | None) -> PostInput:
    """A stored post's latest revision for the vote counter (``previous_html``: before it)."""
    return PostInput(
        id=row.post_id,
        author=row.author_name,
        author_id=row.author_user_id,
        html=row.body_html,
        number=number,
        time=row.posted_at,
        previous_html=previous_html,
        edited=row.edited_at is not None or previous_html is not None,
        edited_at=row.edited_at,
    )


def pm_vote(row: RawPM) -> PostInput:
    """A stored PM for the vote counter (a game may take votes by PM)."""
    return PostInput(
        id=f"pm{row.pm_id}",
        author=row.sender_name,
        author_id=row.sender_user_id,
        html=row.body_html,
        time=row.sent_at,
        source=Source.PM,
        recipients=recipients_of(row),
    )


def recipients_of(row: RawPM) -> tuple[str, ...]:
    """Every recipient of a stored PM, by name."""
    return tuple(str(r.get("name", "")) for r in row.recipients or ())


# --- order PMs --------------------------------------------------------------------------------


def fits_phase(ruleset: Ruleset, phase: str, result: ParseResult) -> bool:
    """Whether some reading of the PM uses an ability of this kind of phase (``I protect X
    tonight`` sent by day fits the night, and is filed for it)."""
    kind = phase.rstrip("0123456789")
    used = {o.ability for o in result.orders}
    used |= {o.ability for c in result.candidates for o in c.orders}
    known = [ruleset.abilities[a] for a in used if a in ruleset.abilities]
    return not known or any(a.allowed_in(kind) for a in known)


@dataclass(frozen=True, slots=True)
class OrderInputs:
    """What the order parser needs of the game for one PM, besides its text."""

    roster: Roster
    history: History
    uses_left: Mapping[str, int]
    items: tuple[str, ...]


def order_inputs(
    game: Game, player: Player, orders: Iterable[Any], sent_at: str | None
) -> OrderInputs:
    """The roster with each player's role, life and statuses as the last resolved phase left
    them (:func:`roster_of`), the sender's uses left and items, and the game's history:
    every applied order (earlier phases and earlier PMs of this one), the hand-offs among
    them, the PM's send time.

    Args:
        game: the game (its players and phases loaded).
        player: the sender.
        orders: the game's order rows.
        sent_at: when the PM was sent, ISO time in the game's time zone.
    """
    roster = roster_of(game, [p for p in game.players if p.status is not PlayerStatus.REPLACED])
    state = latest_state(game)
    own = next((p for p in state.players if p.name == player.display_name), None) if state else None
    uses = dict(own.uses) if own is not None else {}
    items = tuple(i for i, n in own.items if n > 0) if own is not None else ()
    return OrderInputs(roster, _history(game, orders, sent_at), uses, items)


def _history(game: Game, orders: Iterable[Any], sent_at: str | None) -> History:
    names = slot_rows.slot_names(game.players)  # a replaced account's orders are his slot's
    phase_names = {p.id: p.name for p in game.phases}
    past: list[PastOrder] = []
    handoffs: list[Handoff] = []
    for row in orders:
        if row.status is not OrderStatus.ACCEPTED or not row.ability:
            continue
        actor, when = names.get(row.player_id, ""), phase_names.get(row.phase_id, "")
        targets = tuple(str(t) for t in row.targets)
        if row.ability == "handoff" and targets:
            phases = str((row.params or {}).get("phases") or "")
            handoffs.append(Handoff(actor, targets[0], tuple(p for p in phases.split(",") if p)))
            continue
        doer = (row.params or {}).get(PERFORMER)
        past.append(PastOrder(when, actor, row.ability, targets, str(doer) if doer else None))
    return History(tuple(past), tuple(handoffs), sent_at, _day_results(game))


def _day_results(game: Game) -> tuple[DayResult, ...]:
    """Whom each resolved day's vote lynched (jailed, under ru_mafia): the players that
    day's saved state adds to the game's lynched list (none added: nobody)."""
    moved = slot_rows.renames(game.players)
    out: list[DayResult] = []
    before = 0
    for phase in sorted(game.phases, key=lambda p: p.sequence):
        if not phase.state_after:
            continue
        lynched = [moved.get(str(n), str(n)) for n in phase.state_after.get("lynched") or ()]
        if phase.kind is PhaseKind.DAY:
            added = [DayResult(phase.name, name) for name in lynched[before:]]
            out += added or [DayResult(phase.name, None)]
        before = len(lynched)
    return tuple(out)


def order_fields(order: ParsedOrder) -> tuple[str, list[str], dict[str, Any]]:
    """(ability, target names, JSON parameters) of a parsed order, as an order row keeps them."""
    targets = [slot.render() for slot in order.targets]
    params = {
        key: value if isinstance(value, str) else value.as_json() for key, value in order.params
    }
    if order.performer:  # a clan member's move sent by the clan head: the resolver's performer
        params[PERFORMER] = order.performer
    return order.ability, targets, params


def ability_clocks(ruleset: Ruleset, kind: str) -> dict[str, time]:
    """Abilities of a phase kind whose orders close at a wall-clock time of their own
    (``effect_params.deadline: "19:00"``: seed 003's wolves), or count only within a window
    of the day (``window: ["19:00", "22:00"]``: Shinra and Celty), as inner-deadline labels."""
    out = {}
    for ability in ruleset.abilities.values():
        if not ability.allowed_in(kind):
            continue
        when = ability.effect_params.get("deadline")
        if isinstance(when, str) and _CLOCK.match(when):
            out[f"{schedule.ABILITY_DEADLINE}{ability.id}"] = time.fromisoformat(when)
        window = ability.effect_params.get("window")
        if isinstance(window, tuple | list) and len(window) == 2:
            opens, closes = (str(w) for w in window)
            if _CLOCK.match(opens) and _CLOCK.match(closes):
                out[f"{schedule.ABILITY_OPENS}{ability.id}"] = time.fromisoformat(opens)
                out[f"{schedule.ABILITY_DEADLINE}{ability.id}"] = time.fromisoformat(closes)
    return out


_CLOCK = re.compile(r"^\d{2}:\d{2}$")


def ability_windows(
    ruleset: Ruleset, kind: str, starts: datetime, ends: datetime
) -> dict[str, datetime]:
    """Ability deadlines counted in hours: ``after_deadline_hours`` after the phase's end
    (the mayor breaks a tie within 10 h), ``dead_window_hours`` after its start for a dead
    player's order (a dead mayor names his successor)."""
    out = {}
    for ability in ruleset.abilities.values():
        if not ability.allowed_in(kind):
            continue
        params = ability.effect_params
        if isinstance(params.get("after_deadline_hours"), int):
            after = ends + timedelta(hours=params["after_deadline_hours"])
            out[f"{schedule.ABILITY_DEADLINE}{ability.id}"] = after
        if isinstance(params.get("dead_window_hours"), int):
            until = min(ends, starts + timedelta(hours=params["dead_window_hours"]))
            out[f"{schedule.DEAD_DEADLINE}{ability.id}"] = until
    return out


def describe(order: ParsedOrder) -> str:
    """``protect Bob``: a parsed order in a few words, for receipts."""
    ability, targets, _params = order_fields(order)
    return " ".join([ability.replace("_", " "), *targets]).strip()


# --- phases to the resolver and back ------------------------------------------------------------


def state_before(game: Game, phase: Phase, ruleset: Ruleset) -> GameState:
    """The state a phase starts from: the last resolved phase's, or the game's set-up."""
    earlier = [p for p in game.phases if p.sequence < phase.sequence and p.state_after]
    if earlier:
        return slot_rows.adjust(statecodec.decode(GameState, earlier[-1].state_after), game.players)
    roles = {p.display_name: p.role or "" for p in slot_rows.holders(game.players)}
    return slot_rows.adjust(new_game(ruleset, roles, seed=game.seed).state, game.players)


def state_row(state: GameState) -> dict[str, Any]:
    """A resolved state as ``Phase.state_after`` keeps it (JSON, exact)."""
    encoded: dict[str, Any] = statecodec.encode(state)
    return encoded


def resolver_orders(rows: Iterable[OrderRow], names: Mapping[int, str]) -> list[Order]:
    """Accepted order rows as the resolver's orders, in the order given."""
    return [
        Order(names[row.player_id], row.ability or "", tuple(row.targets), dict(row.params))
        for row in rows
    ]


def resolver_votes(result: CountResult) -> dict[str, str | None]:
    """The vote count's standing votes as voter -> target (None: a vote for no lynch), in
    the order they were cast (a Day 0 election's tie goes to the first to reach the lead).

    A missing vote the counter counts against the voter (a rule such as seed 003's) is left
    out: the resolver applies the ruleset's own no-vote rule, which a Day 0 election does
    not use.
    """
    first_seen: dict[str, int] = {}
    for i, vote in enumerate(result.events):
        first_seen.setdefault(vote.post_id, i)
    cast = [
        (first_seen.get(voter.post_id, len(first_seen)), voter.name, wagon.target)
        for wagon in result.wagons
        for voter in wagon.voters
        if voter.post_id  # the counter's stand-in for "did not vote" has no post
    ]
    return {name: None if target == NO_LYNCH else target for _, name, target in sorted(cast)}


def newly_dead(before: GameState, after: GameState) -> tuple[str, ...]:
    """The players a phase killed."""
    was_alive = {p.name for p in before.players if p.alive}
    return tuple(p.name for p in after.players if not p.alive and p.name in was_alive)


def event_row(event: Event) -> dict[str, Any]:
    """A resolver event as the phase's event log keeps it."""
    return {
        "kind": str(event.kind),
        "visibility": Visibility(str(event.visibility)),
        "recipients": list(event.to),
        "data": jsonable(event.data),
    }


def event_of(row: PhaseEvent) -> Event:
    """A logged event as the resolver's event (for the templates).

    Raises:
        ValueError: the row's kind is not an event kind of this version.
    """
    return Event(
        EventKind(row.kind),
        EventVisibility(row.visibility.value),
        dict(row.data),
        tuple(str(r) for r in row.recipients),
    )
