"""``forumbot count-votes``: the vote tally from saved thread pages or stored posts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from forumbot.commands._common import clean_errors, echo_json
from forumbot.votecount import count_from_files, job_as_json, render_vote_count


@click.command(name="count-votes")
@click.option("--ruleset", required=True, help="Ruleset id (resolver/rulesets/<id>.yaml) or file.")
@click.option("--setup", "setup_path", required=True, type=click.Path(dir_okay=False, exists=True))
@click.argument("pages", nargs=-1, type=click.Path(dir_okay=False, exists=True))
@click.option(
    "--posts",
    "posts_path",
    type=click.Path(dir_okay=False, exists=True),
    help="Stored posts as JSON lines (id, author, time, html), in thread order.",
)
@click.option("--from-post", type=int, default=None, help="First post number to count.")
@click.option("--to-post", type=int, default=None, help="Last post number to count (as of).")
@click.option(
    "--template",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="Your own Jinja2 template for the vote-count post.",
)
@click.option(
    "--saved-on",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="The day the pages were saved, for SMF's 'Today at' times (default: the file's date).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON tally.")
@clean_errors
def count_votes(
    ruleset: str,
    setup_path: str,
    pages: tuple[str, ...],
    posts_path: str | None,
    from_post: int | None,
    to_post: int | None,
    template: str | None,
    saved_on: datetime | None,
    as_json: bool,
) -> None:
    """Count the votes in saved thread pages or stored posts (engine auto-detected).

    Without --json, prints the BBCode vote-count post, ready for the forum.
    """
    job = count_from_files(
        ruleset,
        Path(setup_path),
        [Path(p) for p in pages],
        Path(posts_path) if posts_path else None,
        from_post,
        to_post,
        saved_on.date() if saved_on else None,
    )
    if as_json:
        echo_json(job_as_json(job))
    else:
        now = datetime.now(UTC)
        click.echo(render_vote_count(job, now, Path(template) if template else None), nl=False)


COMMANDS: tuple[click.Command, ...] = (count_votes,)
