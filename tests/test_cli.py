"""The command line a GM sees: help, and the stable JSON commands."""

from __future__ import annotations

from click.testing import CliRunner

from forumbot.cli import main


def test_help_lists_the_stable_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in ("simulate", "parse-order", "count-votes", "demo", "forum"):
        assert name in result.output


def test_every_command_is_listed_where_it_lives() -> None:
    """A command missing from WHERE still works but makes every command slower to start."""
    from forumbot.commands import WHERE, all_commands

    assert set(all_commands()) == set(WHERE)


def test_an_unknown_command_is_refused_clearly() -> None:
    result = CliRunner().invoke(main, ["conut-votes"])
    assert result.exit_code == 2
    assert "No such command 'conut-votes'" in result.output
