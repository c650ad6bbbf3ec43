"""The GM page's roster: who holds each slot, the roster changes, the substitutes, and the
game's history as a timeline; forms to replace a player, modkill, a player leaving, and (in a
ruleset with host penalties) to enter or withdraw a penalty of the Day."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import render_template, request

from forumbot.db.models import Game
from forumbot.services import penalties, roster
from forumbot.web.auth import gm_name
from forumbot.web.common import bp, db, done, ext, failed, game_or_404
from forumbot.web.timeline import history, timeline_svg


@bp.get("/games/<int:game_id>/roster")
def roster_page(game_id: int) -> Any:
    """The roster panel and the history timeline."""
    game = game_or_404(game_id)
    rows = history(db(), game_id)
    return render_template(
        "roster.html", game=game, players=list(game.players),
        changes=roster.changes(db(), game_id), substitutes=roster.substitutes(game),
        timeline=timeline_svg(rows, f"{game.name}: history"), rows=rows,
        penalty=penalties.choices(game), penalties=penalties.listed(db(), game),
    )  # fmt: skip


def _act(game_id: int, act: Callable[[Game, Any, str], str]) -> Any:
    """Make one change (the form's fields), commit, and go back to the roster."""
    game = game_or_404(game_id)
    try:
        message = act(game, request.form, f"gm:{gm_name()}")
    except (roster.RosterError, penalties.PenaltyError) as exc:
        return failed(exc, "pages.roster_page", game_id=game_id)
    return done(message, "pages.roster_page", game_id=game_id)


def _said(view: roster.ChangeView) -> str:
    who = f"{view.player} → {view.new_player}" if view.new_player else view.player
    return f"{view.kind}: {who}. Its post is on the Drafts page, waiting for your approval."


@bp.post("/games/<int:game_id>/roster/replace")
def roster_replace(game_id: int) -> Any:
    """The new account takes the slot."""
    return _act(game_id, lambda g, f, by: _said(roster.replace(
        db(), g, f.get("old", ""), f.get("new", ""), by=by, at=ext()["now"](),
        user_id=f.get("user_id") or None, note=f.get("note", ""))))  # fmt: skip


def _confirmed(form: Any, what: str) -> None:
    """A removal cannot be undone: the form's "sure" box must be ticked."""
    if form.get("confirm") != "yes":
        name = form.get("name", "")
        raise roster.RosterError(f"Tick 'sure' to {what} {name}: it cannot be undone.")


@bp.post("/games/<int:game_id>/roster/modkill")
def roster_modkill(game_id: int) -> Any:
    """Remove a player from the game (the GM ticked "sure")."""

    def act(game: Game, form: Any, by: str) -> str:
        _confirmed(form, "modkill")
        return _said(roster.modkill(
            db(), game, form.get("name", ""), by=by, at=ext()["now"](),
            note=form.get("note", "")))  # fmt: skip

    return _act(game_id, act)


@bp.post("/games/<int:game_id>/roster/leave")
def roster_leave(game_id: int) -> Any:
    """A player leaves: replaced by a substitute, else removed (the GM ticked "sure")."""

    def act(game: Game, form: Any, by: str) -> str:
        if not form.get("sub"):
            _confirmed(form, "remove")
        return _said(roster.leave(
            db(), game, form.get("name", ""), by=by, at=ext()["now"](),
            substitute=form.get("sub") or None, note=form.get("note", "")))  # fmt: skip

    return _act(game_id, act)


@bp.post("/games/<int:game_id>/roster/substitutes")
def roster_substitutes(game_id: int) -> Any:
    """Add an account to, or take it off, the substitutes' list."""

    def act(game: Game, form: Any, _by: str) -> str:
        if form.get("remove"):
            waiting = roster.remove_substitute(game, form["remove"])
        else:
            waiting = roster.add_substitute(game, form.get("add", ""))
        return "Substitutes: " + (", ".join(waiting) or "none") + "."

    return _act(game_id, act)


@bp.post("/games/<int:game_id>/roster/penalty")
def roster_penalty(game_id: int) -> Any:
    """Enter a host penalty for a player in the Day being played."""

    def act(game: Game, form: Any, by: str) -> str:
        view = penalties.record(
            db(), game, form.get("name", ""), form.get("rule", ""), by=by, at=ext()["now"](),
            penalty=form.get("penalty") or None, post=form.get("post") or None,
            note=form.get("note", ""))  # fmt: skip
        return (f"Penalty #{view.id}: {view.player}, {view.rule}, {view.phase}. It weighs in "
                "this Day's vote log when the Day resolves.")  # fmt: skip

    return _act(game_id, act)


@bp.post("/games/<int:game_id>/roster/penalty/<int:order_id>/cancel")
def roster_penalty_cancel(game_id: int, order_id: int) -> Any:
    """Withdraw an entered penalty before its Day resolves."""

    def act(game: Game, _form: Any, by: str) -> str:
        view = penalties.cancel(db(), game, order_id, by=by, at=ext()["now"]())
        return f"Penalty #{view.id} ({view.player}, {view.rule}) withdrawn."

    return _act(game_id, act)
