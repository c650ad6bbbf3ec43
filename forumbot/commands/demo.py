"""``forumbot demo``: show the pipeline on bundled recorded data, with no network."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from forumbot.commands._common import clean_errors
from forumbot.runtime.demo import run_demo


@click.command(name="demo")
@click.option("--keep", type=click.Path(file_okay=False), help="Work in this folder and keep it.")
@clean_errors
def demo(keep: str | None) -> None:
    """Replay a bundled recorded game through forumbot, offline, with a temporary database."""
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        run_demo(Path(keep), click.echo)
        return
    with tempfile.TemporaryDirectory(prefix="forumbot-demo-") as workdir:
        run_demo(Path(workdir), click.echo)


COMMANDS: tuple[click.Command, ...] = (demo,)
