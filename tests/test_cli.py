"""The command line a GM sees: help, and the stable JSON commands."""

from __future__ import annotations

from click.testing import CliRunner

from forumbot.cli import main


def test_help_lists_the_stable_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in ("simulate", "parse-order", "count-votes", "demo", "forum"):
        assert name in result.output
