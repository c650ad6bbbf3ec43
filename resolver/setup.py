"""Game setup: players with roles, starting uses/items/statuses, then the hook's start rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from resolver.errors import ScenarioError
from resolver.hooks import HOOKS
from resolver.hookspecs import HookView
from resolver.model.catalogue import Ruleset
from resolver.model.events import EventKind, Resolution, Visibility
from resolver.model.state import GameState, Link, Phase, PlayerState, Status
from resolver.rng import PurposeRng
from resolver.work import Work


@dataclass(frozen=True, slots=True)
class StartState:
    """Optional starting state a scenario or GM sets (statuses, uses, items, links)."""

    statuses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    uses: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    items: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    links: Sequence[Link] = ()


def new_game(
    ruleset: Ruleset,
    players: Mapping[str, str],
    *,
    seed: int | str,
    start: StartState | None = None,
) -> Resolution:
    """Build the initial state and the setup events (role PMs, teammates, random targets).

    Args:
        ruleset: the game's ruleset.
        players: player name → role id (or alias), in seat order.
        seed: the game seed every random draw derives from.
        start: optional starting statuses, uses, items and links.

    Returns:
        The state before the first phase and the setup events.

    Raises:
        ScenarioError: an unknown role, status, item or ability.
    """
    start = start or StartState()
    state = GameState(
        ruleset.id,
        seed if isinstance(seed, int) else 0,
        tuple(_player(ruleset, n, r, start) for n, r in players.items()),
        links=tuple(start.links),
    )
    setup = Phase(0, 0, "setup")
    work = Work.start(state, ruleset, setup, PurposeRng(seed))
    for p in work.players.values():
        work.tell(p.name, EventKind.ROLE_ASSIGNED, role=p.role, faction=p.faction)
    _teammates(work)
    for link in start.links:  # fixed by the GM: told like a drawn one
        work.tell(link.a, EventKind.LINKED, link=link.kind, target=link.b)
    hook = getattr(HOOKS.get(ruleset.hooks or ""), "on_game_start", None)
    if hook is not None:
        from resolver.engine import apply_primitive

        for prim in hook(HookView(work)):
            apply_primitive(work, prim)
    frozen = GameState(
        state.ruleset,
        state.seed,
        tuple(p.freeze() for p in work.players.values()),
        links=tuple(work.links),
    )
    return Resolution(frozen, tuple(work.events))


def _player(ruleset: Ruleset, name: str, role_id: str, start: StartState) -> PlayerState:
    try:
        role = ruleset.role_of(role_id)
    except KeyError:
        raise ScenarioError(f"players.{name}", f"unknown role {role_id!r}", ruleset.roles) from None
    uses = {a.id: a.uses for a in role.abilities.values() if a.uses is not None}
    for ability, n in start.uses.get(name, {}).items():
        if ability not in ruleset.abilities:
            raise ScenarioError(
                f"start.uses.{name}", f"unknown ability {ability!r}", ruleset.abilities
            )
        uses[ability] = n
    items = dict(role.start_items)
    for item, n in start.items.get(name, {}).items():
        if item not in ruleset.items:
            raise ScenarioError(f"start.items.{name}", f"unknown item {item!r}", ruleset.items)
        items[item] = items.get(item, 0) + n
    statuses = list(role.start_statuses) + list(start.statuses.get(name, ()))
    for sid in statuses:
        if sid not in ruleset.statuses:
            raise ScenarioError(
                f"start.statuses.{name}", f"unknown status {sid!r}", ruleset.statuses
            )
    return PlayerState(
        name=name,
        role=role.id,
        faction=role.faction,
        statuses=tuple(Status(s) for s in statuses),
        uses=tuple(sorted(uses.items())),
        items=tuple(sorted(items.items())),
    )


def _teammates(work: Work) -> None:
    for faction in work.ruleset.factions.values():
        if not faction.knows_members:
            continue
        members = [p.name for p in work.players.values() if p.faction == faction.id]
        for name in members:
            work.emit(
                EventKind.TEAMMATES,
                Visibility.PRIVATE,
                (name,),
                faction=faction.id,
                members=[m for m in members if m != name],
            )
