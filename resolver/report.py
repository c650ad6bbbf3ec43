"""JSON-friendly reports of a resolution: the stable shape ``forumbot simulate --json`` prints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver.model.catalogue import Ruleset
from resolver.model.events import Event, EventKind, Resolution, Visibility
from resolver.model.state import GameState, PlayerState, Winner


def jsonable(value: Any) -> Any:
    """Mappings, tuples and frozensets from event data as plain JSON values."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(jsonable(v) for v in value)
    return value


def event_dict(event: Event) -> dict[str, Any]:
    """An event as ``{kind, ...data}`` (plus ``to`` when private)."""
    out: dict[str, Any] = {"kind": str(event.kind)}
    if event.to:
        out["to"] = list(event.to)
    out.update({k: v for k, v in jsonable(event.data).items() if k not in out})
    return out


def private_dict(event: Event) -> list[dict[str, Any]]:
    """A private event as one ``{to, kind, data}`` entry per recipient.

    A result's kind is the ability that produced it (``check``), as DESIGN.md shows.
    """
    data = jsonable(event.data)
    kind = str(event.kind)
    if event.kind is EventKind.RESULT and "ability" in data:
        kind = data.pop("ability")
    return [{"to": who, "kind": kind, "data": data} for who in event.to]


def player_dict(p: PlayerState) -> dict[str, Any]:
    """A player's state after a phase."""
    return {
        "alive": p.alive,
        "role": p.role,
        "faction": p.faction,
        "statuses": [s.id for s in p.statuses],
        "uses": dict(p.uses),
        "items": dict(p.items),
        **({"died": p.died, "cause": p.cause} if not p.alive else {}),
    }


def winner_dict(winner: Winner | None) -> dict[str, Any] | None:
    """The winner, or None while the game goes on."""
    if winner is None:
        return None
    return {
        "factions": list(winner.factions),
        "players": list(winner.players),
        "reason": winner.reason,
        "draw": winner.draw,
    }


def phase_report(before: GameState, res: Resolution) -> dict[str, Any]:
    """One phase: phase, dead, lynched, rejected, public, private, gm, state, winner."""
    events = res.events
    was_alive = {p.name for p in before.players if p.alive}
    lynched = [e.data["player"] for e in events if e.kind is EventKind.LYNCH]
    rejected = [
        {k: jsonable(e.data[k]) for k in ("actor", "ability", "targets", "reason", "detail")}
        for e in events
        if e.kind is EventKind.OUTCOME and e.data.get("outcome") == "rejected"
    ]
    private = [
        entry for e in events if e.visibility is Visibility.PRIVATE for entry in private_dict(e)
    ]
    return {
        "phase": res.state.phase,
        "dead": [p.name for p in res.state.players if not p.alive and p.name in was_alive],
        "lynched": lynched[0] if lynched else None,
        "rejected": rejected,
        "public": [event_dict(e) for e in events if e.visibility is Visibility.PUBLIC],
        "private": private,
        "gm": [event_dict(e) for e in events if e.visibility is Visibility.GM],
        "state": {p.name: player_dict(p) for p in res.state.players},
        "winner": winner_dict(res.state.winner),
    }


def options_report(ruleset: Ruleset) -> dict[str, Any]:
    """Every option in effect for the game: value, default and the GM-facing question."""
    return {
        o.id: {"value": jsonable(o.value), "default": jsonable(o.default), "doc": o.doc}
        for o in ruleset.options.values()
    }


def setup_report(res: Resolution, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The game's setup: private role messages, random draws, starting state, options."""
    extra = {"options": options_report(ruleset)} if ruleset is not None else {}
    return {
        **extra,
        "private": [
            entry
            for e in res.events
            if e.visibility is Visibility.PRIVATE
            for entry in private_dict(e)
        ],
        "gm": [event_dict(e) for e in res.events if e.visibility is Visibility.GM],
        "links": [{"kind": link.kind, "a": link.a, "b": link.b} for link in res.state.links],
        "state": {p.name: player_dict(p) for p in res.state.players},
    }
