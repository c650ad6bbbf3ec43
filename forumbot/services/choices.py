"""Legal choices for a GM's decision: what an accepted or edited order may contain.

The sender's abilities in this phase (role, uses left, item-granted abilities), living or
dead targets as each ability requires, roles, crimes and phases; and the validation of an
order against them. Used by the review service and the web page's edit form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import PhaseKind, PhaseStatus, ReviewKind, VoteKind
from forumbot.db.models import Game, Phase, Player, ReviewItem
from forumbot.db.types import utcnow
from forumbot.services import domain, schedule
from forumbot.services import phases as game_phases
from resolver.model.catalogue import Ruleset
from resolver.validate import PERFORMER


@dataclass(frozen=True, slots=True)
class OrderInput:
    """A structured order as the GM decides it: ability id, targets, named parameters."""

    ability: str | None
    targets: tuple[Any, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "order"  # or the parser's other kinds: cancel, will, vote, handoff...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OrderInput:
        """Read a parser order (``{"ranked": [...]}`` slots keep their first choice)."""
        targets = []
        for slot in data.get("targets") or []:
            if isinstance(slot, Mapping) and "ranked" in slot:
                slot = (slot["ranked"] or [None])[0]
            targets.append(slot)
        ability = data.get("ability")
        params = dict(data.get("params") or {}) if isinstance(data.get("params"), Mapping) else {}
        if data.get("performer"):  # a clan member's move sent by the clan head
            params.setdefault(PERFORMER, str(data["performer"]))
        return cls(
            ability=str(ability) if ability else None,
            targets=tuple(targets),
            params=params,
            kind=str(data.get("kind") or "order"),
        )

    def as_json(self) -> dict[str, Any]:
        """The JSON stored in a review item's resolution."""
        return {
            "kind": self.kind,
            "ability": self.ability,
            "targets": list(self.targets),
            "params": dict(self.params),
        }

    def label(self) -> str:
        """``shoot Bob`` / ``arrest Carl crime=kill:Conia:night1``."""
        head = [] if self.kind == "order" else [self.kind]
        if self.ability or self.kind == "order":
            head.append(self.ability or "?")
        parts = [*head, *(_show(t) for t in self.targets)]
        parts += [f"{k}={_show(v)}" for k, v in self.params.items()]
        return " ".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, Mapping):
        if "crime" in value:
            victim = value.get("victim") or value.get("role")
            parts = (value.get("crime"), victim, value.get("phase"))
            return ":".join(str(p or "") for p in parts).rstrip(":")
        return str(value.get("text", value))
    return str(value)


@dataclass(frozen=True, slots=True)
class Picker:
    """One field of an order form: what kind of value, and the legal options (empty: free).

    Claims and texts have options only when the ruleset lists choices for them.
    """

    name: str
    kind: str
    optional: bool
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AbilityChoice:
    """An ability the sender may use now, with pickers for its targets and parameters."""

    id: str
    name: str
    targets: tuple[Picker, ...]
    params: tuple[Picker, ...]


@dataclass(frozen=True, slots=True)
class Choices:
    """Everything an edit may pick from; ``from_ruleset`` says where abilities came from."""

    sender: str | None
    phase: str | None
    abilities: tuple[AbilityChoice, ...]
    living: tuple[str, ...]
    players: tuple[str, ...]
    roles: tuple[str, ...]
    crimes: tuple[str, ...]
    phases: tuple[str, ...]
    from_ruleset: bool
    order_phases: tuple[str, ...] = ()  # the phases this item's order may be stored for

    def ability(self, ability_id: str | None) -> AbilityChoice | None:
        """The choice for ``ability_id``, or None if it is not legal now."""
        return next((a for a in self.abilities if a.id == ability_id), None)


def load_game_ruleset(game: Game) -> Ruleset | None:
    """The game's ruleset, or None while its file is not usable (the pickers then say so)."""
    try:
        return domain.ruleset_of(game)
    except (ValueError, OSError):  # RulesetError is a ValueError
        return None


@dataclass(frozen=True, slots=True)
class PhaseOption:
    """A phase an order may be stored for; ``id`` None: planned, its row made when used."""

    name: str
    kind: str
    id: int | None


def phase_options(game: Game, item: ReviewItem) -> tuple[PhaseOption, ...]:
    """The phases a queued order of this item may be for: the phase it was filed for, the
    phases orders are taken for now (open, planned next, a frozen phase waiting for a
    tie-break), and, until a night and a day are both offered, the ones the schedule plans
    next (a night order sent while the night's results wait for approval)."""
    rows = sorted(game.phases, key=lambda p: p.sequence)
    filed = [p for p in rows if p.id == item.phase_id]
    found: dict[str, PhaseOption] = {}
    for row in [*filed, *game_phases.order_phases(game)]:
        found.setdefault(row.name, PhaseOption(row.name, row.kind.value, row.id))
    if item.kind is not ReviewKind.ORDER or not rows:
        return tuple(found.values())
    name, end = rows[-1].name, rows[-1].deadline or utcnow()
    while not {PhaseKind.NIGHT.value, PhaseKind.DAY.value} <= {o.kind for o in found.values()}:
        plan = schedule.following_plan(game_phases.schedule_of(game), name, end)
        if plan.name in found or len(found) > len(rows) + 2:
            break
        found[plan.name] = PhaseOption(plan.name, plan.kind, None)
        name, end = plan.name, plan.deadline
    return tuple(found.values())


def planned_phase(session: Session, game: Game, name: str) -> Phase:
    """The row of phase ``name``, made (pending, with the schedule's times) with every
    phase planned before it when it does not exist yet."""
    rows = sorted(game.phases, key=lambda p: p.sequence)
    for row in rows:
        if row.name == name:
            return row
    last = rows[-1]
    current, end = last.name, last.deadline or utcnow()
    for _ in range(3):
        plan = schedule.following_plan(game_phases.schedule_of(game), current, end)
        row = Phase(game_id=game.id, sequence=len(game.phases) + 1, name=plan.name,
                    kind=PhaseKind(plan.kind), number=plan.number, status=PhaseStatus.PENDING,
                    starts_at=plan.starts_at, deadline=plan.deadline)  # fmt: skip
        game.phases.append(row)
        session.flush()
        if plan.name == name:
            return row
        current, end = plan.name, plan.deadline
    raise ValueError(f"phase {name!r} is not planned next")


def legal_choices(
    session: Session,
    item: ReviewItem,
    ruleset: Any,
    candidates: Sequence[OrderInput],
    phase_name: str | None = None,
) -> Choices:
    """What an order for this item may be: the sender's abilities in the phase (``phase_name``,
    else the offered phase the best candidate fits, else the item's), legal targets."""
    game = session.get(Game, item.game_id)
    assert game is not None
    players = session.scalars(select(Player).where(Player.game_id == game.id)).all()
    phases = session.scalars(select(Phase).where(Phase.game_id == game.id)).all()
    offered = phase_options(game, item) if item.kind is ReviewKind.ORDER else ()
    phase: Any = next((p for p in phases if p.id == item.phase_id), None)
    if offered:
        ruleset = ruleset if ruleset is not None else load_game_ruleset(game)
        chosen = _chosen_phase(offered, phase_name, phase, ruleset, candidates)
        phase = next((p for p in phases if p.name == chosen.name), None) or chosen
    sender = next((p for p in players if p.id == item.player_id), None)
    living = tuple(p.display_name for p in players if p.status.value == "alive")
    names = tuple(p.display_name for p in players)
    phase_names = tuple(p.name for p in phases)
    crimes: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    if item.kind in (ReviewKind.VOTE, ReviewKind.EDIT):
        abilities, ruleset = _vote_abilities(living), None
    else:
        ruleset = ruleset if ruleset is not None else load_game_ruleset(game)
        crimes = _crimes(ruleset, candidates)
        roles = tuple(sorted(ruleset.roles)) if ruleset is not None else ()
        ctx = _Ctx(sender, living, names, roles, crimes, phase_names, ruleset)
        if ruleset is not None and sender is not None and sender.role in ruleset.roles:
            held = _usable(ruleset, ruleset.roles[sender.role], _state_of(phases, sender))
            extra = _performers_abilities(ruleset, players, phases, candidates, held)
            abilities = _ruleset_abilities([*held, *extra], phase, ctx)
            if any(c.params.get(PERFORMER) for c in candidates):  # who carries it out
                others = tuple(n for n in living if n != sender.display_name)
                doer = Picker(PERFORMER, "player", True, others)
                abilities = tuple(replace(a, params=(*a.params, doer)) for a in abilities)
        else:
            ruleset, abilities = None, _candidate_abilities(candidates, ctx)
    return Choices(
        sender=sender.display_name if sender else None,
        phase=phase.name if phase else None,
        abilities=abilities, living=living, players=names, roles=roles, crimes=crimes,
        phases=phase_names, from_ruleset=ruleset is not None,
        order_phases=tuple(o.name for o in offered),
    )  # fmt: skip


def _chosen_phase(
    offered: Sequence[PhaseOption],
    name: str | None,
    filed: Phase | None,
    ruleset: Any,
    candidates: Sequence[OrderInput],
) -> PhaseOption:
    """The phase asked for; else the filed phase if the best candidate fits it, else the
    first offered phase it fits (a night order sent by day: the night)."""
    if name is not None:
        found = next((o for o in offered if o.name == name), None)
        return found or PhaseOption(name, "", None)
    first = offered[0] if filed is None else next(o for o in offered if o.name == filed.name)
    abilities = [ruleset.abilities.get(c.ability) for c in candidates[:1] if ruleset and c.ability]
    if not abilities or abilities[0] is None:
        return first
    ability = abilities[0]
    fits = [o for o in offered if ability.allowed_in(o.kind) and o.name not in ability.not_on]
    return first if first in fits or not fits else fits[0]


@dataclass(frozen=True, slots=True)
class _Ctx:
    sender: Player | None
    living: tuple[str, ...]
    players: tuple[str, ...]
    roles: tuple[str, ...]
    crimes: tuple[str, ...]
    phases: tuple[str, ...]
    ruleset: Any

    def options(self, kind: str, alive: bool | None = True, me: bool = True) -> tuple[str, ...]:
        """Legal values of a slot of this kind (a dead player is never a living target)."""
        if kind == "player":
            pool = self.living if alive else self.players
            if alive is False:
                pool = tuple(p for p in self.players if p not in self.living)
            mine = self.sender.display_name if self.sender else None
            return tuple(p for p in pool if me or p != mine)
        table = {"role": self.roles, "crime": self.crimes, "phase": self.phases}
        if self.ruleset is not None:
            table["faction"] = tuple(sorted(self.ruleset.factions))
            table["item"] = tuple(sorted(self.ruleset.items))
        return table.get(kind, ())


def _vote_abilities(living: tuple[str, ...]) -> tuple[AbilityChoice, ...]:
    target = (Picker("target", "player", False, living),)
    return (
        AbilityChoice(VoteKind.VOTE.value, "vote", target, ()),
        AbilityChoice(VoteKind.UNVOTE.value, "unvote", (), ()),
        AbilityChoice(VoteKind.NO_LYNCH.value, "no lynch", (), ()),
    )


def _performers_abilities(
    ruleset: Any,
    players: Sequence[Player],
    phases: Sequence[Phase],
    candidates: Sequence[OrderInput],
    held: Sequence[Any],
) -> list[Any]:
    """The abilities of the clan member a candidate names as its performer (the Boss's
    "Ника вербует Дину" is Ника's recruitment), besides the sender's own."""
    names = {str(c.params[PERFORMER]) for c in candidates if c.params.get(PERFORMER)}
    mine = {a.id for a in held}
    found: list[Any] = []
    for player in players:
        if player.display_name in names and player.role in ruleset.roles:
            role = ruleset.roles[player.role]
            found += [a for a in _usable(ruleset, role, _state_of(phases, player))
                      if a.id not in mine and a.id not in {f.id for f in found}]  # fmt: skip
    return found


def _state_of(phases: Sequence[Phase], player: Player) -> Mapping[str, Any]:
    """The player's resolver state after the last resolved phase (encoded ``PlayerState``)."""
    ordered = sorted(phases, key=lambda p: p.sequence)
    latest = next((p.state_after for p in reversed(ordered) if p.state_after), None) or {}
    for entry in latest.get("players", []) if isinstance(latest, Mapping) else []:
        if isinstance(entry, Mapping) and entry.get("name") == player.display_name:
            return entry
    return {}


def _usable(ruleset: Any, role: Any, state: Mapping[str, Any]) -> list[Any]:
    """The role's abilities with uses left, plus those granted by items still held."""
    left = {str(k): int(n) for k, n in (state.get("uses") or []) if isinstance(n, int)}
    found = [a for a in role.abilities.values() if left.get(a.id, 1) > 0]
    for item_id, count in state.get("items") or []:
        item = ruleset.items.get(item_id)
        granted = ruleset.abilities.get(item.ability) if item and item.ability else None
        if granted is not None and count and all(a.id != granted.id for a in found):
            found.append(granted)
    return found


def _ruleset_abilities(
    usable: Sequence[Any], phase: Phase | PhaseOption | None, ctx: _Ctx
) -> tuple[AbilityChoice, ...]:
    if ctx.sender is None or ctx.sender.status.value != "alive":
        return ()
    found = []
    for ability in usable:
        if ability.passive:
            continue
        kind = phase.kind.value if isinstance(phase, Phase) else getattr(phase, "kind", "")
        if phase is not None and (not ability.allowed_in(kind) or phase.name in ability.not_on):
            continue
        targets = tuple(
            Picker(
                f"target {i + 1}",
                spec.kind.value,
                spec.optional,
                ctx.options(spec.kind.value, spec.alive, spec.self or not spec.others),
            )
            for i, spec in enumerate(ability.targets)
        )
        if any(not spec.others for spec in ability.targets) and ctx.sender is not None:
            targets = tuple(
                Picker(t.name, t.kind, t.optional, (ctx.sender.display_name,))
                if t.kind == "player" and not s.others
                else t
                for t, s in zip(targets, ability.targets, strict=True)
            )
        params = tuple(
            Picker(p.name, p.kind.value, p.optional, p.choices or ctx.options(p.kind.value))
            for p in ability.params.values()
        )
        name = next(iter(ability.name.values()), ability.id) if ability.name else ability.id
        found.append(AbilityChoice(ability.id, str(name), targets, params))
    return tuple(found)


def _candidate_abilities(candidates: Sequence[OrderInput], ctx: _Ctx) -> tuple[AbilityChoice, ...]:
    """Without a ruleset: the abilities the parser saw, with living players as targets."""
    seen: dict[str, AbilityChoice] = {}
    for order in candidates:
        if not order.ability:
            continue
        old = seen.get(order.ability)
        count = max(len(order.targets), len(old.targets) if old else 0)
        params = {p.name: p for p in (old.params if old else ())}
        for key, value in order.params.items():
            kind = "crime" if isinstance(value, Mapping) and "crime" in value else "text"
            params.setdefault(key, Picker(key, kind, True, ctx.options(kind)))
        targets = tuple(
            Picker(f"target {i + 1}", "player", False, ctx.options("player")) for i in range(count)
        )
        seen[order.ability] = AbilityChoice(
            order.ability, order.ability, targets, tuple(params.values())
        )
    return tuple(seen.values())


def _crimes(ruleset: Any, candidates: Sequence[OrderInput]) -> tuple[str, ...]:
    crimes: set[str] = set()
    for order in candidates:
        for value in order.params.values():
            if isinstance(value, Mapping) and value.get("crime"):
                crimes.add(str(value["crime"]))
    if ruleset is not None:
        crimes.update(ruleset.abilities)
        for ability in ruleset.abilities.values():
            for param in ability.params.values():
                if param.kind.value == "crime":
                    crimes.update(param.choices)
    return tuple(sorted(crimes))


def validate_order(order: OrderInput, choices: Choices) -> list[str]:
    """Why ``order`` is not legal for this sender now (empty when it is)."""
    who = choices.sender or "the sender"
    ability = choices.ability(order.ability)
    if ability is None:
        legal = ", ".join(a.id for a in choices.abilities) or "none"
        return [f"{who} cannot use {order.ability!r} in {choices.phase} (legal: {legal})"]
    problems: list[str] = []
    if len(order.targets) > len(ability.targets):
        problems.append(f"{ability.id} takes {len(ability.targets)} target(s)")
    for i, picker in enumerate(ability.targets):
        value = order.targets[i] if i < len(order.targets) else None
        problems += _check_value(picker, value, choices)
    known = {p.name for p in ability.params} | {PERFORMER}
    problems += [f"{ability.id} has no parameter {k!r}" for k in order.params if k not in known]
    doer = order.params.get(PERFORMER)
    if doer is not None and (doer not in choices.living or doer == choices.sender):
        problems.append(f"{doer!r} is not a living player who may carry out {ability.id}")
    for picker in ability.params:
        problems += _check_value(picker, order.params.get(picker.name), choices)
    return problems


def _check_value(picker: Picker, value: Any, choices: Choices) -> list[str]:
    if value in (None, "", {}):
        return [] if picker.optional else [f"{picker.name} is missing"]
    if picker.kind == "crime" and isinstance(value, Mapping):
        problems = []
        if picker.options and value.get("crime") not in picker.options:
            problems.append(f"{value.get('crime')!r} is not a crime of this ruleset")
        if value.get("victim") and value["victim"] not in choices.players:
            problems.append(f"{value['victim']!r} is not a player")
        if value.get("phase") and value["phase"] not in choices.phases:
            problems.append(f"{value['phase']!r} is not a phase of this game")
        return problems
    if isinstance(value, Mapping):  # a quoted claim ({"text": ...}) is free text
        value = value.get("text", "")
    if picker.options and str(value) not in picker.options:
        why = " (dead, or not in the game)" if picker.kind == "player" else ""
        return [f"{value!r} is not a legal {picker.kind} for {picker.name}{why}"]
    return []
