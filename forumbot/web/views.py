"""The GM page's views: the games and the review queue.

Each view parses the request, calls a service, and renders a template. The game pages
(phase, drafts, report, state, export) are in ``views_game`` on the same blueprint, defined
with the helpers both share in ``common``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, render_template, request

from forumbot.db.enums import ReviewState
from forumbot.errors import ForumbotError
from forumbot.services import review
from forumbot.services.review import InvalidDecision, Lesson, OrderInput
from forumbot.web import queries
from forumbot.web.auth import gm_name
from forumbot.web.common import bp, db, done, failed, game_or_404, ruleset_of

MAX_TEACH = 3  # lesson rows on the edit form
PER_PAGE = 50  # queue items per page: the oldest first, so the GM works down the list


@bp.get("/")
def index() -> Any:
    """Every game, with how many items wait in its queue."""
    return render_template("index.html", games=queries.list_games(db()))


# --- review queue -------------------------------------------------------------------------


@bp.get("/games/<int:game_id>/queue")
def queue(game_id: int) -> Any:
    """The open review items, oldest first, a page at a time (``?decided=1``: decided ones)."""
    game = game_or_404(game_id)
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
    game, _ = game_or_404(game_id), _item_of(game_id, item_id)
    try:
        index = int(request.form.get("candidate", "0"))
        review.accept_candidate(
            db(), item_id, index, gm=gm_name(), note=request.form.get("note", ""),
            ruleset=ruleset_of(game),
        )  # fmt: skip
    except ValueError as exc:
        if not isinstance(exc, ForumbotError):
            abort(400)
        return failed(exc, "pages.queue", game_id=game_id)
    return done(f"Item {item_id}: candidate {index + 1} accepted.", "pages.queue", game_id=game_id)


@bp.post("/games/<int:game_id>/queue/<int:item_id>/acknowledge")
def queue_acknowledge(game_id: int, item_id: int) -> Any:
    """Mark an alert as seen."""
    _item_of(game_id, item_id)
    try:
        review.acknowledge(db(), item_id, gm=gm_name(), note=request.form.get("note", ""))
    except InvalidDecision as exc:
        return failed(exc, "pages.queue", game_id=game_id)
    return done(f"Alert {item_id} acknowledged.", "pages.queue", game_id=game_id)


@bp.post("/games/<int:game_id>/queue/<int:item_id>/reject")
def queue_reject(game_id: int, item_id: int) -> Any:
    """Reject the item with the GM's note."""
    _item_of(game_id, item_id)
    try:
        review.reject(db(), item_id, gm=gm_name(), note=request.form.get("note", ""))
    except InvalidDecision as exc:
        return failed(exc, "pages.queue", game_id=game_id)
    return done(f"Item {item_id} rejected.", "pages.queue", game_id=game_id)


@bp.route("/games/<int:game_id>/queue/<int:item_id>/edit", methods=["GET", "POST"])
def queue_edit(game_id: int, item_id: int) -> Any:
    """Write the order with pickers limited to legal choices, for one of the phases the
    order may be for (``phase``: the phase picker; default: the one the reading fits)."""
    game, entry = game_or_404(game_id), _item_of(game_id, item_id)
    phase = request.values.get("phase") or None
    choices = review.choices_for(db(), item_id, ruleset=ruleset_of(game), phase=phase)
    problems: tuple[str, ...] = ()
    form: Mapping[str, str] = request.form
    if request.method == "POST":
        order, lessons = _order_from_form(form, choices)
        try:
            review.accept_edit(
                db(), item_id, [order], gm=gm_name(), note=form.get("note", ""),
                lessons=lessons, ruleset=ruleset_of(game), phase=choices.phase,
            )  # fmt: skip
        except InvalidDecision as exc:
            db().rollback()
            problems = exc.problems
        else:
            return done(f"Item {item_id}: your order was stored.", "pages.queue", game_id=game_id)
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
