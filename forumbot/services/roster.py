"""Roster changes mid-game: replace a player, modkill, a player leaving, substitutes.

Plain functions over an open ``Session`` (the caller commits), shared by the command line
(``forumbot player ...``) and the GM page. Each change is a ``RosterChange`` row (the game's
history and the GM's report list them) and takes effect at once:

* **replace**: the new account takes the slot (a new player row pointing at the old one,
  which becomes ``replaced``). Its role, state, the orders of the phases not yet resolved
  and open queue items move with the slot; from then on its PMs are the slot's orders, its
  thread votes the slot's votes, and receipts and result PMs go to it. Posts of the old
  account made before the change count for the slot (the vote stands unless the rules say
  ``replacement_inherits_vote: false``); after it, they are not the slot's. A role PM to the
  new account and a post announcing the change are drafted.
* **modkill**: the player is dead from now on (the resolver reads him dead in the open
  phase); a public post is drafted, revealing his role unless a status of his hides roles
  on death (the ruleset's own reveal rule, as for any death). His later PMs are read as
  from a dead player.
* **leave**: a player leaving is replaced by a substitute when one is named, else modkilled.
* **substitutes**: a list of standby accounts kept with the game; a replacement by one of
  them takes it off the list.

Drafts go to the GM's approval (approved at once when the game auto-posts) and are sent once
by the publisher, like a phase's results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import PhaseStatus, PlayerStatus, ReviewState
from forumbot.db.models import Game, Order, Phase, Player, ReviewItem, RosterChange
from forumbot.errors import ForumbotError
from forumbot.services import domain, phases, slots, start

__all__ = [
    "ChangeView",
    "RosterError",
    "add_substitute",
    "changes",
    "holder",
    "leave",
    "modkill",
    "remove_substitute",
    "replace",
    "substitutes",
]

KINDS = ("replace", "modkill", "leave")
_UNRESOLVED = (PhaseStatus.PENDING, PhaseStatus.OPEN, PhaseStatus.FROZEN)


class RosterError(ForumbotError, ValueError):
    """A roster change that cannot be made (unknown player, a name already playing...)."""


@dataclass(frozen=True, slots=True)
class ChangeView:
    """A roster change as the GM sees it (``forumbot player list``, the GM page)."""

    id: int
    kind: str
    player: str
    new_player: str | None
    phase: str | None
    at: datetime
    by: str
    note: str
    role: str | None
    revealed: bool | None

    def as_json(self) -> dict[str, object]:
        """The change for ``--json``."""
        return {"id": self.id, "kind": self.kind, "player": self.player,
                "new_player": self.new_player, "phase": self.phase, "at": self.at.isoformat(),
                "by": self.by, "note": self.note, "role": self.role,
                "revealed": self.revealed}  # fmt: skip


def replace(
    session: Session,
    game: Game,
    old: str,
    new: str,
    *,
    by: str,
    at: datetime,
    user_id: str | None = None,
    note: str = "",
    kind: str = "replace",
) -> ChangeView:
    """``new`` takes ``old``'s slot from ``at`` on.

    Raises:
        RosterError: ``old`` holds no living slot, or ``new`` is already in the game.
    """
    leaving = holder(game, old)
    if leaving.status is not PlayerStatus.ALIVE:
        raise RosterError(f"{leaving.display_name} is {leaving.status.value}: only a living "
                          "player can be replaced")  # fmt: skip
    name = new.strip()
    if not name or _named(game, name) is not None:
        raise RosterError(f"{name!r} cannot take the slot: " + ("it is empty" if not name else
                          "this account already plays in the game"))  # fmt: skip
    taker = Player(game_id=game.id, slot=leaving.slot, display_name=name, forum_user_id=user_id,
                   aliases=[], role=leaving.role, faction=leaving.faction,
                   status=PlayerStatus.ALIVE, statuses=list(leaving.statuses),
                   replaces_id=leaving.id)  # fmt: skip
    game.players.append(taker)
    leaving.status = PlayerStatus.REPLACED
    session.flush()
    _move_to_slot(session, game, leaving, taker)
    remove_substitute(game, name, missing_ok=True)
    data: dict[str, object] = {"slot": leaving.slot, "old": leaving.display_name, "new": name}
    row = _record(session, game, kind, leaving, taker, by=by, at=at, note=note, data=data)
    _draft_replacement(session, game, row, leaving.display_name, name)
    return _view(session, row)


def modkill(
    session: Session,
    game: Game,
    name: str,
    *,
    by: str,
    at: datetime,
    note: str = "",
    kind: str = "modkill",
) -> ChangeView:
    """Remove a living player from the game (dead from ``at`` on), announced in a post.

    Raises:
        RosterError: ``name`` holds no living slot.
    """
    player = holder(game, name)
    if player.status is not PlayerStatus.ALIVE:
        raise RosterError(f"{player.display_name} is {player.status.value} already")
    role = _revealed_role(game, player)
    player.status = PlayerStatus.MODKILLED
    row = _record(session, game, kind, player, None, by=by, at=at, note=note,
                  data={"role": role, "revealed": role is not None})  # fmt: skip
    renderer = start.EventRenderer.create(domain.ruleset_of(game))
    body = renderer.message("modkill", player=player.display_name, why=kind,
                            role=renderer.role_name(role) if role else None)  # fmt: skip
    start.draft_message(session, game, start.StartMessage("post", body),
                        key=f"game{game.id}:roster{row.id}:post")  # fmt: skip
    return _view(session, row)


def leave(
    session: Session,
    game: Game,
    name: str,
    *,
    by: str,
    at: datetime,
    substitute: str | None = None,
    note: str = "",
) -> ChangeView:
    """A player leaves: replaced by ``substitute`` (or the first on the list when it is
    ``"next"``), else modkilled."""
    if substitute == "next":
        waiting = substitutes(game)
        if not waiting:
            raise RosterError("no substitute is waiting (forumbot player sub GAME --add NAME)")
        substitute = waiting[0]
    if substitute:
        return replace(session, game, name, substitute, by=by, at=at, note=note, kind="leave")
    return modkill(session, game, name, by=by, at=at, note=note, kind="leave")


def substitutes(game: Game) -> list[str]:
    """The standby accounts waiting to replace a player, first come first."""
    return list((game.settings or {}).get("substitutes") or [])


def add_substitute(game: Game, name: str) -> list[str]:
    """Put an account on the substitutes' list (once).

    Raises:
        RosterError: the name is empty or already plays in the game.
    """
    name = name.strip()
    if not name or _named(game, name) is not None:
        raise RosterError(f"{name!r} cannot be a substitute: "
                          + ("it is empty" if not name else "it already plays"))  # fmt: skip
    waiting = substitutes(game)
    if name.casefold() not in {w.casefold() for w in waiting}:
        waiting.append(name)
    game.settings = {**(game.settings or {}), "substitutes": waiting}
    return waiting


def remove_substitute(game: Game, name: str, *, missing_ok: bool = False) -> list[str]:
    """Take an account off the substitutes' list.

    Raises:
        RosterError: it is not on the list (unless ``missing_ok``).
    """
    waiting = substitutes(game)
    kept = [w for w in waiting if w.casefold() != name.strip().casefold()]
    if len(kept) == len(waiting) and not missing_ok:
        raise RosterError(f"{name!r} is not on the substitutes' list")
    game.settings = {**(game.settings or {}), "substitutes": kept}
    return kept


def changes(session: Session, game_id: int) -> list[ChangeView]:
    """Every roster change of a game, oldest first."""
    rows = session.scalars(select(RosterChange).where(RosterChange.game_id == game_id)
                           .order_by(RosterChange.at, RosterChange.id)).all()  # fmt: skip
    return [_view(session, row) for row in rows]


def holder(game: Game, name: str) -> Player:
    """The player row holding ``name``'s slot now (by name or alias, any status but replaced).

    Raises:
        RosterError: no slot of the game is held under that name.
    """
    player = _named(game, name)
    if player is None or player.status is PlayerStatus.REPLACED:
        playing = ", ".join(p.display_name for p in slots.holders(game.players))
        raise RosterError(f"{name!r} holds no slot of {game.name} (players: {playing})")
    return player


# --- inside ---------------------------------------------------------------------------------


def _named(game: Game, name: str) -> Player | None:
    folded = name.strip().casefold()
    for player in game.players:
        if folded in {n.casefold() for n in (player.display_name, *player.aliases)}:
            return player
    return None


def _move_to_slot(session: Session, game: Game, old: Player, new: Player) -> None:
    """Orders of phases not yet resolved and open queue items follow the slot."""
    open_phases = [p.id for p in game.phases if p.status in _UNRESOLVED]
    for order in session.scalars(select(Order).where(Order.player_id == old.id,
                                                     Order.phase_id.in_(open_phases))):  # fmt: skip
        order.player_id = new.id
    waiting = select(ReviewItem).where(ReviewItem.player_id == old.id,
                                       ReviewItem.state == ReviewState.OPEN)  # fmt: skip
    for item in session.scalars(waiting):
        item.player_id = new.id


def _revealed_role(game: Game, player: Player) -> str | None:
    """The role a death would show: hidden when a status of his hides roles on death."""
    ruleset = domain.ruleset_of(game)
    state = domain.latest_state(game)
    now = next((p for p in state.players if p.name == player.display_name), None) if state else None
    if now is None:
        return player.role
    for status in now.statuses:
        found = ruleset.statuses.get(status.id)
        if found is not None and found.effects.get("hides_role_on_death"):
            return None
    return now.role


def _record(
    session: Session,
    game: Game,
    kind: str,
    player: Player,
    new: Player | None,
    *,
    by: str,
    at: datetime,
    note: str,
    data: dict[str, object],
) -> RosterChange:
    current = phases.current(game)
    row = RosterChange(game_id=game.id, phase_id=current.id if current else None, kind=kind,
                       player_id=player.id, new_player_id=new.id if new else None, at=at,
                       by=by, note=note, data=data)  # fmt: skip
    session.add(row)
    session.flush()
    return row


def _draft_replacement(session: Session, game: Game, row: RosterChange, old: str, new: str) -> None:
    """The new account's role PM and the post that tells the thread."""
    renderer = start.EventRenderer.create(domain.ruleset_of(game))
    post = renderer.message("replaced", old=old, new=new)
    start.draft_message(session, game, start.StartMessage("post", post),
                        key=f"game{game.id}:roster{row.id}:post")  # fmt: skip
    for message in start.role_messages(game, only=(new,), replaces=old):
        key = f"game{game.id}:roster{row.id}:{message.key}"
        start.draft_message(session, game, message, key=key)


def _view(session: Session, row: RosterChange) -> ChangeView:
    names = dict(session.execute(select(Player.id, Player.display_name)
                                 .where(Player.game_id == row.game_id)).all())  # fmt: skip
    phase = session.get(Phase, row.phase_id) if row.phase_id is not None else None
    data = row.data or {}
    return ChangeView(
        id=row.id, kind=row.kind, player=names.get(row.player_id, "?"),
        new_player=names.get(row.new_player_id) if row.new_player_id is not None else None,
        phase=phase.name if phase else None, at=row.at, by=row.by, note=row.note,
        role=data.get("role") if isinstance(data.get("role"), str) else None,  # type: ignore[arg-type]
        revealed=data.get("revealed") if isinstance(data.get("revealed"), bool) else None,  # type: ignore[arg-type]
    )  # fmt: skip
