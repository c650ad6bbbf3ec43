"""Which database each game runs on, kept beside the cookies: a second database is refused.

A game re-registered on a fresh database (a mistyped ``--database``, a copy of the game
file on another setup) would read its whole thread and inbox again as new. ``forumbot
run`` records the database of each game it starts in ``<data dir>/bindings.json``
(owner-only) and refuses the game on another database, naming both and the way out.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from forumbot.credentials import mask_url_credentials
from forumbot.errors import ConfigError

BINDINGS_FILE = "bindings.json"


def bind(data_dir: Path, game: str, database: str, now: datetime) -> datetime | None:
    """Record that ``game`` runs on ``database``, or refuse another database.

    Returns:
        Since when the game runs on it, or None for a game seen for the first time.

    Raises:
        ConfigError: ``game`` was started on another database (both named, with what to do).
    """
    path = data_dir / BINDINGS_FILE
    bindings = _read(path)
    here = mask_url_credentials(database)
    bound = bindings.get(game)
    if bound is None:
        bindings[game] = {"database": here, "since": now.isoformat(timespec="seconds")}
        _write(path, bindings)
        return None
    if bound.get("database") != here:
        raise ConfigError(
            "--database",
            f"game {game!r} was started on {bound.get('database')} ({bound.get('since')}), "
            f"not on {here}: give --database {bound.get('database')}; if that database is "
            f"lost, delete the entry for {game!r} in {path} (forumbot then checks the forum "
            "before answering anything older than the new database)",
        )
    try:
        return datetime.fromisoformat(str(bound.get("since")))
    except ValueError:
        return None


def _read(path: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError("bindings", f"cannot read {path}: {exc}") from None
    return data if isinstance(data, dict) else {}


def _write(path: Path, bindings: dict[str, dict[str, str]]) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(bindings, handle, indent=2, sort_keys=True)
    except OSError as exc:
        raise ConfigError("bindings", f"cannot write {path}: {exc.strerror}") from None
