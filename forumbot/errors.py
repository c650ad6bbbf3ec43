"""The application shell's exceptions: one root, messages built from typed fields."""

from __future__ import annotations


class ForumbotError(Exception):
    """Root of every error the forumbot shell raises on purpose."""


class ConfigError(ForumbotError, ValueError):
    """A game file or setting is wrong or missing.

    Attributes:
        setting: the dotted name of the setting at fault (``players.Ann.role``).
        problem: what is wrong with it, in words a GM understands.
        source: the file it came from, when there is one.
    """

    def __init__(self, setting: str, problem: str, source: str | None = None) -> None:
        self.setting = setting
        self.problem = problem
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}setting '{setting}': {problem}")


class CredentialsError(ConfigError):
    """The bot's forum credentials cannot be read safely."""


class GameNotFound(ForumbotError):
    """No game with this id or name is in the database."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(f"no game named {game!r} in the database")
