"""The ``forumbot`` command line: a click group that registers every area's commands."""

from __future__ import annotations

import click

from forumbot import __version__
from forumbot.commands import COMMANDS

HELP = """forumbot moderates forum Mafia/Werewolf games on SMF and phpBB boards.

It reads votes from the game thread and orders from the GM's private messages,
resolves each phase under the game's ruleset, and drafts the phase post and the
private results for the GM to approve. Anything it cannot read with confidence
goes to the GM's review queue.

\b
Start here:
  forumbot demo                      see the whole pipeline on a recorded game
  forumbot game check GAME.yaml      validate a game file
\b
Stable JSON commands (for scripts and tests):
  forumbot simulate SCENARIO.yaml --json
  forumbot parse-order --ruleset NAME --setup SETUP.yaml --actor NAME --phase night2 --json
  forumbot count-votes --ruleset NAME --setup SETUP.yaml PAGE.html... --json
"""


@click.group(help=HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="forumbot")
def main() -> None:
    """Entry point of the ``forumbot`` command."""


for _command in COMMANDS:
    main.add_command(_command)
