"""``forumbot demo`` runs end to end offline, on a temporary database."""

from __future__ import annotations

from click.testing import CliRunner

from forumbot.cli import main


def test_demo_runs_the_recorded_game(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "never-used"))
    result = CliRunner().invoke(main, ["demo", "--keep", str(tmp_path / "work")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "64 posts" in out and "21 PMs" in out
    assert "Akonyl (5)" in out  # the recorded game's final tally
    assert "night1  accepted" in out  # night orders sent during the day, filed for the night
    assert "GM review queue" in out and "Receipts PMed to players" in out
    assert "Day 1: resolved" in out and "[b]Akonyl[/b] was lynched" in out
    assert "Night 1: resolved" in out and "Night 1 is over" in out
    assert not (tmp_path / "never-used").exists()  # the user's database is never touched
