"""Durarara (seed 003): every ability resolves, every role and rule has a scenario quoting the
seed, gangs at setup, and the hook's readings of the seed that scenarios cannot show alone."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from resolver.contracts import unresolvable
from resolver.engine import resolve_phase
from resolver.model import EventKind, Order, Visibility
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import new_game

ROOT = Path(__file__).resolve().parents[3]
GAMES = sorted((ROOT / "fixtures" / "games").glob("durarara-*.yaml"))
QUOTE = re.compile(r'seed: "(.+?)"(?:\s|$|/|\()')
ROSTER = {
    "Izaya": "izaya", "Mikado": "taro", "Masaomi": "bacula", "Anri": "saika",
    "Celty": "celty", "Shinra": "shinra", "Tom": "tom", "Erika": "villager",
    "Walker": "villager", "Horada": "blue_square", "Izumii": "blue_square", "Simon": "cupid",
}  # fmt: skip


def _seed() -> str:
    for folder in (
        os.environ.get("FORUMBOT_SEEDS"),
        *(p / "shared" / "seeds" for p in ROOT.parents),
    ):
        path = Path(folder or "") / "003_c1c9e0327c86515e.txt"
        if folder and path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip("the seed rulebooks are not on this machine")


def test_every_durarara_ability_resolves() -> None:
    assert unresolvable(load_ruleset("durarara")) == {}


def test_there_is_a_scenario_for_every_durarara_role() -> None:
    ruleset = load_ruleset("durarara")
    from resolver.scenario import parse_scenario

    roles: set[str] = set()
    for path in GAMES:
        roles |= set(parse_scenario(yaml.safe_load(path.read_text())).players.values())
    assert set(ruleset.roles) <= roles


def test_every_scenario_quotes_the_seed_word_for_word() -> None:
    seed = " ".join(_seed().split()).replace("’", "'")
    for path in GAMES:
        quotes = [" ".join(q.split()) for q in QUOTE.findall(path.read_text())]
        options = "# option" in path.read_text()
        assert quotes or options, f"{path.name} quotes no seed line"
        for quote in quotes:
            for part in quote.split(" [...] "):
                words = part.strip(' ".').removeprefix("... ").removeprefix("(")
                assert words in seed, (path.name, part)


def _setup(seed: int = 5):  # type: ignore[no-untyped-def]
    return new_game(load_ruleset("durarara"), ROSTER, seed=seed)


@pytest.mark.parametrize("seed", range(6))
def test_gangs_are_even_and_each_player_knows_one_other_member(seed: int) -> None:
    setup = _setup(seed)
    gangs = {
        p.name: {s.id for s in p.statuses if s.id.startswith("gang_")} for p in setup.state.players
    }
    assert gangs["Izaya"] == {"gang_dollars", "gang_yellow_scarves"}
    assert gangs["Mikado"] == {"gang_dollars"} and gangs["Masaomi"] == {"gang_yellow_scarves"}
    sizes = Counter(g for n, gs in gangs.items() if n != "Izaya" for g in gs)
    assert abs(sizes["gang_dollars"] - sizes["gang_yellow_scarves"]) <= 1
    notes = {e.to[0]: e.data for e in setup.events if e.kind is EventKind.NOTE}
    assert notes["Izaya"]["message"] == "gang_izaya" and "known" not in notes["Izaya"]
    for name, data in notes.items():
        if name == "Izaya":
            continue
        (known,) = data["known"]
        assert data["gang"] in gangs[name] and data["gang"] in gangs[known] and known != "Izaya"


def test_gang_messages_are_private_and_french() -> None:
    from forumbot.render import EventRenderer

    setup = _setup()
    assert all(e.visibility is Visibility.PRIVATE for e in setup.events if e.kind is EventKind.NOTE)
    texts = EventRenderer.create(load_ruleset("durarara")).private_messages(setup.events)
    assert "Votre gang" in " ".join(texts["Erika"])
    assert "vous ne connaissez aucun nom" in " ".join(texts["Izaya"])


def test_a_night_death_never_names_its_cause_in_the_post() -> None:
    from forumbot.render import EventRenderer

    ruleset = load_ruleset("durarara")
    setup = _setup()
    day0 = resolve_phase(setup.state, [], ruleset, rng=PurposeRng(5))
    orders = [Order("Horada", "wolf_kill", ("Erika",)), Order("Celty", "death_power", ("Walker",))]
    night = resolve_phase(day0.state, orders, ruleset, rng=PurposeRng(5))
    post = EventRenderer.create(ruleset).phase_post("night1", night.events)
    assert "Erika" in post and "Walker" in post
    assert "mort(e)" in post and "Celty" not in post and "Carré" not in post.split("était")[0]
