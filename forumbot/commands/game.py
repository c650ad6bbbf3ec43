"""``forumbot game ...``: game files (check)."""

from __future__ import annotations

import click

COMMANDS: tuple[click.Command, ...] = ()
