"""Phase ids and phase references in player text ("Night 1", "N1", "ночь 2", "nuit 3")."""

from __future__ import annotations

import functools

import pytest

from parsers.orders import OrderParser
from parsers.orders.text import tokenize
from parsers.phases import Phase, find_phase, parse_phase
from resolver.ruleset import load_ruleset


@functools.cache
def _vocab(ruleset: str):
    return OrderParser(load_ruleset(ruleset)).lexicon.phases


@pytest.mark.parametrize(
    ("text", "want"),
    [("night2", Phase("night", 2)), ("N2", Phase("night", 2)), ("day 0", Phase("day", 0)),
     ("prep", Phase("prep")), ("D3", Phase("day", 3))],
)  # fmt: skip
def test_parse_phase(text: str, want: Phase) -> None:
    assert parse_phase(text) == want


@pytest.mark.parametrize("bad", ["", "night", "dusk3", "2"])
def test_parse_phase_refuses(bad: str) -> None:
    with pytest.raises(ValueError, match="phase"):
        parse_phase(bad)


@pytest.mark.parametrize(
    ("ruleset", "text", "want"),
    [("dctp", "Night 1", "night1"), ("dctp", "n1", "night1"), ("dctp", "night #3", "night3"),
     ("dctp", "2nd night", "night2"), ("dctp", "the first night", "night1"),
     ("dctp", "tonight", "night2"), ("dctp", "last night", "night1"), ("dctp", "prep", "prep"),
     ("ru_mafia", "ночь 2", "night2"), ("ru_mafia", "вторую ночь", "night2"),
     ("ru_mafia", "2-я ночь", "night2"), ("ru_mafia", "н3", "night3"),
     ("durarara", "nuit 3", "night3"), ("durarara", "3e nuit", "night3"),
     ("durarara", "jour 0", "day0")],
)  # fmt: skip
def test_find_phase(ruleset: str, text: str, want: str) -> None:
    norms = [t.norm for t in tokenize(text).tokens]
    start = 1 if norms[0] in ("the",) else 0
    found = find_phase(norms, start, _vocab(ruleset), Phase("night", 2))
    assert found is not None and found[0].id == want


def test_previous_phase_depends_on_which_comes_first() -> None:
    assert Phase("day", 3).previous("night") == Phase("night", 3)
    assert Phase("day", 3).previous("night", night_first=False) == Phase("night", 2)
    assert Phase("night", 3).previous("day") == Phase("day", 2)
