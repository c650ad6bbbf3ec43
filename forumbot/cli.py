"""The ``forumbot`` command line: a click group that registers every area's commands."""

from __future__ import annotations

import click

from forumbot import __version__
from forumbot.commands import WHERE, all_commands, find_command

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


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name (listing them for --help imports every module)."""
        return sorted(set(WHERE) | set(all_commands()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, imported on demand."""
        return find_command(cmd_name)


@click.group(cls=LazyGroup, help=HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="forumbot")
def main() -> None:
    """Entry point of the ``forumbot`` command."""
