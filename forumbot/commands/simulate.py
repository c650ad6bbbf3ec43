"""``forumbot simulate``: resolve a scripted game and print every phase's outcome."""

from __future__ import annotations

import click

from forumbot.commands._common import clean_errors
from forumbot.errors import NotYetAvailable


@click.command(name="simulate")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def simulate(**_: object) -> None:
    """Resolve a scenario file phase by phase."""
    raise NotYetAvailable("simulate", "issue 6: resolver engine")


COMMANDS: tuple[click.Command, ...] = (simulate,)
