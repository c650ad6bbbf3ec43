"""``forumbot game ...``: game files."""

from __future__ import annotations

import click

from forumbot.commands._common import clean_errors, echo_json
from forumbot.gamefile import GameConfig, load_game_file


@click.group(name="game")
def game() -> None:
    """Game files: check one before a game starts."""


@game.command(name="check")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the validated settings as JSON.")
@clean_errors
def check(path: str, as_json: bool) -> None:
    """Validate a game file and summarise it; exit 2 naming the first wrong setting."""
    config = load_game_file(path)
    if as_json:
        echo_json(summary(config))
        return
    click.echo(f"{path}: OK")
    for key, value in summary(config).items():
        click.echo(f"  {key}: {value}")


def summary(config: GameConfig) -> dict[str, object]:
    """What a GM wants to see of a game file at a glance (no secrets: there are none in it)."""
    schedule = config.schedule
    return {
        "name": config.name,
        "forum": config.forum.url,
        "engine": config.forum.engine,
        "bot account": config.credentials.username,
        "password from": (
            f"file {config.credentials.password_file}"
            if config.credentials.password_file
            else f"environment variable {config.credentials.password_env}"
        ),
        "gm": config.gm,
        "ruleset": config.ruleset,
        "players": [p.name for p in config.players],
        "timezone": str(schedule.timezone),
        "first phase": schedule.first_phase,
        "start": schedule.start.isoformat() if schedule.start else None,
        "publishing": config.publishing.mode,
    }


COMMANDS: tuple[click.Command, ...] = (game,)
