"""Adapters from the pure layers' own APIs to the shell's pipeline types.

One loader per piece. A loader returns ``(callable, "")`` when its layer has landed, or
``(None, reason)`` with one line a GM can read. Nothing here does I/O.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from forumbot.services import pipeline, statecodec
from forumbot.services.pipeline import (
    DraftMessage,
    OrderReading,
    OrderRequest,
    ParsedOrder,
    PhaseInput,
    PhaseOutcome,
    Tally,
    VoteRequest,
)

Loaded = tuple[Any, str]


def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def load_votes() -> Loaded:
    """The vote counter of ``parsers.votes`` (issue 4)."""
    if _module("parsers.votes") is None:
        return None, "vote counter not available yet: parsers/votes has not landed (issue 4)"
    return count_votes_bridge, ""


def count_votes_bridge(request: VoteRequest) -> Tally:
    """``parsers.votes.count_votes`` on stored posts, in shell terms, with the count post."""
    from forumbot.votecount import VoteCountJob, load_vote_rules, render_vote_count
    from parsers.votes import (
        Channel,
        DayEvent,
        DayEventKind,
        DaySetup,
        PostInput,
        Source,
        count_votes,
    )

    rules = load_vote_rules(request.ruleset, {"vote": dict(request.overrides)})
    posts = tuple(
        PostInput(
            id=p.post_id,
            author=p.author,
            html=p.body_html,
            number=n,
            time=datetime.fromisoformat(p.posted_at),
            previous_html=p.previous_html,
            edited=p.edited,
            edited_at=datetime.fromisoformat(p.edited_at) if p.edited_at else None,
        )
        for n, p in enumerate(request.posts)
    )
    if rules.channel is not Channel.THREAD:
        posts += tuple(
            PostInput(
                id=f"pm{p.post_id}",
                author=p.author,
                html=p.body_html,
                time=datetime.fromisoformat(p.posted_at),
                source=Source.PM,
                recipients=p.recipients,
            )
            for p in request.pms
        )
    roster = _roster(request.roster, request.aliases, request.alive, request.hosts)
    day = DaySetup(number=request.day, deadline=request.deadline,
                   events=tuple(DayEvent(DayEventKind(kind), post, voter, target)
                                for kind, post, voter, target in request.corrections))  # fmt: skip
    result = count_votes(posts, roster, rules, day)
    job = VoteCountJob(request.ruleset, rules, roster, day, posts, result)
    return Tally(
        votes={w.target: tuple(v.name for v in w.voters) for w in result.wagons},
        not_voting=tuple(result.not_voting),
        events=tuple({"post": e.post_id, "voter": e.voter, "action": str(e.action),
                      "target": e.target, "status": str(e.status)} for e in result.events),
        queued=tuple({"post": q.post_id, "voter": q.voter, "raw": q.raw, "reason": q.reason,
                      "kind": q.kind, "candidates": list(q.candidates)}
                     for q in result.queue),
        decision={"lynched": result.decision.lynched, "no_lynch": result.decision.no_lynch,
                  "reason": result.decision.reason},
        post=render_vote_count(job, request.now) if request.now else "",
    )  # fmt: skip


def load_orders() -> Loaded:
    """The order parser of ``parsers.orders`` (issue 5)."""
    module = _module("parsers.orders")
    if module is None or not hasattr(module, "OrderParser"):
        return None, "order parser not available yet: parsers/orders has no parse_order (issue 5)"
    return parse_order_bridge, ""


def parse_order_bridge(request: OrderRequest) -> OrderReading:
    """``parsers.orders.OrderParser.parse`` for one PM, in shell terms."""
    from parsers.orders import Learned

    parser = _order_parser(request.ruleset)
    alive = tuple(request.roster) if request.alive is None else request.alive
    roster = _roster(request.roster, request.aliases, alive, ())
    learned = Learned(names=request.learned_names, abilities=request.learned_abilities)
    result = parser.parse(
        request.text,
        roster=roster,
        actor=request.actor,
        phase=request.phase,
        learned=learned,
        recipients=request.recipients,
    )
    return OrderReading(
        status=str(result.status),  # type: ignore[arg-type]
        orders=tuple(
            ParsedOrder(
                ability=o.ability,
                targets=tuple(_value(slot.value) for slot in o.targets),
                params={key: _json(val) for key, val in o.params},
            )
            for o in result.orders
        ),
        candidates=tuple(c.as_json() for c in result.candidates),
        reason=result.reason,
        confidence=result.confidence,
        fits_phase=_fits_phase(request, result),
    )


def _fits_phase(request: OrderRequest, result: Any) -> bool:
    """Whether some reading of the PM uses an ability of this kind of phase."""
    abilities = _ruleset(request.ruleset).abilities
    kind = request.phase.rstrip("0123456789")
    used = {o.ability for o in result.orders}
    for candidate in result.candidates:
        used |= {o.get("ability") for o in candidate.as_json().get("orders", ())}
    known = [abilities[a] for a in used if a in abilities]
    return not known or any(a.allowed_in(kind) for a in known)


@functools.lru_cache(maxsize=16)
def _ruleset(name: str, options: str = "{}") -> Any:
    from resolver.ruleset import load_ruleset

    return load_ruleset(name, options=json.loads(options) or None)


@functools.lru_cache(maxsize=16)
def _order_parser(name: str) -> Any:
    from parsers.orders import OrderParser

    return OrderParser(_ruleset(name))


def _roster(
    roles: Mapping[str, str | None],
    aliases: Mapping[str, tuple[str, ...]],
    alive: tuple[str, ...],
    hosts: tuple[str, ...],
) -> Any:
    from parsers.roster import Roster, Slot

    slots = tuple(
        Slot(name=name, role=role, aliases=tuple(aliases.get(name, ())), alive=name in alive)
        for name, role in roles.items()
    )
    return Roster(slots=slots, hosts=hosts)


def _value(value: Any) -> str:
    return value if isinstance(value, str) else value.render()


def _json(value: Any) -> Any:
    return value if isinstance(value, str) else value.as_json()


def load_resolver() -> Loaded:
    """Phase resolution of ``resolver`` (issue 6)."""
    module = _module("resolver.engine")
    if module is None or not hasattr(module, "resolve_phase"):
        return None, "resolver not available yet: resolver.resolve_phase has not landed (issue 6)"
    return resolve_bridge, ""


def resolve_bridge(phase: PhaseInput) -> PhaseOutcome:
    """``resolver.engine.resolve_phase`` on one frozen phase, state kept as JSON."""
    from resolver.engine import resolve_phase
    from resolver.model import GameState, Order
    from resolver.report import jsonable, winner_dict
    from resolver.rng import PurposeRng
    from resolver.setup import new_game

    ruleset = _ruleset(phase.ruleset, _options_key(phase.options))
    if phase.state:
        state = statecodec.decode(GameState, phase.state)
    else:
        state = new_game(ruleset, dict(phase.roster), seed=phase.seed).state  # type: ignore[arg-type]
    orders = [
        Order(actor, o.ability, tuple(o.targets), dict(o.params)) for actor, o in phase.orders
    ]
    votes = {voter: (None if target == "No Lynch" else target)
             for voter, target in phase.votes.items()}  # fmt: skip
    result = resolve_phase(state, orders, ruleset, rng=PurposeRng(phase.seed), votes=votes,
                           phase=phase.phase)  # fmt: skip
    was_alive = {p.name for p in state.players if p.alive}
    return PhaseOutcome(
        state=statecodec.encode(result.state),
        events=tuple(
            {
                "kind": str(e.kind),
                "visibility": str(e.visibility),
                "to": list(e.to),
                "data": jsonable(e.data),
            }
            for e in result.events
        ),
        dead=tuple(p.name for p in result.state.players if not p.alive and p.name in was_alive),
        winner=winner_dict(result.state.winner),
    )


def load_renderer() -> Loaded:
    """Phase posts and result PMs of ``forumbot.render`` (issue 6)."""
    module = _module("forumbot.render")
    if module is None or not hasattr(module, "EventRenderer"):
        return None, "renderer not available yet: forumbot/render has not landed (issue 6)"
    return render_bridge, ""


def render_bridge(
    ruleset: str, phase: str, outcome: PhaseOutcome, game: str
) -> tuple[DraftMessage, ...]:
    """The phase post, each player's result PM and the GM's report, from the templates."""
    from forumbot.render import EventRenderer
    from resolver.model import Event, EventKind, Visibility

    renderer = EventRenderer.create(_ruleset(ruleset, "{}"))
    events = [
        Event(
            EventKind(e["kind"]),
            Visibility(e["visibility"]),
            e.get("data") or {},
            tuple(e.get("to") or ()),
        )
        for e in outcome.events
    ]
    title = renderer.phase_name(phase)
    drafts = [DraftMessage(key="post", body=renderer.phase_post(phase, events))]
    for name, texts in renderer.private_messages(events).items():
        drafts.append(DraftMessage(key=f"pm:{name}", body="\n\n".join(texts), to=(name,),
                                   subject=f"{game}: {title}"))  # fmt: skip
    report = renderer.gm_report(phase, events)
    drafts.append(DraftMessage(key="gm-report", body=report, to=("@gm",),
                               subject=f"{game}: {title} (GM report)"))  # fmt: skip
    return tuple(drafts)


def _event_dict(event: Any, jsonable: Callable[[Any], Any]) -> dict[str, Any]:
    return {"kind": str(event.kind), "visibility": str(event.visibility), "to": list(event.to),
            "data": jsonable(event.data)}  # fmt: skip


def _options_key(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True, default=str)


def load_actors() -> Loaded:
    """Who may act in a phase, from the ruleset catalogue (for order reminders)."""
    if _module("resolver.ruleset") is None:
        return None, "reminders not available: the ruleset loader has not landed"
    return actors_bridge, ""


def actors_bridge(ruleset: str, roles: Mapping[str, str | None], phase: str) -> tuple[str, ...]:
    """The players whose role has an ability (not passive) usable in ``phase``."""
    catalogue = _ruleset(ruleset)
    kind = phase.rstrip("0123456789")
    found = []
    for name, role_id in roles.items():
        role = catalogue.roles.get(role_id or "")
        if role is None:
            continue
        usable = [a for a in role.abilities.values()
                  if not a.passive and a.allowed_in(kind) and phase not in a.not_on]  # fmt: skip
        if usable:
            found.append(name)
    return tuple(found)


LOADERS: dict[str, Callable[[], Loaded]] = {
    "votes": load_votes,
    "orders": load_orders,
    "resolver": load_resolver,
    "renderer": load_renderer,
    "actors": load_actors,
}


def load_pipeline() -> pipeline.Pipeline:
    """Wire in every piece that has landed; name what is missing and why."""
    pieces: dict[str, Any] = {}
    missing: dict[str, str] = {}
    for name, loader in LOADERS.items():
        piece, why = loader()
        if piece is None:
            missing[name] = why
        else:
            pieces[name] = piece
    if "renderer" not in pieces:
        pieces["renderer"] = pipeline.plain_renderer
    return pipeline.Pipeline(**pieces, missing=missing)
