"""Who may use the GM page: a per-install secret token, a session cookie, CSRF on every POST.

The token is generated on first run and stored owner-only (0600) under the data directory;
``forumbot serve`` shows it once. The login form exchanges it for a signed session cookie
(HttpOnly, SameSite=Strict) carrying a session id that the server keeps while the session is
open: logout forgets it, so a copied cookie is worthless afterwards (and after a restart).
Every POST must carry the session's CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from forumbot.errors import ConfigError

TOKEN_FILE = "web-token"
PUBLIC_ENDPOINTS = frozenset({"auth.login", "auth.favicon", "static"})

bp = Blueprint("auth", __name__)


class LiveSessions:
    """The session ids of open logins (in memory: a restart of the page logs everyone out)."""

    def __init__(self) -> None:
        """No session is open."""
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    def open(self) -> str:
        """A new session id, valid until ``close``."""
        sid = secrets.token_urlsafe(24)
        with self._lock:
            self._ids.add(sid)
        return sid

    def close(self, sid: str) -> None:
        """End the session ``sid`` (a copied cookie with it is refused from now on)."""
        with self._lock:
            self._ids.discard(sid)

    def is_open(self, sid: object) -> bool:
        """True if ``sid`` is a session opened here and not closed since."""
        with self._lock:
            return isinstance(sid, str) and sid in self._ids


def _live() -> LiveSessions:
    live: LiveSessions = current_app.extensions["forumbot"]["live_sessions"]
    return live


def ensure_token(data_dir: Path) -> tuple[str, bool]:
    """The install's web token, created (owner-only) on first use.

    Returns:
        The token and whether it was created just now (then show it once).

    Raises:
        ConfigError: the token file is readable by others, or cannot be written.
    """
    path = data_dir / TOKEN_FILE
    if path.exists():
        if os.name == "posix" and path.stat().st_mode & 0o077:
            raise ConfigError(
                "web token", f"{path} is readable by other users; run: chmod 600 {path}"
            )
        token = path.read_text(encoding="utf-8").strip()
        if len(token) >= 16:
            return token, False
    data_dir.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(token + "\n")
    except OSError as exc:
        raise ConfigError("web token", f"cannot write {path}: {exc.strerror}") from None
    return token, True


def session_key(token: str) -> bytes:
    """The cookie-signing key, derived from the token (a new token logs everyone out)."""
    return hashlib.sha256(b"forumbot-web-session\0" + token.encode("utf-8")).digest()


def csrf_token() -> str:
    """The session's CSRF token (created on first use; templates put it in every form)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def gm_name() -> str:
    """The logged-in GM's name, for ``decided_by`` (empty unless the session is open)."""
    return str(session.get("gm", "")) if _live().is_open(session.get("sid")) else ""


def guard() -> Response | None:
    """Before every request: refuse a POST without the CSRF token, send strangers to login."""
    if request.routing_exception is not None:  # untrusted Host, unknown URL: Flask answers
        return None
    if session.get("gm") and not _live().is_open(session.get("sid")):
        session.clear()  # logged out (or the page restarted): the cookie is worth nothing
    if request.method == "POST":
        origin = request.headers.get("Origin")
        if origin and origin != "null" and urlsplit(origin).netloc != request.host:
            abort(400, description="This form was sent from another site.")
        sent = request.form.get("csrf_token", "")
        expected = session.get("csrf", "")
        if not expected or not hmac.compare_digest(str(sent), str(expected)):
            abort(400, description="Missing or wrong CSRF token: reload the page and try again.")
    if request.endpoint in PUBLIC_ENDPOINTS or session.get("gm"):
        return None
    if request.method != "GET":
        abort(403)
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    """The login form: the install token and the GM's name."""
    csrf_token()
    error = None
    if request.method == "POST":
        token = str(current_app.config["FORUMBOT_TOKEN"])
        given = request.form.get("token", "").strip()
        name = " ".join(request.form.get("name", "").split())[:100]
        if not hmac.compare_digest(given.encode(), token.encode()):
            error = "That token is not right. It was shown when 'forumbot serve' first ran."
        elif not name:
            error = "Please give your name: decisions are recorded with it."
        else:
            _live().close(str(session.get("sid", "")))
            session.clear()
            session.permanent = False
            session["gm"] = name
            session["sid"] = _live().open()
            csrf_token()
            return redirect(_safe_next(request.args.get("next")))
    return render_template("login.html", error=error), 401 if error else 200


@bp.get("/favicon.ico")
def favicon() -> Any:
    """No icon (answered without a login so browsers do not loop through the login page)."""
    return "", 204


@bp.route("/logout", methods=["POST"])
def logout() -> Any:
    """End the session, here and on the server (its cookie is refused from now on)."""
    _live().close(str(session.get("sid", "")))
    session.clear()
    return redirect(url_for("auth.login"))


def _safe_next(target: str | None) -> str:
    """Where to go after login: a page of this site, parsed, else the games list.

    Only printable ASCII, no backslash, no scheme or host, and a path that one of the page's
    own GET routes answers (so a tab, CR/LF, ``//evil`` or a backslash never pass).
    """
    fallback = url_for("pages.index")
    if not target or any(not 0x21 <= ord(ch) <= 0x7E or ch == "\\" for ch in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return fallback
    if parts.path.startswith("//") or not _is_page(parts.path):
        return fallback
    query = f"?{quote(parts.query, safe='=&%+')}" if parts.query else ""
    return quote(parts.path, safe="/%") + query


def _is_page(path: str) -> bool:
    """True if a GET route of this app answers ``path`` (the logout and login forms excluded)."""
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, _ = adapter.match(path, method="GET")
    except HTTPException:  # not found, wrong method, or a redirect (a trailing slash)
        return False
    return endpoint not in PUBLIC_ENDPOINTS
