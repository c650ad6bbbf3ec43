"""The game's history as the order rules need it: earlier orders and their results per phase,
the day votes' results, hand-offs and the PM's send time (from the runtime, or a SETUP
file's ``history:`` key)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from parsers.phases import Phase, parse_phase
from parsers.roster import SetupError


@dataclass(frozen=True, slots=True)
class PastOrder:
    """One order of an earlier phase (or an earlier PM of this phase) the GM applied.

    Attributes:
        phase: the phase it was for (``night2``).
        actor: the player who sent it (slot name).
        ability: the ability id.
        targets: the players it targeted, in slot order.
        performer: the player who carried it out when not the sender (a clan's shooter).
        result: what came of it, free text (``success``, ``failed``, ``blocked``).
    """

    phase: str
    actor: str
    ability: str
    targets: tuple[str, ...] = ()
    performer: str | None = None
    result: str | None = None


@dataclass(frozen=True, slots=True)
class DayResult:
    """Whom a day's vote lynched (jailed, under ru_mafia); ``player`` None: nobody (a tie)."""

    phase: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Handoff:
    """A player's actions handed to another (``phases`` empty: until taken back)."""

    sender: str
    delegate: str
    phases: tuple[str, ...] = ()

    def covers(self, phase: str) -> bool:
        """True when the hand-off holds for ``phase``."""
        return not self.phases or phase in self.phases


@dataclass(frozen=True, slots=True)
class History:
    """What the rules of a ruleset may look back on: earlier orders, hand-offs, the PM's
    send time and the day votes' results (``lynched``; a day not listed is unknown).
    ``None`` in place of a History means the history is unknown: rules that need it queue
    the order for the GM."""

    orders: tuple[PastOrder, ...] = ()
    handoffs: tuple[Handoff, ...] = ()
    sent_at: str | None = None
    lynched: tuple[DayResult, ...] = ()

    def by(self, actor: str, ability: str) -> list[PastOrder]:
        """Earlier orders of ``actor`` with ``ability`` (or carried out by ``actor``)."""
        return [o for o in self.orders
                if o.ability == ability and actor in (o.actor, o.performer)]  # fmt: skip

    def in_phase(self, phase: str) -> list[PastOrder]:
        """The orders of one phase."""
        return [o for o in self.orders if o.phase == phase]

    def day_result(self, phase: str) -> DayResult | None:
        """The result of the day vote of ``phase`` (None: the history does not say)."""
        return next((r for r in reversed(self.lynched) if r.phase == phase), None)

    def lynched_on(self, player: str) -> str | None:
        """The last day whose vote lynched ``player`` (None: no day the history records)."""
        return next((r.phase for r in reversed(self.lynched) if r.player == player), None)

    def delegates_to(self, sender: str, delegate: str, phase: str) -> bool:
        """True when ``sender`` handed their actions to ``delegate`` for ``phase``."""
        return any(h.sender == sender and h.delegate == delegate and h.covers(phase)
                   for h in self.handoffs)  # fmt: skip


def previous_of_kind(phase: Phase) -> str | None:
    """The phase of the same kind just before ``phase`` (``night3`` -> ``night2``)."""
    if phase.kind not in ("night", "day") or phase.number <= 0:
        return None
    return f"{phase.kind}{phase.number - 1}"


def history_from_data(data: Any, where: str = "history") -> History:
    """Read a SETUP file's ``history:`` mapping (see docs/setup-files.md).

    Raises:
        SetupError: naming the bad key.
    """
    if not isinstance(data, Mapping):
        raise SetupError(where, "must be a mapping with 'orders', 'lynched', 'handoffs', 'sent_at'")
    unknown = sorted(set(data) - {"orders", "lynched", "handoffs", "sent_at"})
    if unknown:
        raise SetupError(
            f"{where}.{unknown[0]}", "unknown key (known: handoffs, lynched, orders, sent_at)"
        )
    orders = tuple(
        _order(o, f"{where}.orders[{i}]") for i, o in enumerate(_list(data, "orders", where))
    )
    handoffs = tuple(
        _handoff(h, f"{where}.handoffs[{i}]") for i, h in enumerate(_list(data, "handoffs", where))
    )
    lynched = tuple(
        _day_result(r, f"{where}.lynched[{i}]") for i, r in enumerate(_list(data, "lynched", where))
    )
    sent_at = data.get("sent_at")
    if sent_at is not None and not isinstance(sent_at, str):
        raise SetupError(f"{where}.sent_at", "must be an ISO time with its offset, as a string")
    return History(orders, handoffs, sent_at, lynched)


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise SetupError(f"{where}.{key}", "must be a list")
    return value


def _order(raw: Any, where: str) -> PastOrder:
    if not isinstance(raw, Mapping):
        raise SetupError(where, "must be a mapping {phase, actor, ability, targets}")
    for key in ("phase", "actor", "ability"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise SetupError(f"{where}.{key}", "missing: must be a non-empty string")
    _phase(raw["phase"], f"{where}.phase")
    targets = raw.get("targets") or []
    if isinstance(targets, str):
        targets = [targets]
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise SetupError(f"{where}.targets", "must be a list of player names")
    performer, result = raw.get("performer"), raw.get("result")
    if performer is not None and not isinstance(performer, str):
        raise SetupError(f"{where}.performer", "must be a player name")
    return PastOrder(raw["phase"], raw["actor"], raw["ability"], tuple(targets), performer,
                     None if result is None else str(result))  # fmt: skip


def _day_result(raw: Any, where: str) -> DayResult:
    if not isinstance(raw, Mapping):
        raise SetupError(where, "must be a mapping {phase, player} (player empty: nobody)")
    phase, player = raw.get("phase"), raw.get("player")
    if not isinstance(phase, str) or not phase.startswith("day"):
        raise SetupError(f"{where}.phase", "must be the day of the vote (day2)")
    _phase(phase, f"{where}.phase")
    if player is not None and (not isinstance(player, str) or not player.strip()):
        raise SetupError(f"{where}.player", "must be a player name, or empty for nobody")
    unknown = sorted(set(raw) - {"phase", "player"})
    if unknown:
        raise SetupError(f"{where}.{unknown[0]}", "unknown key (known: phase, player)")
    return DayResult(phase, player)


def _handoff(raw: Any, where: str) -> Handoff:
    if not isinstance(raw, Mapping):
        raise SetupError(where, "must be a mapping {from, to, phases}")
    sender, delegate = raw.get("from"), raw.get("to")
    if not isinstance(sender, str) or not isinstance(delegate, str):
        raise SetupError(where, "needs 'from' and 'to' player names")
    phases = raw.get("phases") or []
    if isinstance(phases, str):
        phases = [phases]
    for phase in phases:
        _phase(phase, f"{where}.phases")
    return Handoff(sender, delegate, tuple(str(p) for p in phases))


def _phase(value: Any, where: str) -> None:
    try:
        parse_phase(str(value))
    except ValueError as exc:
        raise SetupError(where, str(exc)) from exc
