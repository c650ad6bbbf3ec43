"""What the GM page's views share: the blueprint, the request's session, flash-and-redirect."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, current_app, flash, g, redirect, url_for
from sqlalchemy.orm import Session

from forumbot.db.models import Game
from forumbot.errors import ForumbotError, GameNotFound
from forumbot.web import queries

bp = Blueprint("pages", __name__)


def db() -> Session:
    """This request's database session."""
    if "db" not in g:
        g.db = current_app.extensions["forumbot"]["sessions"]()
    session: Session = g.db
    return session


def ext() -> dict[str, Any]:
    """What ``create_app`` gave the page (sessions, clock, caches)."""
    ext: dict[str, Any] = current_app.extensions["forumbot"]
    return ext


def game_or_404(game_id: int) -> Game:
    """The game, or a 404 page."""
    try:
        return queries.get_game(db(), game_id)
    except GameNotFound:
        abort(404)


def ruleset_of(game: Game) -> Any:
    """The game's ruleset, loaded once per process (None while it cannot be loaded).

    A failure is not remembered: a ruleset fixed or installed while the page runs is used
    on the next request.
    """
    cache = ext()["rulesets"]
    key = (game.ruleset, json.dumps((game.settings or {}).get("options"), sort_keys=True))
    if cache.get(key) is None:
        cache[key] = ext()["ruleset_loader"](game)
    return cache[key]


def done(message: str, endpoint: str, **values: Any) -> Any:
    """Commit, say what happened, and go back to a page."""
    db().commit()
    flash(message, "ok")
    return redirect(url_for(endpoint, **values))


def failed(exc: ForumbotError, endpoint: str, **values: Any) -> Any:
    """Roll back, show why, and go back to a page."""
    db().rollback()
    flash(str(exc), "error")
    return redirect(url_for(endpoint, **values))
