"""CLI command groups, one module per area; ``forumbot.cli`` registers them all.

Each area owns its module (which exports ``COMMANDS``), so work on one area never edits
another's file. Modules are imported only when one of their commands runs: a script calling
``forumbot count-votes`` does not pay for the web page, Alembic or the scheduler.
"""

from __future__ import annotations

import importlib

import click

#: Which module holds each command. A module's command missing here is still found (every
#: module is then imported), but is slower to start: list it.
WHERE: dict[str, str] = {
    "demo": "demo",
    "game": "game",
    "db": "db",
    "forum": "forum",
    "count-votes": "votes",
    "parse-order": "orders",
    "simulate": "simulate",
    "init": "runtime",
    "run": "runtime",
    "status": "runtime",
    "queue": "runtime",
    "phase": "runtime",
    "serve": "web",
    "player": "roster",
}
MODULES = ("demo", "game", "db", "forum", "votes", "orders", "simulate", "runtime", "web", "roster")


def commands_of(module: str) -> dict[str, click.Command]:
    """The commands a module of this package exports, by name."""
    found = importlib.import_module(f"forumbot.commands.{module}").COMMANDS
    return {command.name or "": command for command in found}


def all_commands() -> dict[str, click.Command]:
    """Every command of every module (imports them all)."""
    return {name: cmd for module in MODULES for name, cmd in commands_of(module).items()}


def find_command(name: str) -> click.Command | None:
    """The command called ``name``, importing only its module when it is listed in WHERE."""
    if name in WHERE:
        command = commands_of(WHERE[name]).get(name)
        if command is not None:
            return command
    return all_commands().get(name)
