"""The GM page's Flask application: built once by ``create_app`` with its sessions and token."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from flask import Flask, g
from sqlalchemy.orm import Session, sessionmaker
from werkzeug.wrappers import Response

from forumbot.db.models import Game
from forumbot.services.review import load_game_ruleset
from forumbot.web import auth, common, views, views_game, views_roster  # noqa: F401  (routes)
from forumbot.web.bbcode import render_bbcode

HERE = Path(__file__).resolve().parent

# Scripts and styles only from this server; inline style attributes are needed for the
# BBCode preview's colours and sizes (their values are whitelisted by the renderer).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)

ResolveNow = Callable[[int, int, str], str]
"""``resolve_now(game_id, phase_id, gm) -> message`` (see ``forumbot.web.resolve``)."""


def create_app(
    sessions: sessionmaker[Session],
    *,
    token: str,
    now: Callable[[], datetime] | None = None,
    resolve_now: ResolveNow | None = None,
    ruleset_loader: Callable[[Game], Any] = load_game_ruleset,
    trusted_hosts: list[str] | None = None,
) -> Flask:
    """Build the GM page.

    Args:
        sessions: the database session factory (one session per request).
        token: the install's secret token (see ``auth.ensure_token``).
        now: the clock (tests pass a fixed one).
        resolve_now: what the "resolve now" button calls; None disables the button.
        ruleset_loader: loads a game's ruleset for the legal-choice pickers (None if unusable).
        trusted_hosts: Host header values accepted (None: any); ``serve`` on loopback passes
            the loopback names, so a DNS-rebinding page cannot talk to the server.
    """
    app = Flask(
        __name__,
        template_folder=str(HERE / "templates"),
        static_folder=str(HERE / "static"),
    )
    app.config.update(
        SECRET_KEY=auth.session_key(token),
        FORUMBOT_TOKEN=token,
        SESSION_COOKIE_NAME="forumbot_gm",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),
        MAX_CONTENT_LENGTH=1_000_000,
        TRUSTED_HOSTS=trusted_hosts,
    )
    app.extensions["forumbot"] = {
        "sessions": sessions,
        "now": now or (lambda: datetime.now(UTC)),
        "resolve_now": resolve_now,
        "ruleset_loader": ruleset_loader,
        "rulesets": {},
        "live_sessions": auth.LiveSessions(),
    }
    app.before_request(auth.guard)
    app.after_request(_headers)
    app.teardown_appcontext(_close_session)
    app.jinja_env.globals.update(csrf_token=auth.csrf_token, gm_name=auth.gm_name)
    app.jinja_env.filters.update(
        bbcode=render_bbcode, timeleft=timeleft, pretty=pretty_json, local=local_time
    )
    app.jinja_env.autoescape = True

    app.register_blueprint(auth.bp)
    app.register_blueprint(common.bp)
    return app


def _close_session(exc: BaseException | None) -> None:
    session = g.pop("db", None)
    if session is not None:
        if exc is not None:
            session.rollback()
        session.close()


def _headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def timeleft(delta: timedelta) -> str:
    """``2d 3h 5m left`` or ``passed 4h 2m ago``."""
    seconds = int(abs(delta.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d"] if days else []
    parts += [f"{hours}h"] if hours or days else []
    parts.append(f"{minutes}m")
    text = " ".join(parts)
    return f"{text} left" if delta.total_seconds() > 0 else f"passed {text} ago"


def local_time(when: datetime, zone: tzinfo | None) -> str:
    """``2026-12-04 22:00 Europe/Paris (21:00 UTC)``, or UTC alone without a zone."""
    utc = when.astimezone(UTC)
    if zone is None or str(zone) == "UTC":
        return utc.strftime("%Y-%m-%d %H:%M UTC")
    return f"{when.astimezone(zone):%Y-%m-%d %H:%M} {zone} ({utc:%H:%M} UTC)"


def pretty_json(value: Any) -> str:
    """Compact readable JSON for event data (escaped by the template like any text)."""
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
