"""Event rendering: a template for every event kind and visibility; every scenario renders."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from forumbot.render import EventRenderer
from forumbot.render.events import TEMPLATES
from resolver.model import Event, EventKind, Visibility
from resolver.model.catalogue import Ruleset
from resolver.scenario import parse_scenario, resolutions
from tests.resolver.factories import failheap

GAMES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
PUBLIC = {
    EventKind.DEATH,
    EventKind.LYNCH,
    EventKind.NO_LYNCH,
    EventKind.VOTE_TALLY,
    EventKind.REVEALED,
    EventKind.GAME_OVER,
    EventKind.NOTE,
}
PRIVATE = {
    EventKind.RESULT,
    EventKind.BLOCKED_NOTICE,
    EventKind.SAVED,
    EventKind.PROTECTED,
    EventKind.CONVERTED,
    EventKind.ROLE_ASSIGNED,
    EventKind.TEAMMATES,
    EventKind.LINKED,
    EventKind.NOTE,
}


@functools.cache
def played(path: Path) -> tuple[Ruleset, tuple[tuple[str, tuple[Event, ...]], ...]]:
    """A scenario's ruleset and (phase, events) of each resolution, setup first. Played once
    per session: the resolver is pure (``test_purity``) and events are frozen, so the five
    tests that render every scenario share one play of each instead of five."""
    scenario = parse_scenario(yaml.safe_load(path.read_text(encoding="utf-8")))
    phases = tuple(
        (res.state.phase or "setup", tuple(res.events)) for _, res in resolutions(scenario)
    )
    return scenario.ruleset, phases


@pytest.mark.parametrize(("visibility", "kinds"), [("public", PUBLIC), ("private", PRIVATE)])
def test_every_player_facing_kind_has_an_english_template(visibility: str, kinds: set) -> None:
    for kind in kinds:
        assert (TEMPLATES / "en" / visibility / f"{kind}.j2").is_file(), kind


def test_gm_report_has_a_fallback() -> None:
    assert (TEMPLATES / "en" / "gm" / "_default.j2").is_file()


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_scenario_renders(path: Path) -> None:
    ruleset, phases = played(path)
    renderer = EventRenderer.create(ruleset)
    for phase, events in phases:
        post = renderer.phase_post(phase, events)
        assert post.startswith("[b]")
        renderer.private_messages(events)
        report = renderer.gm_report(phase, events)
        for event in events:
            if event.kind is EventKind.DRAW:
                assert event.data["purpose"] in report


def test_cleaned_death_hides_the_role() -> None:
    renderer = EventRenderer.create(failheap())
    event = Event(
        EventKind.DEATH, Visibility.PUBLIC, {"player": "Sam", "role": None, "cause": "killed"}
    )
    assert renderer.event(event) == "[b]Sam[/b] was found dead. Sam's role could not be determined."


@pytest.mark.parametrize("language", ["fr", "ru"])
@pytest.mark.parametrize(("visibility", "kinds"), [("public", PUBLIC), ("private", PRIVATE)])
def test_french_and_russian_templates(language: str, visibility: str, kinds: set) -> None:
    """Every player-facing event the scenarios produce renders from the language's own template."""
    seen: set[EventKind] = set()
    for path in sorted(GAMES.glob("*.yaml")):
        ruleset, phases = played(path)
        renderer = EventRenderer.create(ruleset, language)
        for _, events in phases:
            for event in events:
                if str(event.visibility) != visibility or event.kind not in kinds:
                    continue
                name = renderer._select(f"{visibility}/{event.kind}.j2").name or ""
                assert name.startswith(f"{language}/"), (path.stem, event.kind, name)
                assert renderer.event(event), (path.stem, event.kind)
                seen.add(event.kind)
    assert seen, "no scenario produced such an event"
    for kind in kinds - seen:  # kinds no scenario produces: the template must still exist
        assert (TEMPLATES / language / visibility / f"{kind}.j2").is_file(), (language, kind)


@pytest.mark.parametrize(
    ("ruleset", "language", "word"), [("durarara", "fr", "Nuit 1"), ("ru_mafia", "ru", "Ночь 1")]
)
def test_other_languages_render_with_english_fallback_for_gm(ruleset, language, word) -> None:
    from resolver.ruleset import load_ruleset

    renderer = EventRenderer.create(load_ruleset(ruleset), language)
    events = [
        Event(
            EventKind.DEATH, Visibility.PUBLIC, {"player": "Ann", "role": None, "cause": "killed"}
        ),
        Event(EventKind.DRAW, Visibility.GM, {"purpose": "p", "options": ["a"], "pick": "a"}),
    ]
    assert renderer.phase_post("night1", events).startswith("[b]")
    assert word in renderer.phase_post("night1", events)
    assert "Random draw" in renderer.gm_report("night1", events)
