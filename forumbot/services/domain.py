"""Storage rows to the pure layers' types and back, in one place.

The services call ``parsers`` and ``resolver`` directly; this module is the only one that
turns a row (a player, a stored post, a phase's saved state, an order, a logged event) into
their types, or their results back into what a row stores.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from forumbot.db.enums import PlayerStatus, Visibility
from forumbot.db.models import Game, LearnedMapping, Phase, PhaseEvent, Player, RawPM, RawPost
from forumbot.db.models import Order as OrderRow
from forumbot.services import statecodec
from parsers.orders import Learned, OrderParser, ParseResult
from parsers.orders import Order as ParsedOrder
from parsers.roster import Roster, Slot
from parsers.votes import PostInput, Source
from resolver.model import Event, EventKind, GameState, Order
from resolver.model import Visibility as EventVisibility
from resolver.model.catalogue import Ruleset
from resolver.report import jsonable
from resolver.ruleset import load_ruleset
from resolver.setup import new_game

NO_LYNCH = "No Lynch"  # the vote counter's name for a vote for no lynch


# --- rulesets and the order parser (loaded once per process) ----------------------------------


def ruleset_of(game: Game) -> Ruleset:
    """The game's ruleset, with the options of its game file."""
    return _ruleset(game.ruleset, _options_key(game))


def parser_of(game: Game) -> OrderParser:
    """The order parser of the game's ruleset (built once: it takes about 0.1 s)."""
    return _parser(game.ruleset, _options_key(game))


def _options_key(game: Game) -> str:
    options = (game.settings or {}).get("options") or {}
    return json.dumps(options, sort_keys=True, default=str)


@functools.lru_cache(maxsize=32)
def _ruleset(name: str, options: str) -> Ruleset:
    return load_ruleset(name, options=json.loads(options) or None)


@functools.lru_cache(maxsize=32)
def _parser(name: str, options: str) -> OrderParser:
    return OrderParser(_ruleset(name, options))


# --- players, stored posts and PMs to the parsers ---------------------------------------------


def roster_of(game: Game, players: Iterable[Player], hosts: Sequence[str] = ()) -> Roster:
    """The slots of these players of ``game`` (dead ones marked dead, for orders on the dead),
    each with its role, life and statuses as the last resolved phase left them (a recruited
    player orders with his new role, a released one is alive again, a revealed Mayor's vote
    weighs 3)."""
    state = latest_state(game)
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
        )
        for p in players
    )
    return Roster(slots=slots, hosts=tuple(hosts))


def latest_state(game: Game) -> GameState | None:
    """The state after the last resolved phase (None before the first resolution)."""
    resolved = [p for p in game.phases if p.state_after]
    if not resolved:
        return None
    last = max(resolved, key=lambda p: p.sequence)
    return statecodec.decode(GameState, last.state_after)


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


def order_fields(order: ParsedOrder) -> tuple[str, list[str], dict[str, Any]]:
    """(ability, target names, JSON parameters) of a parsed order, as an order row keeps them."""
    targets = [slot.render() for slot in order.targets]
    params = {
        key: value if isinstance(value, str) else value.as_json() for key, value in order.params
    }
    return order.ability, targets, params


def describe(order: ParsedOrder) -> str:
    """``protect Bob``: a parsed order in a few words, for receipts."""
    ability, targets, _params = order_fields(order)
    return " ".join([ability.replace("_", " "), *targets]).strip()


# --- phases to the resolver and back ------------------------------------------------------------


def state_before(game: Game, phase: Phase, ruleset: Ruleset) -> GameState:
    """The state a phase starts from: the last resolved phase's, or the game's set-up."""
    earlier = [p for p in game.phases if p.sequence < phase.sequence and p.state_after]
    if earlier:
        return statecodec.decode(GameState, earlier[-1].state_after)
    roles = {p.display_name: p.role or "" for p in game.players}
    return new_game(ruleset, roles, seed=game.seed).state


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


def resolver_votes(wagons: Mapping[str, tuple[str, ...]]) -> dict[str, str | None]:
    """The vote count's wagons as voter -> target (None: a vote for no lynch)."""
    return {
        voter: None if target == NO_LYNCH else target
        for target, voters in wagons.items()
        for voter in voters
    }


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
