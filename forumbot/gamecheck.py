"""Check a game file against its ruleset: roles exist, options are valid, defaults shown.

The GM sees every open rules question of the ruleset with its default and the value this
game uses, before the game starts (the rulebooks leave many questions open; forumbot never
buries an answer in code).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from forumbot.errors import ConfigError
from forumbot.gamefile import GameConfig, require_filled
from resolver.errors import RulesetError
from resolver.model.catalogue import Ruleset
from resolver.ruleset import load_ruleset


@dataclass(frozen=True, slots=True)
class OptionLine:
    """One open rules question as the GM sees it."""

    id: str
    value: Any
    default: Any
    doc: str
    choices: tuple[Any, ...]

    @property
    def changed(self) -> bool:
        """True when the game file answers differently from the ruleset's default."""
        return self.value != self.default


def load_game_ruleset(config: GameConfig) -> Ruleset:
    """Check nothing is left to fill in, then load the game's ruleset with the game's
    options and check every player's role (``forumbot game check`` and ``forumbot run``).

    Raises:
        ConfigError: a blank is left (``FILL_IN`` or a player without a role: "fill in
            before `run`"), the ruleset is unknown or broken, an option or its value is
            unknown, or a player's role is not in the ruleset; the message names the setting.
    """
    require_filled(config)
    try:
        ruleset = load_ruleset(config.ruleset, options=config.options)
    except RulesetError as exc:
        raise ConfigError(_setting_of(exc), str(exc), config.source) from None
    for index, player in enumerate(config.players):
        if player.role is None:
            continue
        try:
            ruleset.role_of(player.role)
        except KeyError:
            raise ConfigError(
                f"players[{index}].role",
                f"{player.name}: no role {player.role!r} in ruleset {ruleset.id} "
                f"(roles: {', '.join(sorted(ruleset.roles))})",
                config.source,
            ) from None
    return ruleset


def option_lines(ruleset: Ruleset) -> list[OptionLine]:
    """Every option of the ruleset, in file order, with the value this game uses."""
    return [
        OptionLine(o.id, o.value, o.default, o.doc, tuple(o.choices))
        for o in ruleset.options.values()
    ]


def _setting_of(exc: RulesetError) -> str:
    """Which game-file setting a ruleset error is about."""
    if exc.path.startswith("options"):
        return exc.path
    if exc.problem == "no such ruleset":
        return "ruleset"
    return f"ruleset ({exc.source})"
