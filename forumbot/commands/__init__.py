"""CLI command groups, one module per area; ``forumbot.cli`` registers them all.

Each area owns its module so that work on one area never edits another's file.
"""

from __future__ import annotations

import click

from forumbot.commands import db, demo, forum, game, orders, runtime, simulate, votes, web

COMMANDS: tuple[click.Command, ...] = (
    *demo.COMMANDS,
    *game.COMMANDS,
    *db.COMMANDS,
    *forum.COMMANDS,
    *votes.COMMANDS,
    *orders.COMMANDS,
    *simulate.COMMANDS,
    *runtime.COMMANDS,
    *web.COMMANDS,
)
