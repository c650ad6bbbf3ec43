"""Where the bot's forum password comes from: an environment variable or an owner-only file.

Never from the game file, never printed, never logged. ``Secret`` hides its value from
``repr``/``str`` so that a stray log line or traceback cannot leak it.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from forumbot.errors import ConfigError, CredentialsError

DEFAULT_PASSWORD_ENV = "FORUMBOT_PASSWORD"
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/?#@]*@")


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret string that never shows itself in ``repr`` or ``str``."""

    _value: str = field(repr=False)

    def reveal(self) -> str:
        """Return the secret, for the one place that must send it (the login form)."""
        return self._value

    def __str__(self) -> str:
        return "********"

    def __repr__(self) -> str:
        return "Secret('********')"


@dataclass(frozen=True, slots=True)
class Credentials:
    """The bot's forum account: user name in clear, password as a ``Secret``."""

    username: str
    password: Secret


def read_password(
    *,
    env: str | None = DEFAULT_PASSWORD_ENV,
    file: str | Path | None = None,
    environ: dict[str, str] | None = None,
    setting: str = "credentials",
) -> Secret:
    """Read the bot's password from a file (checked first, when given) or an environment variable.

    Args:
        env: name of the environment variable holding the password.
        file: path of a file holding the password; it must be readable by its owner only.
        environ: the environment to read (defaults to ``os.environ``; tests pass a dict).
        setting: the game-file setting these came from, named in error messages.

    Returns:
        The password as a ``Secret``.

    Raises:
        CredentialsError: the file is missing, empty, or readable by others; or the
            variable is unset or empty.
    """
    if file is not None:
        return _read_password_file(Path(file), setting)
    if not env:
        raise CredentialsError(setting, "name a password_env variable or a password_file")
    value = (os.environ if environ is None else environ).get(env, "")
    if not value:
        raise CredentialsError(
            f"{setting}.password_env",
            f"the environment variable {env} is not set; export it before starting forumbot",
        )
    return Secret(value)


def _read_password_file(path: Path, setting: str) -> Secret:
    where = f"{setting}.password_file"
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise CredentialsError(where, f"{path} does not exist") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise CredentialsError(
            where,
            f"{path} can be read by other users; run: chmod 600 {path}",
        )
    value = path.read_text(encoding="utf-8").strip()
    if not value:
        raise CredentialsError(where, f"{path} is empty")
    return Secret(value)


def mask_url_credentials(text: str) -> str:
    """``text`` with the ``user:password@`` part of every URL in it replaced by ``********@``."""
    return _URL_USERINFO.sub(r"\1********@", text)


def refuse_url_credentials(url: str, setting: str) -> None:
    """Refuse a forum URL carrying a user name or password (``http://ModBot:pw@host/``).

    Raises:
        ConfigError: naming ``setting`` and pointing to ``FORUMBOT_PASSWORD``; the message
            shows the URL with its credentials masked.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return  # not a URL at all: the caller's own check names the problem
    if parts.username is None and parts.password is None:
        return
    raise ConfigError(
        setting,
        f"{mask_url_credentials(url)} has a user name or password in it; give the bare URL, "
        f"the user name as the bot's user name, and the password in ${DEFAULT_PASSWORD_ENV} "
        "(or credentials.password_env / password_file)",
    )
