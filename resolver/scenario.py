"""Scripted games (scenario files): parse the data, run it phase by phase, check expectations.

The file is read by the shell (``forumbot simulate``); this module only sees the parsed
YAML, so it stays pure. The format is documented in ``docs/scenarios.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from resolver.engine import resolve_phase
from resolver.errors import ScenarioError
from resolver.model.catalogue import Ruleset
from resolver.model.events import Resolution
from resolver.model.state import GameState, Link, Order
from resolver.phases import parse_phase
from resolver.report import phase_report, setup_report
from resolver.rng import PurposeRng
from resolver.ruleset import load_ruleset
from resolver.setup import StartState, new_game

TOP_KEYS = ("ruleset", "seed", "options", "players", "start", "phases", "title", "notes", "expect")
PHASE_KEYS = ("phase", "orders", "votes", "absent", "expect", "notes")


@dataclass(frozen=True, slots=True)
class ScriptedPhase:
    """One phase of a scenario: its orders, votes and expected outcome."""

    phase: str
    orders: tuple[Order, ...] = ()
    votes: Mapping[str, str | None] = field(default_factory=dict)
    expect: Mapping[str, Any] = field(default_factory=dict)
    absent: tuple[str, ...] = ()  # players who took no part in the day (as the runtime reads)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario, ready to run."""

    ruleset: Ruleset
    seed: int
    players: Mapping[str, str]
    start: StartState
    phases: tuple[ScriptedPhase, ...]
    title: str = ""


def parse_scenario(data: Any) -> Scenario:
    """Validate parsed scenario YAML.

    Args:
        data: the mapping ``parse_yaml`` returned.

    Returns:
        The scenario.

    Raises:
        ScenarioError: a missing or unknown key, player, role, phase, status, item.
        RulesetError: the ruleset or an option is unknown or broken.
    """
    top = _mapping(data, "", TOP_KEYS, required=("ruleset", "players", "phases"))
    ruleset = load_ruleset(str(top["ruleset"]), options=_mapping(top.get("options"), "options"))
    players = {
        str(n): _role_id(ruleset, str(r), f"players.{n}")
        for n, r in _mapping(top["players"], "players").items()
    }
    start = _start(top.get("start"), players)
    phases = top["phases"]
    if not isinstance(phases, list):
        raise ScenarioError("phases", "expected a list of phases")
    parsed = tuple(_phase(ruleset, p, f"phases[{i}]", players) for i, p in enumerate(phases))
    seed = top.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScenarioError("seed", f"expected an integer, got {seed!r}")
    return Scenario(ruleset, seed, players, start, parsed, str(top.get("title", "")))


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    """Play a scenario and return the JSON-friendly report (see docs/scenarios.md)."""
    played = resolutions(scenario)
    reports = [phase_report(before, res) for before, res in played[1:]]
    return {
        "ruleset": scenario.ruleset.id,
        "seed": scenario.seed,
        "setup": setup_report(played[0][1], scenario.ruleset),
        "phases": reports,
        "winner": reports[-1]["winner"] if reports else None,
    }


def resolutions(scenario: Scenario) -> list[tuple[GameState, Resolution]]:
    """Play a scenario and return (state before, resolution) per phase, setup first."""
    setup = new_game(scenario.ruleset, scenario.players, seed=scenario.seed, start=scenario.start)
    rng = PurposeRng(scenario.seed)
    out: list[tuple[GameState, Resolution]] = [(setup.state, setup)]
    state = setup.state
    for scripted in scenario.phases:
        res = resolve_phase(
            state,
            _canonical_orders(scenario.ruleset, state, scripted.orders),
            scenario.ruleset,
            rng=rng,
            votes=scripted.votes,
            phase=scripted.phase,
            absent=scripted.absent,
        )
        out.append((state, res))
        state = res.state
    return out


def _canonical_orders(ruleset: Ruleset, state: GameState, orders: Sequence[Order]) -> list[Order]:
    """Accept an ability's display name or vocabulary word where the id is unambiguous."""
    out = []
    for order in orders:
        if order.ability in ruleset.abilities or order.actor not in {p.name for p in state.players}:
            out.append(order)
            continue
        role = ruleset.roles[state.player(order.actor).role]
        word = order.ability.lower().replace("_", " ")
        found = [
            a.id
            for a in role.abilities.values()
            if word in (w.lower() for ws in a.vocabulary.values() for w in ws)
        ]
        if len(found) == 1:
            order = Order(order.actor, found[0], order.targets, order.params)
        out.append(order)
    return out


def _mapping(
    value: Any, path: str, keys: Sequence[str] | None = None, *, required: Sequence[str] = ()
) -> Mapping[str, Any]:
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise ScenarioError(path or "(top)", f"expected a mapping, got {type(value).__name__}")
    for key in required:
        if key not in value:
            raise ScenarioError(f"{path}.{key}".lstrip("."), "missing required key")
    if keys is not None:
        for key in value:
            if key not in keys:
                raise ScenarioError(f"{path}.{key}".lstrip("."), "unknown key", keys)
    return value


def _role_id(ruleset: Ruleset, text: str, path: str) -> str:
    key = text.strip().lower().replace(" ", "_").replace("-", "_")
    if key in ruleset.roles or key in ruleset.aliases.get("roles", {}):
        return ruleset.role_of(key).id
    for role in ruleset.roles.values():
        names = [n.lower() for n in role.name.values()]
        names += [w.lower() for ws in role.vocabulary.values() for w in ws]
        if text.strip().lower() in names:
            return role.id
    raise ScenarioError(path, f"unknown role {text!r}", sorted(ruleset.roles))


def _start(raw: Any, players: Mapping[str, str]) -> StartState:
    start = _mapping(raw, "start", ("statuses", "uses", "items", "links"))
    for section in ("statuses", "uses", "items"):
        for name in _mapping(start.get(section), f"start.{section}"):
            _player(name, players, f"start.{section}.{name}")
    items = {}
    for name, held in _mapping(start.get("items"), "start.items").items():
        items[name] = {str(i): 1 for i in held} if isinstance(held, list) else dict(held)
    statuses = {n: tuple(v) for n, v in _mapping(start.get("statuses"), "start.statuses").items()}
    uses = {n: dict(v) for n, v in _mapping(start.get("uses"), "start.uses").items()}
    links = []
    for a, b in _mapping(start.get("links"), "start.links").items():
        _player(a, players, f"start.links.{a}")
        _player(str(b), players, f"start.links.{a}")
        links.append(Link("rival", a, str(b)))
    return StartState(statuses, uses, items, tuple(links))


def _player(name: str, players: Mapping[str, str], path: str) -> str:
    if name not in players:
        raise ScenarioError(path, f"unknown player {name!r}", players)
    return name


def _phase(ruleset: Ruleset, raw: Any, path: str, players: Mapping[str, str]) -> ScriptedPhase:
    raw = _mapping(raw, path, PHASE_KEYS, required=("phase",))
    try:
        phase = parse_phase(str(raw["phase"]), ruleset).id
    except ValueError:
        raise ScenarioError(
            f"{path}.phase",
            f"not a phase: {raw['phase']!r}",
            [f"{k}N" for k in ruleset.phases.kinds],
        ) from None
    orders = []
    for i, o in enumerate(raw.get("orders") or []):
        o = _mapping(
            o,
            f"{path}.orders[{i}]",
            ("actor", "ability", "targets", "params"),
            required=("actor", "ability"),
        )
        targets = o.get("targets") or []
        targets = [targets] if isinstance(targets, str) else targets
        orders.append(
            Order(
                str(o["actor"]),
                str(o["ability"]),
                tuple(str(t) for t in targets),
                dict(o.get("params") or {}),
            )
        )
    votes = {
        str(v): (None if t in (None, "", "no_lynch") else str(t))
        for v, t in _mapping(raw.get("votes"), f"{path}.votes").items()
    }
    absent = raw.get("absent") or []
    if not isinstance(absent, list):
        raise ScenarioError(f"{path}.absent", "expected a list of player names")
    away = tuple(_player(str(a), players, f"{path}.absent") for a in absent)
    expect = _mapping(raw.get("expect"), f"{path}.expect")
    return ScriptedPhase(phase, tuple(orders), votes, expect, away)


__all__ = ["Scenario", "ScriptedPhase", "parse_scenario", "resolutions", "run_scenario"]
