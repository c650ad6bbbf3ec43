"""``forumbot parse-order``: turn one PM's free text (on stdin) into structured orders."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
import yaml

from forumbot.commands._common import clean_errors, echo_json
from forumbot.errors import ConfigError
from parsers.orders import Learned, ParseResult, history_from_data, parse_order
from parsers.phases import parse_phase
from parsers.roster import SetupError, roster_from_data
from resolver.ruleset import load_ruleset, parse_yaml


def run_parse_order(
    ruleset: str, setup_path: str, actor: str, phase: str, text: str, recipients: list[str]
) -> ParseResult:
    """Load the ruleset and the SETUP file, then parse ``text`` as ``actor``'s PM.

    SETUP keys read here besides the roster: ``uses: {Player: {ability: n}}``,
    ``items: {Player: [item]}``, ``learned: {names: {...}, abilities: {...}}`` and
    ``history: {orders: [...], handoffs: [...], sent_at: ...}`` (docs/orders.md): the same
    inputs the runtime gives the parser, so the command answers as the runtime would.
    Without ``history`` the history is unknown and rules that look back queue the order.

    Raises:
        ConfigError: the SETUP file is missing or malformed.
    """
    try:
        data = parse_yaml(Path(setup_path).read_text(encoding="utf-8")) or {}
        roster = roster_from_data(data)
        history = history_from_data(data["history"]) if "history" in data else None
    except (OSError, yaml.YAMLError, SetupError) as exc:
        raise ConfigError("setup", str(exc), setup_path) from exc
    slot = roster.by_author(actor)
    name = slot.name if slot else actor
    learned = data.get("learned") or {}
    return parse_order(
        text,
        ruleset=load_ruleset(ruleset),
        roster=roster,
        actor=actor,
        phase=phase,
        learned=Learned(learned.get("names") or {}, learned.get("abilities") or {}),
        recipients=recipients or None,
        uses_left=_per_player(data.get("uses"), name, {}),
        items=tuple(_per_player(data.get("items"), name, [])),
        history=history,
    )


def _per_player(table: Any, name: str, default: Any) -> Any:
    return table.get(name, default) if isinstance(table, Mapping) else default


@click.command(name="parse-order")
@click.option("--ruleset", required=True, help="Ruleset name, e.g. failheap.")
@click.option("--setup", "setup_path", required=True, type=click.Path(dir_okay=False))
@click.option("--actor", required=True, help="The player who sent the PM.")
@click.option("--phase", required=True, help="The phase the order is for, e.g. night2.")
@click.option("--recipients", default="", help="Every recipient of the PM, comma-separated.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def parse_order_command(
    ruleset: str, setup_path: str, actor: str, phase: str, recipients: str, as_json: bool
) -> None:
    """Parse an order PM read from standard input."""
    names = [r.strip() for r in recipients.split(",") if r.strip()]
    try:
        parse_phase(phase)
    except ValueError as exc:
        raise ConfigError("phase", str(exc)) from exc
    result = run_parse_order(ruleset, setup_path, actor, phase, sys.stdin.read(), names)
    if as_json:
        echo_json(result.as_json())
    else:
        click.echo(f"{result.status}: {result.reason}")


COMMANDS: tuple[click.Command, ...] = (parse_order_command,)
