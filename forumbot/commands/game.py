"""``forumbot game ...``: game files."""

from __future__ import annotations

import textwrap

import click

from forumbot.commands._common import clean_errors, echo_json
from forumbot.gamecheck import load_game_ruleset, option_lines
from forumbot.gamefile import GameConfig, load_game_file


@click.group(name="game")
def game() -> None:
    """Game files: check one before a game starts; start it (role PMs)."""


@game.command(name="check")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the validated settings as JSON.")
@clean_errors
def check(path: str, as_json: bool) -> None:
    """Validate a game file against its ruleset and show the rules options it plays with.

    Exits with status 2 and names the first wrong setting.
    """
    config = load_game_file(path)
    ruleset = load_game_ruleset(config)
    options = option_lines(ruleset)
    from forumbot.votecount import vote_rule_lines

    votes = vote_rule_lines(ruleset, config.vote_rules)
    if as_json:
        data = summary(config)
        data["options"] = {
            o.id: {"value": o.value, "default": o.default, "doc": o.doc} for o in options
        }
        data["votes"] = {key: value for key, value, _ in votes}
        echo_json(data)
        return
    click.echo(f"{path}: OK")
    for key, value in summary(config).items():
        click.echo(f"  {key}: {value}")
    click.echo(f"\nRules options of {ruleset.id} (set them under 'options:' in the game file):")
    for o in options:
        mark = "*" if o.changed else " "
        value = ", ".join(map(str, o.value)) if isinstance(o.value, tuple) else o.value
        click.echo(f" {mark} {o.id} = {value}")
        click.echo(
            textwrap.fill(o.doc, width=92, initial_indent=" " * 6, subsequent_indent=" " * 6)
        )
    if any(o.changed for o in options):
        click.echo("  (* = this game differs from the ruleset's default)")
    click.echo("\nVote rules (the ruleset's vote:, changed under 'votes:'; docs/votes.md):")
    for key, value, changed in votes:
        click.echo(f" {'*' if changed else ' '} {key} = {value}")


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


from forumbot.commands.roster import start as _start  # noqa: E402  (the start of a game)

game.add_command(_start)

COMMANDS: tuple[click.Command, ...] = (game,)
