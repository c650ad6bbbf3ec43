"""``forumbot forum ...``: check a forum setup by hand (log in, read the topic and the inbox)."""

from __future__ import annotations

import click

from forumbot.commands._common import clean_errors
from forumbot.errors import NotYetAvailable


@click.group(name="forum")
def forum() -> None:
    """Check a forum setup: log in, read the topic and the inbox, send a test PM."""


@forum.command(name="check")
@clean_errors
def check() -> None:
    """Log in and check that the bot can read the topic and the inbox."""
    raise NotYetAvailable("forum check", "issue 3: forum adapters")


COMMANDS: tuple[click.Command, ...] = (forum,)
