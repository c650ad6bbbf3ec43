"""Read-only views of a game for the GM page: phase orders and votes, state, report, export.

Plain functions over a ``Session`` (no Flask here), so the CLI could show the same things.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus, PhaseKind, PhaseStatus, PlayerStatus, ReviewState
from forumbot.db.models import (
    Base,
    Game,
    LearnedMapping,
    Order,
    Outbound,
    Phase,
    PhaseEvent,
    Player,
    RawPM,
    RawPost,
    ReviewItem,
    VoteEvent,
)
from forumbot.errors import GameNotFound
from forumbot.services.phases import daycount
from forumbot.web.wagons import wagon_chart
from parsers.votes import CountResult

LIVE = (PhaseStatus.OPEN, PhaseStatus.FROZEN)


@dataclass(frozen=True, slots=True)
class PlayerOrders:
    """One player's orders in a phase and a one-word summary."""

    name: str
    alive: bool
    summary: str  # accepted | queued | late | missing | none-needed | dead
    orders: tuple[tuple[str, str, str], ...]  # (label, status, decided_by)


@dataclass(frozen=True, slots=True)
class Deadline:
    """A deadline of the phase and the time left to it."""

    name: str
    at: datetime
    left: timedelta

    @property
    def passed(self) -> bool:
        """True once the deadline is behind us."""
        return self.left <= timedelta(0)


@dataclass(frozen=True, slots=True)
class PhaseView:
    """What the phase page shows."""

    game: Game
    phase: Phase | None
    phases: tuple[Phase, ...]
    players: tuple[PlayerOrders, ...]
    tally: tuple[tuple[str, tuple[str, ...]], ...]  # (target, voters in order), most votes first
    not_voting: tuple[str, ...]
    deadlines: tuple[Deadline, ...]
    open_items: int
    summary: Mapping[str, int] = field(default_factory=dict)
    count: CountResult | None = None  # a Day's count: the runtime's own (daycount.count_day)
    chart: str = ""  # the Day's wagons over time, an SVG drawn on the server


def get_game(session: Session, game_id: int) -> Game:
    """The game, or ``GameNotFound``."""
    game = session.get(Game, game_id)
    if game is None:
        raise GameNotFound(str(game_id))
    return game


def list_games(session: Session) -> list[tuple[Game, int]]:
    """Every game with its number of open review items."""
    games = session.scalars(select(Game).order_by(Game.created_at.desc(), Game.id.desc())).all()
    counts: dict[int, int] = defaultdict(int)
    for game_id in session.scalars(
        select(ReviewItem.game_id).where(ReviewItem.state == ReviewState.OPEN)
    ):
        counts[game_id] += 1
    return [(g, counts[g.id]) for g in games]


def current_phase(phases: Sequence[Phase]) -> Phase | None:
    """The open (or frozen) phase, else the latest one."""
    live = [p for p in phases if p.status in LIVE]
    return live[-1] if live else (phases[-1] if phases else None)


def phase_view(
    session: Session,
    game_id: int,
    phase_id: int | None,
    now: datetime,
    needs_order: Callable[[Phase, Sequence[Player]], Mapping[str, bool] | None] | None = None,
) -> PhaseView:
    """Orders per player, the live vote count and the deadlines of one phase.

    Args:
        needs_order: given the phase and the players, per player name whether their role
            has an order to give (from the ruleset); without it every living player is
            expected to send one.
    """
    game = get_game(session, game_id)
    phases = tuple(
        session.scalars(select(Phase).where(Phase.game_id == game_id).order_by(Phase.sequence))
    )
    phase = next((p for p in phases if p.id == phase_id), None) or current_phase(phases)
    players = session.scalars(select(Player).where(Player.game_id == game_id)).all()
    if phase is None:
        return PhaseView(game, None, phases, (), (), (), (), 0)
    orders = session.scalars(
        select(Order).where(Order.phase_id == phase.id).order_by(Order.received_at, Order.id)
    ).all()
    open_items = session.scalars(
        select(ReviewItem.player_id).where(
            ReviewItem.phase_id == phase.id, ReviewItem.state == ReviewState.OPEN
        )
    ).all()
    queued = set(open_items)
    needs = needs_order(phase, players) if needs_order is not None else None
    rows = tuple(_player_orders(p, orders, queued, needs) for p in players)
    count = daycount.count_day(session, game, phase, now) if phase.kind is PhaseKind.DAY else None
    result = count.result if count else None
    tally = (
        tuple((w.target, tuple(v.name for v in w.voters)) for w in result.wagons) if result else ()
    )
    not_voting = result.not_voting if result else ()
    summary: dict[str, int] = defaultdict(int)
    for row in rows:
        summary[row.summary] += 1
    return PhaseView(
        game=game,
        phase=phase,
        phases=phases,
        players=rows,
        tally=tally,
        not_voting=not_voting,
        deadlines=_deadlines(phase, now),
        open_items=len(open_items),
        summary=dict(summary),
        count=result,
        chart=wagon_chart(result, f"{phase.name}: wagons over time") if result else "",
    )


def _player_orders(
    player: Player,
    orders: Sequence[Order],
    queued: set[int | None],
    needs_order: Mapping[str, bool] | None,
) -> PlayerOrders:
    mine = [o for o in orders if o.player_id == player.id]
    shown = tuple(
        (
            " ".join([o.ability or "(none)", *map(str, o.targets)]),
            o.status.value,
            o.decided_by,
        )
        for o in mine
    )
    statuses = {o.status for o in mine}
    alive = player.status is PlayerStatus.ALIVE
    if not alive:
        summary = "dead"
    elif OrderStatus.ACCEPTED in statuses:
        summary = "accepted"
    elif player.id in queued or OrderStatus.AMBIGUOUS in statuses:
        summary = "queued"
    elif OrderStatus.LATE in statuses:
        summary = "late"
    elif needs_order is not None and not needs_order.get(player.display_name, True):
        summary = "none-needed"
    else:
        summary = "missing"
    return PlayerOrders(player.display_name, alive, summary, shown)


def _deadlines(phase: Phase, now: datetime) -> tuple[Deadline, ...]:
    found = []
    if phase.deadline is not None:
        found.append(Deadline("phase end", phase.deadline, phase.deadline - now))
    for name, value in sorted((phase.inner_deadlines or {}).items()):
        try:
            at = datetime.fromisoformat(str(value))
        except ValueError:
            continue
        if at.tzinfo is not None:
            found.append(Deadline(name, at, at - now))
    return tuple(sorted(found, key=lambda d: d.at))


def game_state(session: Session, game_id: int) -> dict[str, Any]:
    """Players (roles, statuses, items), phases and what the GM taught, for the state page."""
    game = get_game(session, game_id)
    phases = session.scalars(
        select(Phase).where(Phase.game_id == game_id).order_by(Phase.sequence)
    ).all()
    latest = latest_player_states(phases)
    players = [
        {"player": p, **_resolver_view(latest.get(p.display_name) or {})}
        for p in session.scalars(
            select(Player).where(Player.game_id == game_id).order_by(Player.slot)
        )
    ]
    learned = session.scalars(
        select(LearnedMapping).where(LearnedMapping.game_id == game_id).order_by(LearnedMapping.id)
    ).all()
    return {"game": game, "players": players, "phases": phases, "learned": learned}


def latest_player_states(phases: Sequence[Phase]) -> dict[str, Mapping[str, Any]]:
    """Per player name, the resolver's state after the last resolved phase.

    ``state_after`` holds an encoded ``GameState``: ``players`` is a list of mappings with
    ``name``, ``statuses`` ([{id, until...}]), ``uses`` and ``items`` ([[id, count]]).
    """
    latest = next((p.state_after for p in reversed(phases) if p.state_after), None) or {}
    players = latest.get("players", []) if isinstance(latest, Mapping) else []
    if isinstance(players, Mapping):  # tolerate a name-keyed mapping
        return {str(k): v for k, v in players.items() if isinstance(v, Mapping)}
    return {str(p["name"]): p for p in players if isinstance(p, Mapping) and "name" in p}


def _resolver_view(state: Mapping[str, Any]) -> dict[str, Any]:
    """Statuses, items and uses as short strings for the state page."""

    def pairs(value: Any) -> list[str]:
        out = []
        for entry in value or []:
            if isinstance(entry, list | tuple) and len(entry) == 2:
                out.append(f"{entry[0]} ×{entry[1]}")
            else:
                out.append(
                    str(entry.get("id", entry)) if isinstance(entry, Mapping) else str(entry)
                )
        return out

    statuses = [
        f"{s['id']} (until {s['until']})" if isinstance(s, Mapping) and s.get("until") else
        str(s.get("id", s)) if isinstance(s, Mapping) else str(s)
        for s in state.get("statuses") or []
    ]  # fmt: skip
    return {"items": pairs(state.get("items")), "uses": pairs(state.get("uses")),
            "resolver_statuses": statuses}  # fmt: skip


def report(session: Session, game_id: int) -> list[tuple[Phase, list[PhaseEvent]]]:
    """Every event of every phase (public, private and GM-only), in order."""
    get_game(session, game_id)
    phases = session.scalars(
        select(Phase).where(Phase.game_id == game_id).order_by(Phase.sequence)
    ).all()
    events: dict[int, list[PhaseEvent]] = defaultdict(list)
    for event in session.scalars(
        select(PhaseEvent).where(PhaseEvent.game_id == game_id).order_by(PhaseEvent.seq)
    ):
        events[event.phase_id].append(event)
    return [(p, events[p.id]) for p in phases]


def export_game(session: Session, game_id: int) -> dict[str, Any]:
    """The whole game as JSON-ready data: every row that belongs to it."""
    game = get_game(session, game_id)
    owned: dict[str, type[Base]] = {
        "players": Player,
        "phases": Phase,
        "orders": Order,
        "votes": VoteEvent,
        "review_items": ReviewItem,
        "learned": LearnedMapping,
        "outbound": Outbound,
        "events": PhaseEvent,
    }
    data: dict[str, Any] = {"format": "forumbot-game-export/1", "game": _row(game)}
    for key, model in owned.items():
        query = select(model).where(model.game_id == game_id).order_by(model.id)  # type: ignore[attr-defined]
        data[key] = [_row(r) for r in session.scalars(query)]
    pm_ids = {r["raw_pm_id"] for k in ("orders", "review_items", "votes") for r in data[k]}
    data["raw_pms"] = [
        _row(r) for r in session.scalars(select(RawPM).where(RawPM.id.in_(pm_ids - {None})))
    ]
    data["raw_posts"] = [
        _row(r)
        for r in session.scalars(
            select(RawPost)
            .where(RawPost.forum_id == game.forum_id, RawPost.topic_id == game.topic_id)
            .order_by(RawPost.id)
        )
    ]
    return data


def _row(row: Base) -> dict[str, Any]:
    mapper = inspect(type(row))
    out: dict[str, Any] = {}
    for column in mapper.columns:
        value = getattr(row, column.key)
        out[column.key] = value.isoformat() if isinstance(value, datetime) else value
    return out
