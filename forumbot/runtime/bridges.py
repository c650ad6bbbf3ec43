"""Adapters from the pure layers' own APIs to the shell's pipeline types.

One loader per piece. A loader returns ``(callable, "")`` when its layer has landed, or
``(None, reason)`` with one line a GM can read. Nothing here does I/O.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from forumbot.runtime.pipeline import (
    OrderReading,
    OrderRequest,
    ParsedOrder,
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
    """``parsers.votes.count_votes`` on stored posts, in shell terms."""
    from parsers.votes import PostInput, count_votes, rules_for

    rules = rules_for(request.ruleset, {"syntax": list(request.syntax)})
    posts = [
        PostInput(
            id=p.post_id,
            author=p.author,
            html=p.body_html,
            number=n,
            time=datetime.fromisoformat(p.posted_at),
        )
        for n, p in enumerate(request.posts)
    ]
    result = count_votes(posts, _roster(request.roster, request.aliases, request.alive,
                                        request.hosts), rules)  # fmt: skip
    return Tally(
        votes={w.target: tuple(v.name for v in w.voters) for w in result.wagons},
        not_voting=tuple(result.not_voting),
        events=tuple({"post": e.post_id, "voter": e.voter, "action": str(e.action),
                      "target": e.target, "status": str(e.status)} for e in result.events),
        queued=tuple({"post": q.post_id, "voter": q.voter, "raw": q.raw, "reason": q.reason,
                      "candidates": list(q.candidates)} for q in result.queue),
        decision={"lynched": result.decision.lynched, "no_lynch": result.decision.no_lynch,
                  "reason": result.decision.reason},
    )  # fmt: skip


def load_orders() -> Loaded:
    """The order parser of ``parsers.orders`` (issue 5)."""
    module = _module("parsers.orders")
    if module is None or not hasattr(module, "OrderParser"):
        return None, "order parser not available yet: parsers/orders has no parse_order (issue 5)"
    return parse_order_bridge, ""


def parse_order_bridge(request: OrderRequest) -> OrderReading:
    """``parsers.orders.OrderParser.parse`` for one PM, in shell terms."""
    parser = _order_parser(request.ruleset)
    roster = _roster(request.roster, request.aliases, tuple(request.roster), ())
    result = parser.parse(request.text, roster=roster, actor=request.actor, phase=request.phase)
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
    )


@functools.lru_cache(maxsize=16)
def _ruleset(name: str) -> Any:
    from resolver.ruleset import load_ruleset

    return load_ruleset(name)


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
    module = _module("resolver")
    if module is None or not hasattr(module, "resolve_phase"):
        return None, "resolver not available yet: resolver.resolve_phase has not landed (issue 6)"
    return None, "resolver.resolve_phase has landed but is not wired into the runtime yet"


def load_renderer() -> Loaded:
    """Phase posts and result PMs of ``forumbot.render`` (issue 6)."""
    module = _module("forumbot.render")
    if module is None:
        return None, "renderer not available yet: forumbot/render has not landed (issue 6)"
    return None, "forumbot.render has landed but is not wired into the runtime yet"


LOADERS: dict[str, Callable[[], Loaded]] = {
    "votes": load_votes,
    "orders": load_orders,
    "resolver": load_resolver,
    "renderer": load_renderer,
}
