"""Games: register a game from its game file, start it, read its settings.

A game row keeps its game file's text in ``settings["game_yaml"]`` (re-validated whenever it
is read); its runtime marks are typed columns (``Game.pm_row``, ``paused_at``, ...). Nothing
here talks to the forum.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from forum_adapters.detect import locate
from forumbot.db.engine import default_data_dir
from forumbot.db.enums import GameStatus, PlayerStatus
from forumbot.db.models import Game, Player
from forumbot.db.repo import get_or_create_forum
from forumbot.errors import ConfigError, GameNotFound
from forumbot.gamefile import GameConfig, load_game_file, parse_game
from forumbot.services.context import ForumAccess, Runtime
from parsers.votes import rules_from_data
from parsers.votes.detect import detect_syntaxes, suggest_syntaxes
from resolver.ruleset import parse_yaml


def config_of(game: Game) -> GameConfig:
    """The game's validated settings, from the game file text it was registered with."""
    return _parsed(game.settings["game_yaml"], game.name)


@functools.lru_cache(maxsize=256)
def _parsed(text: str, name: str) -> GameConfig:
    """Parsing is pure and the result frozen: each game file text is read once per process."""
    return parse_game(parse_yaml(text), source=name)


def find(session: Session, ref: str | int) -> Game:
    """A game by id or name.

    Raises:
        GameNotFound: no such game.
    """
    game = None
    if isinstance(ref, int) or str(ref).isdigit():
        game = session.get(Game, int(ref))
    if game is None:
        game = session.scalar(select(Game).where(Game.name == str(ref)))
    if game is None:
        raise GameNotFound(str(ref))
    return game


def access_of(game: Game, config: GameConfig | None = None) -> ForumAccess:
    """How to reach the game's forum (no password: adapters read it from its source)."""
    config = config or config_of(game)
    return ForumAccess(
        game_id=game.id,
        engine=game.forum.engine,
        base_url=game.forum.base_url,
        topic_id=game.topic_id,
        topic_url=game.topic_url,
        username=config.credentials.username,
        password_env=config.credentials.password_env,
        password_file=config.credentials.password_file,
        requests_per_second=config.forum.requests_per_second,
        post_interval=config.forum.post_interval,
        date_order=config.forum.date_order,
        pms_per_hour=config.forum.pms_per_hour,
    )


def problems(config: GameConfig) -> list[str]:
    """What keeps a game file from running (empty when it can run)."""
    found = [f"players: {p.name} has no role" for p in config.players if not p.role]
    if not config.name:
        found.append("name: give the game a name")
    return found


def register(
    rt: Runtime, path: str | Path, *, base_url: str | None = None, topic_id: str | None = None
) -> int:
    """Store a game from its game file (status SETUP); returns its id. Re-registering a game
    of the same name refreshes its settings and keeps everything it has read."""
    config = load_game_file(path)
    text = Path(path).read_text(encoding="utf-8")
    engine, base, topic = _forum_address(config, base_url, topic_id)
    with rt.sessions.begin() as session:
        forum = get_or_create_forum(session, engine, base, base)
        game = session.scalar(select(Game).where(Game.name == config.name))
        if game is None:
            game = Game(name=config.name, forum_id=forum.id, topic_id=topic,
                        topic_url=config.forum.url, ruleset=config.ruleset, seed=config.seed,
                        gm_name=config.gm, settings={},
                        created_at=rt.clock.now())  # this database's start of the game  # fmt: skip
            session.add(game)
        game.settings = {**game.settings, "game_yaml": text, "source": str(path),
                         "receipts": config.publishing.receipts}  # fmt: skip
        session.flush()
        _sync_players(session, game, config)
        return game.id


def start(rt: Runtime, ref: str | int) -> str:
    """Check the game can run, then mark it running; the first phase opens on the next tick.

    Raises:
        ConfigError: the game file is not complete enough to run (names what is missing).
    """
    with rt.sessions.begin() as session:
        game = find(session, ref)
        missing = problems(config_of(game))
        if missing:
            raise ConfigError("game file", "not ready to run: " + "; ".join(missing))
        if game.status is GameStatus.SETUP:
            game.status = GameStatus.RUNNING
        return game.name


def _forum_address(
    config: GameConfig, base_url: str | None, topic_id: str | None
) -> tuple[str, str, str]:
    """(engine, base URL, topic id); ``auto`` is detected from the thread's URL."""
    stated = config.forum.engine
    location = locate(config.forum.url, None if stated in ("auto", "file") else stated)
    engine = location.engine if stated == "auto" else stated
    if base_url and topic_id:
        return engine, base_url, topic_id
    if location.topic_id is None:
        raise ConfigError("forum.url", "this address names no topic (open the game thread)")
    return engine, location.base_url, str(location.topic_id)


def _sync_players(session: Session, game: Game, config: GameConfig) -> None:
    existing = {p.display_name: p for p in game.players}
    for slot, entry in enumerate(config.players, start=1):
        player = existing.get(entry.name)
        if player is None:
            player = Player(game_id=game.id, slot=slot, display_name=entry.name)
            session.add(player)
        player.role, player.aliases = entry.role, list(entry.aliases)
        player.forum_user_id = entry.forum_user_id
        if player.status is None:
            player.status = PlayerStatus.ALIVE


# --- forumbot init: a game file from an existing thread --------------------------------------

Reader = Callable[[str, str, str], tuple[str, list[tuple[str, str]]]]
"""(url, engine, username) -> (title, [(author, body_html), ...]) of the thread, in order."""


def draft_game_file(url: str, engine: str, username: str, reader: Reader) -> str:
    """A game file to fill in from a thread: its starter as GM, its posters as players.

    Roles are left empty on purpose: ``forumbot game check`` passes but ``forumbot run``
    refuses the game until every player has a role.
    """
    title, posts = reader(url, engine, username)
    gm = posts[0][0] if posts else ""
    players: list[str] = []
    for author, _body in posts[1:]:
        if author not in (gm, username) and author not in players:
            players.append(author)
    data = {
        "name": _slug(title) or "my-game",
        "forum": {"url": url, "engine": engine},
        "credentials": {"username": username, "password_env": "FORUMBOT_PASSWORD"},
        "gm": gm,
        "ruleset": "failheap",
        "seed": 1,
        "players": [{"name": name, "role": None} for name in players] or [{"name": "?"}],
        "schedule": {"timezone": "UTC", "first_phase": first_phase_of(title),
                     "day": {"length": "48h", "starts": "22:00"},
                     "night": {"length": "24h", "inner_deadlines": {"orders": "19:00"}}},
        "publishing": {"mode": "approve", "receipts": True, "poll_interval": "2m"},
    }  # fmt: skip
    syntax = suggest_syntaxes(detect_syntaxes(
        [body for author, body in posts[1:] if author not in (gm, username)], rules_from_data({})
    ))  # fmt: skip
    if syntax:  # the vote syntax the thread's players use (the ruleset's otherwise)
        data["votes"] = {"syntax": [s.value for s in syntax]}
    header = (
        f"# Game file drafted by 'forumbot init' from {url}\n"
        "# Fill in every role (and check the ruleset and schedule), then:\n"
        "#   forumbot game check THIS_FILE && forumbot run THIS_FILE\n"
    )
    return header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


_TITLE_PHASE = re.compile(r"\b(?:(day|jour|день)|(night|nuit|ночь))\s*(\d{1,2})\b", re.IGNORECASE)


def first_phase_of(title: str) -> str:
    """The phase a thread's title names ("Day 1", "Nuit 2", "День 1"), else night1."""
    match = _TITLE_PHASE.search(title)
    if match is None:
        return "night1"
    return f"{'day' if match.group(1) else 'night'}{int(match.group(3))}"


def _slug(text: str) -> str:
    keep = [c.lower() if c.isalnum() else "-" for c in text]
    return "-".join(part for part in "".join(keep).split("-") if part)[:60]


def quarantine(page: str, game_id: int, moment: str) -> Path:
    """Save a page the adapter could not read, to become a test fixture (LayoutChanged)."""
    folder = default_data_dir() / "quarantine"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game{game_id}-{moment.replace(':', '')}.html"
    path.write_text(page, encoding="utf-8")
    return path
