"""Load and validate ruleset files (``resolver/rulesets/<id>.yaml``) into a frozen ``Ruleset``."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from resolver import _catalogue_reader as cat
from resolver._schema import Reader, deep_freeze, frozen, join
from resolver.errors import RulesetError
from resolver.model.catalogue import (
    OptionDef,
    PhaseSettings,
    Ruleset,
    Succession,
    VoteSettings,
)
from resolver.votes import read_vote

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster


def parse_yaml(text: str) -> Any:
    """The project's one YAML reader (rulesets, game files, scenarios, SETUP files): safe
    (plain data only), with libyaml when it is installed.

    Raises:
        yaml.YAMLError: the text is not valid YAML.
    """
    return yaml.load(text, Loader=_LOADER)


RULESETS_DIR = Path(str(resources.files("resolver") / "rulesets"))
"""Where ruleset ids are looked up (``failheap`` → ``resolver/rulesets/failheap.yaml``), shipped as
package data so an installed wheel finds them."""

TOP_REQUIRED = ("id", "languages", "phases", "factions", "abilities", "roles", "order", "vote")
TOP_OPTIONAL = (
    "title",
    "source",
    "statuses",
    "items",
    "options",
    "win",
    "hooks",
    "protection_precedence",
    "succession",
    "aliases",
)


def load_ruleset(
    path_or_id: str | Path,
    *,
    options: Mapping[str, Any] | None = None,
    search_dir: Path = RULESETS_DIR,
) -> Ruleset:
    """Load, validate and freeze a ruleset.

    Args:
        path_or_id: a YAML file path, or a ruleset id looked up in ``search_dir``.
        options: option values chosen for one game (validated against the ruleset's).
        search_dir: the folder ids are looked up in.

    Returns:
        The validated ``Ruleset``.

    Raises:
        RulesetError: the file is missing, is not YAML, or breaks the schema; the message
            names the file, the key path and the valid choices.
    """
    path = Path(path_or_id)
    if path.suffix not in (".yaml", ".yml"):
        path = search_dir / f"{path_or_id}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in search_dir.glob("*.yaml"))
        raise RulesetError(str(path_or_id), "", "no such ruleset", known)
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise RulesetError(str(path), "", f"not valid YAML: {exc}") from exc
    ruleset = ruleset_from_data(data, str(path), options=options)
    if ruleset.id != path.stem:
        raise RulesetError(str(path), "id", f"id {ruleset.id!r} differs from the file name")
    return ruleset


def ruleset_from_data(
    data: Any, source: str, *, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """Validate already-parsed YAML data and build the ``Ruleset``.

    Args:
        data: the mapping ``parse_yaml`` returned.
        source: the file name used in error messages.
        options: option values chosen for one game.

    Returns:
        The validated ``Ruleset``.

    Raises:
        RulesetError: the data breaks the schema.
    """
    r = Reader(source)
    top = r.mapping(data, "", required=TOP_REQUIRED, optional=TOP_OPTIONAL)
    languages = r.idents(top["languages"], "languages")
    if not languages:
        raise r.fail("languages", "at least one language is required")
    phases = _phases(r, top["phases"], languages)
    order = _order(r, top["order"], phases.kinds)
    opts = _options(r, top.get("options"), options or {}, order)
    values = {k: o.value for k, o in opts.items()}
    factions = cat.factions(r, top["factions"], languages)
    statuses = cat.statuses(r, top.get("statuses"), languages, values)
    steps = {kind: set(order.get(kind, ())) for kind in phases.kinds}
    abilities = cat.abilities(r, top["abilities"], languages, phases.kinds, steps, values)
    items = cat.items(r, top.get("items"), languages, abilities)
    roles = cat.roles(r, top["roles"], languages, factions, abilities, items, statuses, values)
    return Ruleset(
        id=r.ident(top["id"], "id"),
        title=r.names(top.get("title"), "title", languages),
        languages=languages,
        source=str(top.get("source", "")),
        phases=phases,
        factions=factions,
        statuses=statuses,
        items=items,
        abilities=abilities,
        roles=roles,
        order=frozen(order),
        vote=_vote(r, top["vote"], top.get("statuses")),
        options=frozen(opts),
        win=_win(r, top.get("win"), values),
        hooks=_hooks(r, top.get("hooks")),
        protection_precedence=r.strings(top.get("protection_precedence"), "protection_precedence"),
        succession=_succession(r, top.get("succession"), roles, values),
        aliases=_aliases(r, top.get("aliases"), roles, abilities),
        path=source,
        holders=_holders(roles),
    )


def _holders(roles: Mapping[str, Any]) -> Mapping[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for role in roles.values():
        for ability in role.abilities:
            out.setdefault(ability, []).append(role.id)
    return frozen({k: tuple(v) for k, v in out.items()})


def _phases(r: Reader, raw: Any, languages: tuple[str, ...]) -> PhaseSettings:
    raw = r.mapping(raw, "phases", required=("kinds", "first"), optional=("vocabulary",))
    kinds = r.idents(raw["kinds"], "phases.kinds")
    if not kinds:
        raise r.fail("phases.kinds", "at least one phase kind is required")
    first = r.text(raw["first"], "phases.first")
    if not any(first.startswith(k) and first[len(k) :].isdigit() for k in kinds):
        raise r.fail("phases.first", f"{first!r} is not <kind><number>", kinds)
    vocab_raw = r.mapping(raw.get("vocabulary"), "phases.vocabulary", optional=kinds)
    vocab = {
        kind: r.vocabulary(words, join("phases.vocabulary", kind), languages)
        for kind, words in vocab_raw.items()
    }
    return PhaseSettings(kinds=kinds, first=first, vocabulary=frozen(vocab))


def _order(r: Reader, raw: Any, kinds: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    raw = r.mapping(raw, "order", optional=kinds)
    out = {}
    for kind, steps in raw.items():
        names = r.strings(steps, join("order", kind))
        for i, step in enumerate(names):
            r.ident(step, f"order.{kind}[{i}]")
        if len(set(names)) != len(names):
            raise r.fail(join("order", kind), "a step is listed twice")
        out[kind] = names
    return out


def _vote(r: Reader, raw: Any, statuses: Any) -> VoteSettings:
    """The ``vote:`` section, validated once by the one vote schema (``resolver.votes``)."""
    names = tuple(statuses) if isinstance(statuses, Mapping) else ()
    return vote_settings(read_vote(r, raw, names))


_VOTE_FIELDS = ("channel", "rule", "tie", "no_vote_counts_as_self", "self_vote", "edited_votes",
                "multi_recipient_pm", "syntax")  # fmt: skip


def vote_settings(section: Mapping[str, Any]) -> VoteSettings:
    """The typed ``vote:`` of a validated section (a ruleset's, or a game's laid over it)."""
    return VoteSettings(**{k: section[k] for k in _VOTE_FIELDS}, section=deep_freeze(section))


def _options(
    r: Reader, raw: Any, chosen: Mapping[str, Any], order: Mapping[str, tuple[str, ...]]
) -> dict[str, OptionDef]:
    raw = r.mapping(raw, "options")
    out = {}
    for name, spec in raw.items():
        path = join("options", r.ident(name, f"options.{name}"))
        spec = r.mapping(spec, path, required=("default", "doc"), optional=("choices",))
        choices = tuple(deep_freeze(c) for c in spec.get("choices") or ())
        default = deep_freeze(spec["default"])
        _check_option_value(r, path + ".default", default, choices, default, order, name)
        out[name] = OptionDef(name, default, default, r.text(spec["doc"], path + ".doc"), choices)
    for name, value in chosen.items():
        if name not in out:
            raise r.fail(f"options.{name}", "unknown option", sorted(out))
        value = deep_freeze(value)
        _check_option_value(
            r, f"options.{name}", value, out[name].choices, out[name].default, order, name
        )
        old = out[name]
        out[name] = OptionDef(name, old.default, value, old.doc, old.choices)
    return out


def _check_option_value(
    r: Reader,
    path: str,
    value: Any,
    choices: tuple[Any, ...],
    default: Any,
    order: Mapping[str, tuple[str, ...]],
    name: str,
) -> None:
    if choices and value not in choices:
        raise r.fail(path, f"value {value!r} is not allowed", choices)
    if not isinstance(value, type(default)) and not (
        isinstance(default, int | float) and isinstance(value, int | float)
    ):
        raise r.fail(path, f"expected a {type(default).__name__}, got {value!r}")
    kind = name.removeprefix("order_")
    if name.startswith("order_") and kind in order and sorted(value) != sorted(order[kind]):
        raise r.fail(path, "must list exactly the steps of order." + kind, order[kind])


def _win(r: Reader, raw: Any, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """``win:`` is free data read by the chosen check; the check and its tie table are checked."""
    from resolver.win import WIN_CHECKS

    win: Mapping[str, Any] = cat.resolve_options(r, r.mapping(raw, "win"), "win", values)
    if "check" in win:
        r.choice(win["check"], "win.check", sorted(WIN_CHECKS))
    rows = win.get("tie_table", ())
    if not isinstance(rows, tuple):
        raise r.fail("win.tie_table", "expected a list of {classes: [a, b], winner: ...}")
    for i, row in enumerate(rows):
        path = f"win.tie_table[{i}]"
        row = r.mapping(row, path, required=("classes", "winner"), optional=())
        classes = r.idents(row["classes"], path + ".classes")
        if len(classes) != 2:
            raise r.fail(path + ".classes", "a tie is between exactly two classes")
        r.choice(row["winner"], path + ".winner", (*classes, "both", "none"))
    return win


def _hooks(r: Reader, raw: Any) -> str | None:
    if raw is None:
        return None
    from resolver.hooks import HOOKS  # local: hooks import the engine, which imports us

    return r.choice(raw, "hooks", sorted(HOOKS))


def _succession(
    r: Reader, raw: Any, roles: Mapping[str, Any], values: Mapping[str, Any]
) -> tuple[Succession, ...]:
    """``{role: [heirs]}`` or ``{role: {heirs: [...], keeps_abilities: bool}}``."""
    raw = r.mapping(raw, "succession", optional=roles)
    out = []
    for role, spec in raw.items():
        path = join("succession", role)
        if isinstance(spec, Mapping):
            spec = cat.resolve_options(r, spec, path, values)
            spec = r.mapping(spec, path, required=("heirs",), optional=("keeps_abilities",))
            keeps = r.boolean(spec.get("keeps_abilities", False), path + ".keeps_abilities")
            out.append(Succession(role, r.idents(spec["heirs"], path + ".heirs", roles), keeps))
        else:
            out.append(Succession(role, r.idents(spec, path, roles)))
    return tuple(out)


def _aliases(
    r: Reader, raw: Any, roles: Mapping[str, Any], abilities: Mapping[str, Any]
) -> Mapping[str, Mapping[str, str]]:
    raw = r.mapping(raw, "aliases", optional=("roles", "abilities"))
    out = {}
    for section, known in (("roles", roles), ("abilities", abilities)):
        table = r.mapping(raw.get(section), join("aliases", section))
        for old, new in table.items():
            r.choice(new, f"aliases.{section}.{old}", sorted(known))
        out[section] = frozen(table)
    return frozen(out)
