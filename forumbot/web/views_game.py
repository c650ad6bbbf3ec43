"""The GM page's game views: phase, drafts, report, state and export (blueprint ``pages``)."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Sequence
from typing import Any

import yaml
from flask import abort, current_app, render_template, request

from forumbot.db.enums import DeliveryState
from forumbot.db.models import Game, PhaseEvent, Player
from forumbot.errors import ForumbotError
from forumbot.render import EventRenderer
from forumbot.services import domain, drafts
from forumbot.services.games import config_of
from forumbot.web import queries
from forumbot.web.auth import gm_name
from forumbot.web.common import bp, db, done, ext, failed, game_or_404, ruleset_of
from forumbot.web.timeline import history, timeline_svg

# --- phase --------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/phase")
@bp.get("/games/<int:game_id>/phase/<int:phase_id>")
def phase(game_id: int, phase_id: int | None = None) -> Any:
    """Orders per player, the live vote count and the deadlines."""
    game = game_or_404(game_id)
    ruleset = ruleset_of(game)
    needs = functools.partial(_needs_order, ruleset) if ruleset is not None else None
    view = queries.phase_view(db(), game_id, phase_id, ext()["now"](), needs)
    if phase_id is not None and (view.phase is None or view.phase.id != phase_id):
        abort(404)
    rule = ruleset.vote if ruleset is not None else None
    living = sum(1 for p in view.players if p.alive)
    majority = living // 2 + 1 if rule is not None and rule.rule == "majority" else None
    rows = history(db(), game_id)  # the game's history, next to the wagons
    return render_template(
        "phase.html", game=game, view=view, can_resolve=_can_resolve(), rule=rule,
        majority=majority, zone=_zone(game), rows=rows,
        timeline=timeline_svg(rows, f"{game.name}: history"),
    )  # fmt: skip


def _zone(game: Game) -> Any:
    """The game's time zone from its game file (deadlines are set in it), or None."""
    try:
        return config_of(game).schedule.timezone
    except (KeyError, TypeError, ValueError, ForumbotError, yaml.YAMLError):
        return None  # a game registered without a game file: times stay in UTC


def _needs_order(ruleset: Any, phase: Any, players: Sequence[Player]) -> dict[str, bool]:
    """Per player, whether their role has an order to give in this phase (from the ruleset)."""
    needs = {}
    for player in players:
        role = ruleset.roles.get(player.role or "")
        needs[player.display_name] = role is None or any(
            not a.passive and a.allowed_in(phase.kind.value) and phase.name not in a.not_on
            for a in role.abilities.values()
        )
    return needs


def _can_resolve() -> bool:
    return ext()["resolve_now"] is not None


@bp.post("/games/<int:game_id>/phase/<int:phase_id>/resolve")
def phase_resolve(game_id: int, phase_id: int) -> Any:
    """Resolve the phase now, through the phases service."""
    game_or_404(game_id)
    if not _can_resolve():
        abort(409, description="Resolving from the page needs the phases service.")
    try:
        message = ext()["resolve_now"](game_id, phase_id, gm_name())
    except ForumbotError as exc:
        return failed(exc, "pages.phase", game_id=game_id, phase_id=phase_id)
    return done(message, "pages.phase", game_id=game_id, phase_id=phase_id)


# --- drafts -------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/drafts")
def drafts_page(game_id: int) -> Any:
    """The phase posts and private PMs, as the forum will show them and as BBCode."""
    game = game_or_404(game_id)
    show_sent = request.args.get("sent") == "1"
    states = None if show_sent else [s for s in DeliveryState if s is not DeliveryState.SENT]
    rows = drafts.list_drafts(db(), game_id, states=states)
    return render_template("drafts.html", game=game, drafts=rows, show_sent=show_sent)


@bp.post("/games/<int:game_id>/drafts/phase/<int:phase_id>/approve")
def drafts_approve_phase(game_id: int, phase_id: int) -> Any:
    """Approve every draft of a phase at once (held messages stay held)."""
    game_or_404(game_id)
    approved = drafts.approve_phase(db(), game_id, phase_id, gm=gm_name())
    return done(f"{len(approved)} message(s) approved.", "pages.drafts_page", game_id=game_id)


_DRAFT_ACTIONS = {
    "approve": lambda s, i, f, gm: drafts.approve_draft(s, i, gm=gm)[0],
    "hold": lambda s, i, f, gm: drafts.hold_draft(s, i, gm=gm),
    "release": lambda s, i, f, gm: drafts.release_draft(s, i, gm=gm),
    "edit": lambda s, i, f, gm: drafts.edit_draft(
        s, i, body=f.get("body", ""), subject=f.get("subject"), gm=gm
    ),
}


@bp.post("/games/<int:game_id>/drafts/<int:outbound_id>/<action>")
def draft_action(game_id: int, outbound_id: int, action: str) -> Any:
    """Approve, hold, release or edit one message."""
    game_or_404(game_id)
    if action not in _DRAFT_ACTIONS:
        abort(404)
    try:
        if drafts.get_draft(db(), outbound_id).game_id != game_id:
            abort(404)
        view = _DRAFT_ACTIONS[action](db(), outbound_id, request.form, gm_name())
    except drafts.DraftError as exc:
        return failed(exc, "pages.drafts_page", game_id=game_id)
    message = f"Message {outbound_id} ({view.kind.value}) is now {view.state.value}."
    return done(message, "pages.drafts_page", game_id=game_id, _anchor=f"msg-{outbound_id}")


# --- report, state, export ------------------------------------------------------------------


@bp.get("/games/<int:game_id>/report")
def report(game_id: int) -> Any:
    """Every event, random draws included, with why (and its wording, when it renders)."""
    game = game_or_404(game_id)
    phases = queries.report(db(), game_id)
    renderer = _renderer(game)
    texts = {
        ev.id: _event_text(renderer, ev) for _phase, events in phases for ev in events
    } if renderer is not None else {}  # fmt: skip
    return render_template("report.html", game=game, phases=phases, texts=texts)


def _renderer(game: Game) -> Any:
    """The event renderer of the game's ruleset, once per process (None if unavailable)."""
    cache = ext().setdefault("renderers", {})
    if cache.get(game.ruleset) is None:
        cache[game.ruleset] = None
        ruleset = ruleset_of(game)
        if ruleset is not None:
            # On failure the report still lists every event with its data.
            with contextlib.suppress(ForumbotError, ValueError, OSError):
                cache[game.ruleset] = EventRenderer.create(ruleset)
    return cache[game.ruleset]


def _event_text(renderer: EventRenderer, ev: PhaseEvent) -> str | None:
    """One stored event worded by its template, or None if it has none."""
    try:
        text: str = renderer.event(domain.event_of(ev))
        return text
    except (ValueError, KeyError, TypeError, ForumbotError):  # RenderError too
        return None


@bp.get("/games/<int:game_id>/state")
def state(game_id: int) -> Any:
    """Players, roles, statuses, items and the phase history."""
    game_or_404(game_id)
    return render_template("state.html", **queries.game_state(db(), game_id))


@bp.get("/games/<int:game_id>/export.json")
def export(game_id: int) -> Any:
    """The whole game as one JSON file."""
    game = game_or_404(game_id)
    body = json.dumps(queries.export_game(db(), game_id), ensure_ascii=False, indent=2, default=str)
    safe_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in game.name)
    return current_app.response_class(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{safe_name}.json"'},
    )
