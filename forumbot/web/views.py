"""The GM page's views: each parses the request, calls a service, and renders a template."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from forumbot.db.enums import DeliveryState, ReviewState
from forumbot.db.models import Game, Player
from forumbot.errors import ForumbotError, GameNotFound
from forumbot.services import drafts, review
from forumbot.services.review import InvalidDecision, Lesson, OrderInput
from forumbot.web import queries
from forumbot.web.app import db
from forumbot.web.auth import gm_name

bp = Blueprint("pages", __name__)
MAX_TEACH = 3  # lesson rows on the edit form
PER_PAGE = 50  # queue items per page: the oldest first, so the GM works down the list


def _ext() -> dict[str, Any]:
    ext: dict[str, Any] = current_app.extensions["forumbot"]
    return ext


def _game(game_id: int) -> Game:
    try:
        return queries.get_game(db(), game_id)
    except GameNotFound:
        abort(404)


def _ruleset(game: Game) -> Any:
    """The game's ruleset, loaded once per process (None while it cannot be loaded).

    A failure is not remembered: a ruleset fixed or installed while the page runs is used
    on the next request.
    """
    cache = _ext()["rulesets"]
    key = (game.ruleset, json.dumps((game.settings or {}).get("options"), sort_keys=True))
    if cache.get(key) is None:
        cache[key] = _ext()["ruleset_loader"](game)
    return cache[key]


def _done(message: str, endpoint: str, **values: Any) -> Any:
    db().commit()
    flash(message, "ok")
    return redirect(url_for(endpoint, **values))


def _failed(exc: ForumbotError, endpoint: str, **values: Any) -> Any:
    db().rollback()
    flash(str(exc), "error")
    return redirect(url_for(endpoint, **values))


@bp.get("/")
def index() -> Any:
    """Every game, with how many items wait in its queue."""
    return render_template("index.html", games=queries.list_games(db()))


# --- review queue -------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/queue")
def queue(game_id: int) -> Any:
    """The open review items, oldest first, a page at a time (``?decided=1``: decided ones)."""
    game = _game(game_id)
    decided = request.args.get("decided") == "1"
    per_page = max(1, min(request.args.get("per_page", PER_PAGE, type=int) or PER_PAGE, 500))
    page = max(1, request.args.get("page", 1, type=int) or 1)
    state = review.DECIDED if decided else ReviewState.OPEN
    total = review.count_queue(db(), game_id, state=state)
    entries = review.list_queue(
        db(), game_id, state=state, offset=(page - 1) * per_page, limit=per_page
    )
    pages = max(1, -(-total // per_page))
    return render_template(
        "queue.html", game=game, entries=entries, decided=decided, total=total,
        page=page, pages=pages, per_page=per_page,
    )  # fmt: skip


def _item_of(game_id: int, item_id: int) -> review.QueueEntry:
    try:
        entry = review.get_entry(db(), item_id)
    except InvalidDecision:
        abort(404)
    if entry.game_id != game_id:
        abort(404)
    return entry


@bp.post("/games/<int:game_id>/queue/<int:item_id>/accept")
def queue_accept(game_id: int, item_id: int) -> Any:
    """Accept one of the parser's candidates."""
    game, _ = _game(game_id), _item_of(game_id, item_id)
    try:
        index = int(request.form.get("candidate", "0"))
        review.accept_candidate(
            db(), item_id, index, gm=gm_name(), note=request.form.get("note", ""),
            ruleset=_ruleset(game),
        )  # fmt: skip
    except ValueError as exc:
        if not isinstance(exc, ForumbotError):
            abort(400)
        return _failed(exc, "pages.queue", game_id=game_id)
    return _done(f"Item {item_id}: candidate {index + 1} accepted.", "pages.queue", game_id=game_id)


@bp.post("/games/<int:game_id>/queue/<int:item_id>/acknowledge")
def queue_acknowledge(game_id: int, item_id: int) -> Any:
    """Mark an alert as seen."""
    _item_of(game_id, item_id)
    try:
        review.acknowledge(db(), item_id, gm=gm_name(), note=request.form.get("note", ""))
    except InvalidDecision as exc:
        return _failed(exc, "pages.queue", game_id=game_id)
    return _done(f"Alert {item_id} acknowledged.", "pages.queue", game_id=game_id)


@bp.post("/games/<int:game_id>/queue/<int:item_id>/reject")
def queue_reject(game_id: int, item_id: int) -> Any:
    """Reject the item with the GM's note."""
    _item_of(game_id, item_id)
    try:
        review.reject(db(), item_id, gm=gm_name(), note=request.form.get("note", ""))
    except InvalidDecision as exc:
        return _failed(exc, "pages.queue", game_id=game_id)
    return _done(f"Item {item_id} rejected.", "pages.queue", game_id=game_id)


@bp.route("/games/<int:game_id>/queue/<int:item_id>/edit", methods=["GET", "POST"])
def queue_edit(game_id: int, item_id: int) -> Any:
    """Write the order with pickers limited to legal choices."""
    game, entry = _game(game_id), _item_of(game_id, item_id)
    choices = review.choices_for(db(), item_id, ruleset=_ruleset(game))
    problems: tuple[str, ...] = ()
    form: Mapping[str, str] = request.form
    if request.method == "POST":
        order, lessons = _order_from_form(form, choices)
        try:
            review.accept_edit(
                db(), item_id, [order], gm=gm_name(), note=form.get("note", ""),
                lessons=lessons, ruleset=_ruleset(game),
            )  # fmt: skip
        except InvalidDecision as exc:
            db().rollback()
            problems = exc.problems
        else:
            return _done(f"Item {item_id}: your order was stored.", "pages.queue", game_id=game_id)
    elif entry.candidates and entry.candidates[0].orders:
        form = _form_from_order(entry.candidates[0].orders[0])
        for i, lesson in enumerate(entry.candidates[0].lessons[:MAX_TEACH]):
            form |= {f"teach-text-{i}": lesson.text, f"teach-kind-{i}": lesson.kind,
                     f"teach-value-{i}": lesson.value}  # fmt: skip
    status = 422 if problems else 200
    return render_template(
        "edit.html", game=game, entry=entry, choices=choices, form=form, problems=problems,
        teach_rows=MAX_TEACH,
    ), status  # fmt: skip


def _order_from_form(
    form: Mapping[str, str], choices: review.Choices
) -> tuple[OrderInput, list[Lesson]]:
    """Read the edit form: ``ability``, ``target-N``, ``param-NAME`` (crimes in three parts)."""
    ability_id = form.get("ability", "")
    ability = choices.ability(ability_id)
    targets: list[Any] = []
    params: dict[str, Any] = {}
    if ability is not None:
        for i, picker in enumerate(ability.targets):
            targets.append(_field(form, f"{ability_id}-target-{i}", picker.kind))
        while targets and targets[-1] in ("", None):
            targets.pop()
        for picker in ability.params:
            value = _field(form, f"{ability_id}-param-{picker.name}", picker.kind)
            if value not in ("", None):
                params[picker.name] = value
    lessons = [
        Lesson(form.get(f"teach-kind-{i}", "player"), text, form.get(f"teach-value-{i}", ""))
        for i in range(MAX_TEACH)
        if (text := form.get(f"teach-text-{i}", "").strip())
    ]
    return OrderInput(ability_id or None, tuple(targets), params), lessons


def _field(form: Mapping[str, str], name: str, kind: str) -> Any:
    """One picker's value: a crime in three parts, a claim as ``{"text": ...}`` (parser shape)."""
    if kind == "claim":
        text = form.get(name, "").strip()
        return {"text": text} if text else ""
    if kind != "crime":
        return form.get(name, "").strip()
    parts = {k: form.get(f"{name}-{k}", "").strip() for k in ("crime", "victim", "phase")}
    return {k: v or None for k, v in parts.items()} if parts["crime"] else ""


def _form_from_order(order: OrderInput) -> dict[str, str]:
    """Pre-fill the edit form with the best candidate."""
    form = {"ability": order.ability or ""}
    values = [(f"{order.ability}-target-{i}", v) for i, v in enumerate(order.targets)]
    values += [(f"{order.ability}-param-{k}", v) for k, v in order.params.items()]
    for name, value in values:
        if isinstance(value, Mapping) and "crime" in value:
            for part in ("crime", "victim", "phase"):
                form[f"{name}-{part}"] = str(value.get(part) or "")
        elif isinstance(value, Mapping):
            form[name] = str(value.get("text", ""))
        else:
            form[name] = str(value)
    return form


# --- phase --------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/phase")
@bp.get("/games/<int:game_id>/phase/<int:phase_id>")
def phase(game_id: int, phase_id: int | None = None) -> Any:
    """Orders per player, the live vote count and the deadlines."""
    game = _game(game_id)
    ruleset = _ruleset(game)
    needs = functools.partial(_needs_order, ruleset) if ruleset is not None else None
    view = queries.phase_view(db(), game_id, phase_id, _ext()["now"](), needs)
    if phase_id is not None and (view.phase is None or view.phase.id != phase_id):
        abort(404)
    rule = ruleset.vote if ruleset is not None else None
    living = sum(1 for p in view.players if p.alive)
    majority = living // 2 + 1 if rule is not None and rule.rule == "majority" else None
    return render_template(
        "phase.html", game=game, view=view, can_resolve=_can_resolve(), rule=rule,
        majority=majority, zone=_zone(game),
    )  # fmt: skip


def _zone(game: Game) -> Any:
    """The game's time zone from its game file (deadlines are set in it), or None."""
    try:
        import yaml

        from forumbot.services.games import config_of
    except ImportError:
        return None
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
    return _ext()["resolve_now"] is not None


@bp.post("/games/<int:game_id>/phase/<int:phase_id>/resolve")
def phase_resolve(game_id: int, phase_id: int) -> Any:
    """Resolve the phase now, through the phases service."""
    _game(game_id)
    if not _can_resolve():
        abort(409, description="Resolving from the page needs the phases service.")
    try:
        message = _ext()["resolve_now"](game_id, phase_id, gm_name())
    except ForumbotError as exc:
        return _failed(exc, "pages.phase", game_id=game_id, phase_id=phase_id)
    return _done(message, "pages.phase", game_id=game_id, phase_id=phase_id)


# --- drafts -------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/drafts")
def drafts_page(game_id: int) -> Any:
    """The phase posts and private PMs, as the forum will show them and as BBCode."""
    game = _game(game_id)
    show_sent = request.args.get("sent") == "1"
    states = None if show_sent else [s for s in DeliveryState if s is not DeliveryState.SENT]
    rows = drafts.list_drafts(db(), game_id, states=states)
    return render_template("drafts.html", game=game, drafts=rows, show_sent=show_sent)


@bp.post("/games/<int:game_id>/drafts/phase/<int:phase_id>/approve")
def drafts_approve_phase(game_id: int, phase_id: int) -> Any:
    """Approve every draft of a phase at once (held messages stay held)."""
    _game(game_id)
    done = drafts.approve_phase(db(), game_id, phase_id, gm=gm_name())
    return _done(f"{len(done)} message(s) approved.", "pages.drafts_page", game_id=game_id)


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
    _game(game_id)
    if action not in _DRAFT_ACTIONS:
        abort(404)
    try:
        if drafts.get_draft(db(), outbound_id).game_id != game_id:
            abort(404)
        view = _DRAFT_ACTIONS[action](db(), outbound_id, request.form, gm_name())
    except drafts.DraftError as exc:
        return _failed(exc, "pages.drafts_page", game_id=game_id)
    message = f"Message {outbound_id} ({view.kind.value}) is now {view.state.value}."
    return _done(message, "pages.drafts_page", game_id=game_id, _anchor=f"msg-{outbound_id}")


# --- report, state, export ------------------------------------------------------------------


@bp.get("/games/<int:game_id>/report")
def report(game_id: int) -> Any:
    """Every event, random draws included, with why (and its wording, when it renders)."""
    game = _game(game_id)
    phases = queries.report(db(), game_id)
    renderer = _renderer(game)
    texts = {
        ev.id: _event_text(renderer, ev) for _phase, events in phases for ev in events
    } if renderer is not None else {}  # fmt: skip
    return render_template("report.html", game=game, phases=phases, texts=texts)


def _renderer(game: Game) -> Any:
    """The event renderer of the game's ruleset, once per process (None if unavailable)."""
    cache = _ext().setdefault("renderers", {})
    if cache.get(game.ruleset) is None:
        cache[game.ruleset] = None
        ruleset = _ruleset(game)
        if ruleset is not None:
            try:
                from forumbot.render import EventRenderer

                cache[game.ruleset] = EventRenderer.create(ruleset)
            except (ImportError, ForumbotError, ValueError, OSError):
                pass  # the report still lists every event with its data
    return cache[game.ruleset]


def _event_text(renderer: Any, ev: Any) -> str | None:
    """One stored event worded by its template, or None if it has none."""
    try:
        from resolver.model.events import Event, EventKind
        from resolver.model.events import Visibility as EventVisibility

        event = Event(
            EventKind(ev.kind), EventVisibility(ev.visibility.value), dict(ev.data),
            tuple(str(r) for r in ev.recipients),
        )  # fmt: skip
        text: str = renderer.event(event)
        return text
    except (ImportError, ValueError, KeyError, TypeError, ForumbotError):  # RenderError too
        return None


@bp.get("/games/<int:game_id>/state")
def state(game_id: int) -> Any:
    """Players, roles, statuses, items and the phase history."""
    _game(game_id)
    return render_template("state.html", **queries.game_state(db(), game_id))


@bp.get("/games/<int:game_id>/export.json")
def export(game_id: int) -> Any:
    """The whole game as one JSON file."""
    game = _game(game_id)
    body = json.dumps(queries.export_game(db(), game_id), ensure_ascii=False, indent=2, default=str)
    safe_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in game.name)
    return current_app.response_class(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{safe_name}.json"'},
    )
