"""Recorded PM pages (``../shared/fixtures``): the adapter's PM body through the order parser.

The pages live outside the repository (shared material); the test skips when they are absent.
"""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import lxml.html
import pytest

from forum_adapters.phpbb.parse import parse_pm_view
from parsers.orders import OrderParser, Status, history_from_data
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "phpbb33"

CASES = [
    ("pm_view", "dctp", {"Kleene": "conan", "Conia": "megure", "CTU": "ran"}, "night2",
     Status.ACCEPTED, ["investigate Conia>kill>CTU@night2"]),
    ("pm_view_bbcode", "failheap", {"dark_knight_99": "godfather", "LaRa2000": "sheriff"},
     "night2", Status.ACCEPTED, ["mafia_kill LaRa2000"]),
    ("pm_view_cyrillic", "ru_mafia", {"Маша": "doctor", "Кот": "sheriff"}, "night2",
     Status.ACCEPTED, ["heal Маша"]),
    ("pm_view_two_recipients", "failheap", {"LaRa2000": "sheriff", "Bob": "doctor"}, "night2",
     Status.AMBIGUOUS, []),
]  # fmt: skip


@functools.cache
def _parser(ruleset: str) -> OrderParser:
    return OrderParser(load_ruleset(ruleset))


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not present")
@pytest.mark.parametrize(("page", "ruleset", "players", "phase", "status", "want"), CASES)
def test_recorded_pm(
    page: str, ruleset: str, players: dict[str, str], phase: str, status: Status, want: list[str]
) -> None:
    html = (SHARED / f"{page}.html").read_text(encoding="utf-8")
    now = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
    pm = parse_pm_view(lxml.html.fromstring(html), "http://forum/", now=now, tz=dt.UTC)
    roster = roster_from_data({"players": players, "hosts": ["ModBot", "GameMaster"]})
    result = _parser(ruleset).parse(
        pm.body_html,
        roster=roster,
        actor=pm.sender.name,
        phase=phase,
        recipients=[r.name for r in pm.recipients],
        history=history_from_data({"orders": []}),  # nothing earlier on record
    )
    assert result.status is status, result.reason
    assert [o.render() for o in result.orders] == want
    if page == "pm_view_two_recipients":
        assert result.questions
