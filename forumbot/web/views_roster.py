"""The GM page's roster: who holds each slot, the roster changes, the substitutes, and the
game's history as a timeline; forms to replace a player, modkill, a player leaving."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import render_template, request

from forumbot.db.models import Game
from forumbot.services import roster
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
    )  # fmt: skip


def _act(game_id: int, act: Callable[[Game, Any, str], str]) -> Any:
    """Make one change (the form's fields), commit, and go back to the roster."""
    game = game_or_404(game_id)
    try:
        message = act(game, request.form, f"gm:{gm_name()}")
    except roster.RosterError as exc:
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


@bp.post("/games/<int:game_id>/roster/modkill")
def roster_modkill(game_id: int) -> Any:
    """Remove a player from the game."""
    return _act(game_id, lambda g, f, by: _said(roster.modkill(
        db(), g, f.get("name", ""), by=by, at=ext()["now"](), note=f.get("note", ""))))  # fmt: skip


@bp.post("/games/<int:game_id>/roster/leave")
def roster_leave(game_id: int) -> Any:
    """A player leaves: replaced by a substitute, else removed."""
    return _act(game_id, lambda g, f, by: _said(roster.leave(
        db(), g, f.get("name", ""), by=by, at=ext()["now"](),
        substitute=f.get("sub") or None, note=f.get("note", ""))))  # fmt: skip


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
