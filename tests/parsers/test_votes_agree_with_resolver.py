"""One vote model: the published vote count and the resolved lynch agree.

For every Day of the bundled games (``fixtures/games``) and of random simulated Days, the
vote counter reads the Day's votes as posts and decides; the resolver resolves the same
votes; both must name the same lynch (or nobody). A tie the mayor or a draw must break is
"undecided" for the counter and decided by the resolver (nobody / one of the tied).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.roster import Roster, Slot
from parsers.votes import NO_LYNCH, DaySetup, PostInput, count_votes, rules_for
from resolver.engine import resolve_phase
from resolver.model.catalogue import Ruleset
from resolver.model.events import EventKind, Resolution
from resolver.model.state import GameState
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.scenario import parse_scenario, resolutions
from resolver.setup import new_game

GAMES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "games").glob("*.yaml"))


def resolver_lynch(res: Resolution) -> tuple[str, ...]:
    """Whom the lynch rule chose (before a lynch immunity saves him)."""
    chosen = [e.data["player"] for e in res.events if e.kind is EventKind.LYNCH]
    chosen += [
        e.data["player"]
        for e in res.events
        if e.kind is EventKind.NO_LYNCH and e.data.get("reason") == "lynch_immune"
    ]
    return tuple(sorted(chosen))


def counter_decision(
    ruleset: Ruleset, after: GameState, before: GameState, votes: Mapping[str, str | None]
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The counter on the same votes, as bold posts: (outcome, lynched, tied).

    Votes for a name that is no player are left out: the counter never hands such a vote to
    the resolver (it queues it for the GM).
    """
    players = {p.name for p in after.players}
    lynched_now = set(after.lynched) - set(before.lynched)
    slots = tuple(
        Slot(
            p.name,
            alive=p.alive or p.name in lynched_now,
            statuses=frozenset(s.id for s in p.statuses),
        )
        for p in after.players
    )
    posts = [
        PostInput(str(i), voter, f"<b>Vote: {target or NO_LYNCH}</b>", number=i)
        for i, (voter, target) in enumerate(votes.items())
        if target is None or target in players
    ]
    rules = rules_for(ruleset, {"channel": "thread", "syntax": ["bold_vote"], "no_lynch": True})
    decision = count_votes(posts, Roster(slots), rules, DaySetup(ended=True)).decision
    if decision.outcome == "lynch":
        names = decision.tied if not decision.lynched else (decision.lynched,)
        return "lynch", tuple(sorted(names)), ()
    return decision.outcome, (), tuple(sorted(decision.tied))


def agree(counter: tuple[str, tuple[str, ...], tuple[str, ...]], resolved: tuple[str, ...]) -> bool:
    outcome, lynched, tied = counter
    if outcome == "undecided":  # a tie the mayor or a draw breaks
        return bool(tied) and (not resolved or set(resolved) <= set(tied))
    return lynched == resolved


DAYS = [
    (path.stem, i)
    for path in GAMES
    for i, phase in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))["phases"])
    if phase.get("votes")
]


@pytest.mark.parametrize(("game", "index"), DAYS, ids=[f"{g}-{i}" for g, i in DAYS])
def test_every_day_of_the_bundled_games(game: str, index: int) -> None:
    data = yaml.safe_load((GAMES[0].parent / f"{game}.yaml").read_text(encoding="utf-8"))
    scenario = parse_scenario(data)
    before, res = resolutions(scenario)[index + 1]
    votes = scenario.phases[index].votes
    if not any(e.kind is EventKind.VOTE_TALLY for e in res.events):
        # No vote step (a night, or the game was over): the resolver refused every vote.
        refused = {e.data["voter"] for e in res.events if e.kind is EventKind.VOTE_REJECTED}
        assert refused == set(votes)
        return
    counted = counter_decision(scenario.ruleset, res.state, before, votes)
    assert agree(counted, resolver_lynch(res)), (counted, resolver_lynch(res))


PLAYERS = {
    "failheap": {"May": "mayor", "Ann": "villager", "Goon": "godfather", "Bob": "villager",
                 "Cy": "doctor", "Dee": "sheriff"},
    "ru_mafia": {"Аня": "doctor", "Боря": "mayor", "Вика": "mafioso", "Гена": "nurse",
                 "Дина": "godfather"},
    "durarara": {"Mikado": "villager", "Anri": "saika", "Celty": "villager",
                 "Masaomi": "blue_square", "Izaya": "izaya"},
}  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(PLAYERS)), st.data())
def test_random_simulated_days(ruleset_id: str, data: st.DataObject) -> None:
    ruleset = load_ruleset(ruleset_id)
    names = list(PLAYERS[ruleset_id])
    setup = new_game(ruleset, PLAYERS[ruleset_id], seed=data.draw(st.integers(0, 99)))
    voters = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    votes = {v: data.draw(st.sampled_from([*names, None])) for v in voters}
    res = resolve_phase(setup.state, [], ruleset, rng=PurposeRng(1), votes=votes, phase="day1")
    assert any(e.kind is EventKind.VOTE_TALLY for e in res.events)
    counted = counter_decision(ruleset, res.state, setup.state, votes)
    assert agree(counted, resolver_lynch(res)), (votes, counted, resolver_lynch(res))
