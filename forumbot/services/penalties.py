"""The host's penalties the GM enters in a live game (seed 004: п.15 no avatar, п.18 a role
revealed in the thread, п.09а a late post the bot did not see).

A penalty is an accepted order of the ruleset's ``host_penalty`` ability (no role holds it)
for the penalised player, in the Day being played: the resolver applies it at that Day's
resolution, before the vote log is counted («+1 в лог» for the day or for good, or the
lightning of п.18, as the ruleset's options or ``penalty`` say). Late posts between Days are
recorded by the runtime itself (``resolution.late_posts``); this is the GM's own entry.

Plain functions over an open ``Session`` (the caller commits), for ``forumbot player penalty``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus, PhaseKind, PhaseStatus, PlayerStatus
from forumbot.db.models import Game, Order, Phase, Player
from forumbot.errors import ForumbotError
from forumbot.services import domain, phases, roster
from resolver.model.catalogue import Ability

__all__ = [
    "ABILITY",
    "PenaltyChoices",
    "PenaltyError",
    "PenaltyView",
    "cancel",
    "choices",
    "listed",
    "record",
]

ABILITY = "host_penalty"
"""The ruleset ability a host penalty is an order of."""

_PLAYED = (PhaseStatus.OPEN, PhaseStatus.FROZEN)  # a Day not yet resolved


class PenaltyError(ForumbotError, ValueError):
    """A penalty that cannot be entered or cancelled (no such rule, not a Day, unknown player)."""


@dataclass(frozen=True, slots=True)
class PenaltyView:
    """One entered penalty as the GM sees it."""

    id: int
    player: str
    rule: str
    penalty: str | None
    post: str | None
    phase: str
    status: str
    by: str
    at: datetime
    note: str

    def as_json(self) -> dict[str, object]:
        """The penalty for ``--json``."""
        return {"id": self.id, "player": self.player, "rule": self.rule,
                "penalty": self.penalty, "post": self.post, "phase": self.phase,
                "status": self.status, "by": self.by, "at": self.at.isoformat(),
                "note": self.note}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PenaltyChoices:
    """What a GM may enter in this game's ruleset: the rules and, for a revealed role, the
    punishments (the GM page's form)."""

    rules: tuple[str, ...]
    punishments: tuple[str, ...]


def choices(game: Game) -> PenaltyChoices | None:
    """The host penalties of the game's ruleset (None: it has none)."""
    ability = domain.ruleset_of(game).abilities.get(ABILITY)
    if ability is None:
        return None
    spec = ability.params.get("penalty")
    return PenaltyChoices(ability.params["reason"].choices, spec.choices if spec else ())


def record(
    session: Session,
    game: Game,
    name: str,
    rule: str,
    *,
    by: str,
    at: datetime,
    penalty: str | None = None,
    post: str | None = None,
    note: str = "",
) -> PenaltyView:
    """Enter a host penalty of ``rule`` for the living player ``name`` in the current Day.

    Raises:
        PenaltyError: the ruleset has no host penalties, ``rule`` or ``penalty`` is not one of
            its choices, the game is not in a Day, the player is not alive, or the same
            penalty is entered already.
    """
    ability = _ability(game)
    _check_choice(ability, "reason", rule, "--rule")
    if penalty is not None:
        if "penalty" not in ability.params or rule != "role_reveal":
            raise PenaltyError(f"--penalty chooses the punishment of a revealed role "
                               f"(--rule role_reveal), not of {rule}")  # fmt: skip
        _check_choice(ability, "penalty", penalty, "--penalty")
    day = _day(game)
    player = roster.holder(game, name)
    if player.status is not PlayerStatus.ALIVE:
        raise PenaltyError(f"{player.display_name} is {player.status.value}: only a living "
                           "player is penalised")  # fmt: skip
    params = {"reason": rule, **({"penalty": penalty} if penalty else {}),
              **({"post": post} if post else {})}  # fmt: skip
    for row in _rows(session, day):
        if row.player_id == player.id and row.params == params:
            raise PenaltyError(f"this penalty is entered already (#{row.id}); "
                               f"cancel it with --cancel {row.id}")  # fmt: skip
    row = Order(game_id=game.id, phase_id=day.id, player_id=player.id, raw_pm_id=None,
                ability=ABILITY, targets=[], params=params, status=OrderStatus.ACCEPTED,
                confidence=1.0, reason=f"{by} entered a host penalty ({rule})"
                + (f": {note.strip()}" if note.strip() else ""),
                decided_by=by, received_at=at, decided_at=at)  # fmt: skip
    session.add(row)
    session.flush()
    return _view(row, player, day)


def cancel(session: Session, game: Game, order_id: int, *, by: str, at: datetime) -> PenaltyView:
    """Withdraw an entered penalty before its Day resolves.

    Raises:
        PenaltyError: no such penalty of this game, or its Day has resolved already.
    """
    row = session.get(Order, order_id)
    if row is None or row.game_id != game.id or row.ability != ABILITY or row.raw_pm_id:
        raise PenaltyError(f"no penalty #{order_id} in {game.name} (forumbot player penalty "
                           f"{game.name} --list)")  # fmt: skip
    day = session.get(Phase, row.phase_id)
    assert day is not None
    if day.status not in _PLAYED:
        raise PenaltyError(f"penalty #{order_id} was applied when {day.name} resolved; "
                           "redo that phase to change it")  # fmt: skip
    if row.status is OrderStatus.ACCEPTED:
        row.status, row.decided_by, row.decided_at = OrderStatus.CANCELLED, by, at
        row.reason = f"{row.reason} [cancelled: {by}]"
    player = session.get(Player, row.player_id)
    assert player is not None
    return _view(row, player, day)


def listed(session: Session, game: Game) -> list[PenaltyView]:
    """Every penalty the GM entered in the game, oldest first (cancelled ones included)."""
    rows = session.scalars(select(Order).where(
        Order.game_id == game.id, Order.ability == ABILITY, Order.raw_pm_id.is_(None),
    ).order_by(Order.received_at, Order.id)).all()  # fmt: skip
    players = {p.id: p for p in game.players}
    days = {p.id: p for p in game.phases}
    return [_view(r, players[r.player_id], days[r.phase_id]) for r in rows]


# --- inside ---------------------------------------------------------------------------------


def _ability(game: Game) -> Ability:
    ruleset = domain.ruleset_of(game)
    found = ruleset.abilities.get(ABILITY)
    if found is None:
        raise PenaltyError(f"the ruleset {ruleset.id} has no host penalties (no {ABILITY} "
                           "ability): a GM decides such a penalty by hand")  # fmt: skip
    return found


def _check_choice(ability: Ability, param: str, value: str, option: str) -> None:
    choices = ability.params[param].choices
    if value not in choices:
        raise PenaltyError(f"{option} {value!r} is not one of: {', '.join(choices)}")


def _day(game: Game) -> Phase:
    current = phases.current(game)
    if current is None or current.kind is not PhaseKind.DAY or current.status not in _PLAYED:
        shown = f"in {current.name} ({current.status.value})" if current else "not started"
        raise PenaltyError(f"a penalty weighs in a Day's vote log and {game.name} is {shown}: "
                           "enter it during the next Day")  # fmt: skip
    return current


def _rows(session: Session, day: Phase) -> list[Order]:
    return list(session.scalars(select(Order).where(
        Order.phase_id == day.id, Order.ability == ABILITY,
        Order.status == OrderStatus.ACCEPTED, Order.raw_pm_id.is_(None),
    )))  # fmt: skip


def _view(row: Order, player: Player, day: Phase) -> PenaltyView:
    params = row.params or {}
    return PenaltyView(
        id=row.id, player=player.display_name, rule=str(params.get("reason", "")),
        penalty=params.get("penalty"), post=params.get("post"), phase=day.name,
        status=row.status.value, by=row.decided_by, at=row.decided_at,
        note=row.reason,
    )  # fmt: skip
