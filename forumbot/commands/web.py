"""``forumbot serve``: the GM's local web page (review queue, phase, drafts, report, state)."""

from __future__ import annotations

from pathlib import Path

import click

from forumbot.commands._common import clean_errors
from forumbot.db import database_url
from forumbot.db.engine import default_data_dir
from forumbot.web.server import run_gm_page


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--database", default=None, help="Database URL (default: $FORUMBOT_DATABASE_URL, else SQLite)."
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the page's secret token is kept (default: forumbot's data folder).",
)
@clean_errors
def serve(host: str, port: int, database: str | None, data_dir: Path | None) -> None:
    """Open the GM's web page on this machine (http://127.0.0.1:8765 by default).

    The first run creates a secret token, shows it once and keeps it owner-only in the
    data folder; the login form asks for it. Stop with Ctrl+C.
    """

    def echo(text: str, warning: bool) -> None:
        click.secho(text, fg="red" if warning else None, err=warning)

    run_gm_page(database_url(database), host, port, data_dir or default_data_dir(), echo)


COMMANDS: tuple[click.Command, ...] = (serve,)
