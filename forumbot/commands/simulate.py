"""``forumbot simulate``: resolve a scripted game and print every phase's outcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import yaml

from forumbot.commands._common import clean_errors, echo_json
from forumbot.render import EventRenderer
from resolver.errors import ScenarioError
from resolver.ruleset import parse_yaml
from resolver.scenario import Scenario, parse_scenario, resolutions, run_scenario


@click.command(name="simulate")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the stable contract).")
@click.option("--gm", "gm_report", is_flag=True, help="Also print the GM report of each phase.")
@clean_errors
def simulate(scenario: str, as_json: bool, gm_report: bool) -> None:
    """Resolve a scenario file phase by phase (format: docs/scenarios.md)."""
    parsed = load_scenario(Path(scenario))
    if as_json:
        echo_json(simulate_json(parsed))
    else:
        click.echo(simulate_text(parsed, gm=gm_report))


def load_scenario(path: Path) -> Scenario:
    """Read and validate a scenario file; errors name the file and the key path."""
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(str(path), f"cannot read the file: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ScenarioError(str(path), f"not valid YAML: {exc}") from exc
    return parse_scenario(data)


def simulate_json(scenario: Scenario) -> dict[str, Any]:
    """The JSON report: setup, then per phase (phase, dead, lynched, rejected, public,
    private, gm, state, winner), then the final winner."""
    return run_scenario(scenario)


def simulate_text(scenario: Scenario, *, gm: bool = False) -> str:
    """The role PMs, then per phase the rendered post and private messages (and GM report)."""
    renderer = EventRenderer.create(scenario.ruleset)
    out = _options_text(scenario) if gm else []
    played = resolutions(scenario)
    out.append("===== Setup =====")
    out += _pms(renderer, played[0][1].events)
    for _before, res in played[1:]:
        phase = res.state.phase or ""
        out.append(f"===== {renderer.phase_name(phase)} =====")
        out.append(renderer.phase_post(phase, res.events))
        out += _pms(renderer, res.events)
        if gm:
            out.append(renderer.gm_report(phase, res.events))
    return "\n".join(out)


def _pms(renderer: EventRenderer, events: Any) -> list[str]:
    out = []
    for who, messages in renderer.private_messages(events).items():
        out.append(f"--- PM to {who} ---")
        out.extend(messages)
    return out


def _options_text(scenario: Scenario) -> list[str]:
    out = ["===== Options in effect (GM) ====="]
    for option in scenario.ruleset.options.values():
        value, default = _show(option.value), _show(option.default)
        changed = "" if value == default else f" (default {default})"
        out.append(f"{option.id} = {value}{changed}: {option.doc}")
    return out


def _show(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple | list) else str(value)


COMMANDS: tuple[click.Command, ...] = (simulate,)
