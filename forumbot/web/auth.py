"""Who may use the GM page: a per-install secret token, a session cookie, CSRF on every POST.

The token is generated on first run and stored owner-only (0600) under the data directory;
``forumbot serve`` shows it once. The login form exchanges it for a signed session cookie
(HttpOnly, SameSite=Strict). Every POST must carry the session's CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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
from werkzeug.wrappers import Response

from forumbot.errors import ConfigError

TOKEN_FILE = "web-token"
PUBLIC_ENDPOINTS = frozenset({"auth.login", "auth.favicon", "static"})

bp = Blueprint("auth", __name__)


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
    """The logged-in GM's name, for ``decided_by``."""
    return str(session.get("gm", ""))


def guard() -> Response | None:
    """Before every request: refuse a POST without the CSRF token, send strangers to login."""
    if request.routing_exception is not None:  # untrusted Host, unknown URL: Flask answers
        return None
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
            session.clear()
            session.permanent = False
            session["gm"] = name
            csrf_token()
            return redirect(_safe_next(request.args.get("next")))
    return render_template("login.html", error=error), 401 if error else 200


@bp.get("/favicon.ico")
def favicon() -> Any:
    """No icon (answered without a login so browsers do not loop through the login page)."""
    return "", 204


@bp.route("/logout", methods=["POST"])
def logout() -> Any:
    """Forget the session."""
    session.clear()
    return redirect(url_for("auth.login"))


def _safe_next(target: str | None) -> str:
    """Only a local path (never ``//evil`` or ``https://...``) after login."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("pages.index")
