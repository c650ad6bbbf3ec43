"""Slots and the accounts that played them: who holds each slot now, after the roster changes.

A replacement is a new player row pointing at the row it replaced (``replaces_id``): the
new account takes the slot, its role and its state. The resolver keeps a game's state by
player name, so a state saved before a replacement is read with the old name turned into
the new one; a modkilled player (``PlayerStatus.MODKILLED``) is read as dead. Nothing here
writes: the saved states stay as the resolver left them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from forumbot.db.enums import PlayerStatus
from forumbot.db.models import Player
from forumbot.services import statecodec
from resolver.model import GameState

MODKILL_CAUSE = "modkill"


def holders(players: Iterable[Player]) -> list[Player]:
    """The players holding a slot now (a replaced account holds none), in slot order."""
    return [p for p in players if p.status is not PlayerStatus.REPLACED]


def renames(players: Sequence[Player]) -> dict[str, str]:
    """Every replaced account's name -> the name of the slot's holder now (chains followed)."""
    by_id = {p.id: p for p in players}
    out: dict[str, str] = {}
    for player in holders(players):
        earlier = by_id.get(player.replaces_id) if player.replaces_id is not None else None
        while earlier is not None:
            out[earlier.display_name] = player.display_name
            earlier = by_id.get(earlier.replaces_id) if earlier.replaces_id is not None else None
    return out


def previous_names(players: Sequence[Player]) -> dict[str, tuple[str, ...]]:
    """Per holder's name, the earlier accounts of the slot, oldest first."""
    out: dict[str, list[str]] = {}
    for old, new in renames(players).items():
        out.setdefault(new, []).insert(0, old)
    return {name: tuple(names) for name, names in out.items()}


def slot_names(players: Sequence[Player]) -> dict[int, str]:
    """Every player row's id -> the name of its slot's holder now (orders follow the slot)."""
    moved = renames(players)
    return {p.id: moved.get(p.display_name, p.display_name) for p in players}


def adjust(state: GameState, players: Sequence[Player]) -> GameState:
    """A saved state as the roster stands now: replaced names read as their slot's holder, a
    modkilled player dead (unless the state has him dead already)."""
    moved = renames(players)
    killed = {p.display_name for p in players if p.status is PlayerStatus.MODKILLED}
    if not moved and not killed:
        return state
    data = _renamed(statecodec.encode(state), moved) if moved else statecodec.encode(state)
    for entry in data["players"]:
        if entry["name"] in killed and entry["alive"]:
            entry.update(alive=False, cause=MODKILL_CAUSE)
    adjusted: GameState = statecodec.decode(GameState, data)
    return adjusted


def _renamed(value: Any, moved: Mapping[str, str]) -> Any:
    """``value`` with every string (and mapping key) that is a replaced name renamed."""
    if isinstance(value, str):
        return moved.get(value, value)
    if isinstance(value, Mapping):
        return {moved.get(k, k): _renamed(v, moved) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, moved) for v in value]
    return value


__all__ = [
    "MODKILL_CAUSE",
    "adjust",
    "holders",
    "previous_names",
    "renames",
    "slot_names",
]
