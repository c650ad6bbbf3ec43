"""``forumbot parse-order``: turn one PM's free text (on stdin) into structured orders."""

from __future__ import annotations

import click

from forumbot.commands._common import clean_errors
from forumbot.errors import NotYetAvailable


@click.command(name="parse-order")
@click.option("--ruleset", required=True, help="Ruleset name, e.g. failheap.")
@click.option("--setup", "setup_path", required=True, type=click.Path(dir_okay=False))
@click.option("--actor", required=True, help="The player who sent the PM.")
@click.option("--phase", required=True, help="The phase the order is for, e.g. night2.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def parse_order(**_: object) -> None:
    """Parse an order PM read from standard input."""
    raise NotYetAvailable("parse-order", "issue 5: natural-text order parser")


COMMANDS: tuple[click.Command, ...] = (parse_order,)
