"""The GM queue in a terminal: list items, decide them through the review service."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from forumbot.db.enums import DeliveryState, ReviewKind, ReviewState
from forumbot.services import drafts, games, review
from forumbot.services.context import Runtime


def run_queue(rt: Runtime, game: str, echo: Callable[[str], None], **choice: Any) -> None:
    """What ``forumbot queue`` was asked: one decision, or a listing."""
    gm, note, phase = choice["gm"], choice["note"], choice.get("phase")
    if choice["accept"] is not None:
        index = choice["candidate"] - 1
        echo(decide(rt, choice["accept"], "accept", gm=gm, index=index, note=note, phase=phase))
    elif choice["edit"] is not None:
        ability, *targets = choice["order"].split() or [""]
        echo(decide(rt, choice["edit"], "edit", gm=gm, ability=ability, targets=targets,
                    note=note, phase=phase))  # fmt: skip
    elif choice["reject"] is not None:
        echo(decide(rt, choice["reject"], "reject", gm=gm, note=note))
    elif choice["approve"] is not None or choice["hold"] is not None:
        echo(decide_drafts(rt, game, approve=choice["approve"], hold=choice["hold"], gm=gm))
    elif choice["drafts"]:
        show_drafts(rt, game, echo)
    else:
        show_queue(rt, game, echo)


def show_queue(rt: Runtime, game_ref: str, echo: Callable[[str], None]) -> int:
    """Print the game's open review items (raw text, candidates, reason); returns how many."""
    with rt.sessions() as session:
        game = games.find(session, game_ref)
        entries = review.list_queue(session, game.id)
        for entry in entries:
            where = f" ({entry.phase_name})" if entry.phase_name else ""
            who = entry.sender or "-"
            echo(f"#{entry.id} [{entry.kind.value}]{where} from {who}: {entry.reason}")
            if entry.text:
                echo("    " + entry.text.strip().replace("\n", "\n    ")[:600])
            for cand in entry.candidates:
                echo(f"    candidate {cand.index + 1}: {cand.label}  ({cand.why})")
            if entry.kind is ReviewKind.ORDER and entry.state is ReviewState.OPEN:
                choices = review.choices_for(session, entry.id)
                offered = ", ".join(choices.order_phases) or "none"
                echo(f"    phases: {offered} (stored for {choices.phase} unless --phase)")
        if not entries:
            echo("The queue is empty.")
        return len(entries)


def decide(
    rt: Runtime,
    item_id: int,
    action: str,
    *,
    gm: str,
    index: int = 0,
    ability: str = "",
    targets: Sequence[str] = (),
    note: str = "",
    phase: str | None = None,
) -> str:
    """Accept a candidate, accept the GM's own order, or reject; returns a one-line summary."""
    with rt.sessions.begin() as session:
        entry = review.get_entry(session, item_id)
        done: Any
        if action == "accept" and not entry.candidates:
            done = review.accept_edit(session, item_id, (), gm=gm, note=note or "acknowledged")
        elif action == "accept":
            done = review.accept_candidate(session, item_id, index, gm=gm, note=note, phase=phase)
        elif action == "edit":
            order = review.OrderInput(ability=ability, targets=tuple(targets))
            done = review.accept_edit(session, item_id, (order,), gm=gm, note=note, phase=phase)
        else:
            done = review.reject(session, item_id, gm=gm, note=note)
        stored = review.get_entry(session, item_id).phase_name if done.order_ids else None
        where = f" for {stored}" if stored and action != "reject" else ""
        return f"#{done.item_id} {done.state.value} by {done.by}{where}"


def show_drafts(rt: Runtime, game_ref: str, echo: Callable[[str], None]) -> int:
    """Print the drafts waiting for the GM (posts first); returns how many."""
    with rt.sessions() as session:
        game = games.find(session, game_ref)
        waiting = drafts.list_drafts(session, game.id, states=[DeliveryState.DRAFT])
        for view in waiting:
            to = f"PM to {', '.join(view.recipients)}" if view.recipients else "thread post"
            echo(f"#{view.id} {to} ({view.phase_name or '-'}) {view.subject}")
            echo("    " + view.body.strip().replace("\n", "\n    ")[:800])
        if not waiting:
            echo("No draft waits for you.")
        return len(waiting)


def decide_drafts(
    rt: Runtime, game_ref: str, *, approve: str | None, hold: int | None, gm: str
) -> str:
    """Approve one draft (or ``all``), or hold one; returns a one-line summary."""
    with rt.sessions.begin() as session:
        game = games.find(session, game_ref)
        if hold is not None:
            return f"#{drafts.hold_draft(session, hold, gm=gm).id} held"
        if approve == "all":
            ids = [v.id for v in drafts.list_drafts(session, game.id, states=[DeliveryState.DRAFT])]
        else:
            ids = [int(approve or 0)]
        for outbound_id in ids:
            drafts.approve_draft(session, outbound_id, gm=gm)
        return f"approved {len(ids)} draft(s): the worker sends them on its next cycle"
