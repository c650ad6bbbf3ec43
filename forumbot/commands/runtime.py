"""Commands of the runtime area (registered in forumbot.commands)."""

from __future__ import annotations

import click

COMMANDS: tuple[click.Command, ...] = ()
