"""Games: register a game from its game file, start it, read its settings.

A game row keeps its game file's text in ``settings["game_yaml"]`` (re-validated whenever it
is read); its runtime marks are typed columns (``Game.pm_row``, ``paused_at``, ...). Nothing
here talks to the forum.
"""

from __future__ import annotations

import functools
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from forum_adapters.detect import locate
from forumbot.db.engine import default_data_dir
from forumbot.db.enums import GameStatus, PlayerStatus
from forumbot.db.models import Game, Player
from forumbot.db.repo import get_or_create_forum
from forumbot.errors import ConfigError, GameNotFound
from forumbot.gamefile import GameConfig, load_game_file, parse_game, require_filled
from forumbot.services.context import ForumAccess, Runtime
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
        ConfigError: the game file still has blanks to fill in (the rule of ``game check``).
    """
    with rt.sessions.begin() as session:
        game = find(session, ref)
        require_filled(config_of(game))
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


def quarantine(page: str, game_id: int, moment: str) -> Path:
    """Save a page the adapter could not read, to become a test fixture (LayoutChanged)."""
    folder = default_data_dir() / "quarantine"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game{game_id}-{moment.replace(':', '')}.html"
    path.write_text(page, encoding="utf-8")
    return path
