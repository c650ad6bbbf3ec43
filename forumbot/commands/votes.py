"""``forumbot count-votes``: the vote tally from saved thread pages or stored posts."""

from __future__ import annotations

import click

from forumbot.commands._common import clean_errors
from forumbot.errors import NotYetAvailable


@click.command(name="count-votes")
@click.option("--ruleset", required=True, help="Ruleset name, e.g. failheap.")
@click.option("--setup", "setup_path", required=True, type=click.Path(dir_okay=False))
@click.argument("pages", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--posts", "posts_path", type=click.Path(dir_okay=False), help="Posts as JSON lines.")
@click.option("--from-post", type=int, default=None)
@click.option("--to-post", type=int, default=None)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def count_votes(**_: object) -> None:
    """Count the votes in saved thread pages or stored posts."""
    raise NotYetAvailable("count-votes", "issue 4: vote counting")


COMMANDS: tuple[click.Command, ...] = (count_votes,)
