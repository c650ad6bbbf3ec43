"""``forumbot db ...``: the database (create or upgrade its schema)."""

from __future__ import annotations

import click

COMMANDS: tuple[click.Command, ...] = ()
