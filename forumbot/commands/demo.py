"""``forumbot demo``: show the pipeline on bundled recorded data, with no network."""

from __future__ import annotations

import click


@click.command(name="demo")
def demo() -> None:
    """Replay a bundled recorded game through what forumbot can do today."""
    click.echo("forumbot demo: under construction.")


COMMANDS: tuple[click.Command, ...] = (demo,)
