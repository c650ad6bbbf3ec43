"""Readers for the catalogue sections of a ruleset: factions, statuses, items, abilities, roles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver._schema import Reader, deep_freeze, frozen, join
from resolver.model.catalogue import (
    ANY_PHASE,
    Ability,
    Effect,
    Faction,
    Immunity,
    ItemDef,
    ParamSpec,
    Role,
    StatusDef,
    TargetKind,
    TargetSpec,
)

ABILITY_KEYS = (
    "name",
    "phases",
    "not_on",
    "uses",
    "per_phase",
    "targets",
    "params",
    "priority",
    "effect",
    "effect_params",
    "visits",
    "passive",
    "vocabulary",
    "notes",
    "requires",
    "tags",
)
OVERRIDE_KEYS = ("uses", "phases", "not_on", "per_phase", "effect_params", "visits", "targets")
ROLE_KEYS = (
    "name",
    "abilities",
    "appears",
    "immune",
    "vocabulary",
    "notes",
    "tags",
    "team",
    "tie_class",
    "start",
    "reactions",
    "win",
)
STATUS_EFFECTS = (
    "appears",
    "immune_to",
    "vote_weight",
    "unprotectable",
    "lynch_immune",
    "hides_role_on_death",
    "reveal_role_to_source",
    "retaliate",
    "public",
    "protects",
    "blocks_actions",
    "targets_fail",
)
VISIBLE_TO = ("gm", "self", "public", "source", "faction")
REQUIRES = ("status_exists", "own_status_exists", "dead_exists")


def factions(r: Reader, raw: Any, languages: tuple[str, ...]) -> Mapping[str, Faction]:
    """Read ``factions:``."""
    raw = r.mapping(raw, "factions")
    out = {}
    keys = ("name", "win", "params", "enemies", "knows_members")
    for fid, spec in raw.items():
        path = join("factions", r.ident(fid, f"factions.{fid}"))
        spec = r.mapping(spec, path, optional=keys)
        out[fid] = Faction(
            id=fid,
            name=r.names(spec.get("name"), path + ".name", languages),
            win=r.ident(spec.get("win", "all_enemies_dead"), path + ".win"),
            win_params=deep_freeze(r.mapping(spec.get("params"), path + ".params")),
            enemies=r.strings(spec.get("enemies"), path + ".enemies"),
            knows_members=r.boolean(spec.get("knows_members", False), path + ".knows_members"),
        )
    for fid, faction in out.items():
        r.idents(faction.enemies, f"factions.{fid}.enemies", out)
    return frozen(out)


def statuses(
    r: Reader, raw: Any, languages: tuple[str, ...], options: Mapping[str, Any]
) -> Mapping[str, StatusDef]:
    """Read ``statuses:``."""
    raw = r.mapping(raw, "statuses")
    out = {}
    for sid, spec in raw.items():
        path = join("statuses", r.ident(sid, f"statuses.{sid}"))
        spec = r.mapping(spec, path, optional=("name", "visible_to", "lasts", "effects"))
        lasts = _resolve_options(r, spec.get("lasts", "game"), path + ".lasts", options)
        if not isinstance(lasts, int):
            r.choice(lasts, path + ".lasts", ("phase", "night", "day", "game"))
        effects = r.mapping(spec.get("effects"), path + ".effects", optional=STATUS_EFFECTS)
        effects = _resolve_options(r, effects, path + ".effects", options)
        out[sid] = StatusDef(
            id=sid,
            name=r.names(spec.get("name"), path + ".name", languages),
            visible_to=r.idents(spec.get("visible_to", ["gm"]), path + ".visible_to", VISIBLE_TO),
            lasts=lasts,
            effects=deep_freeze(effects),
        )
    return frozen(out)


def items(
    r: Reader, raw: Any, languages: tuple[str, ...], abilities: Mapping[str, Ability]
) -> Mapping[str, ItemDef]:
    """Read ``items:``."""
    raw = r.mapping(raw, "items")
    out = {}
    keys = ("name", "effect", "uses", "ability", "vocabulary")
    for iid, spec in raw.items():
        path = join("items", r.ident(iid, f"items.{iid}"))
        spec = r.mapping(spec, path, optional=keys)
        ability = spec.get("ability")
        if ability is not None:
            r.choice(ability, path + ".ability", sorted(abilities))
        out[iid] = ItemDef(
            id=iid,
            name=r.names(spec.get("name"), path + ".name", languages),
            effect=Effect(r.choice(spec.get("effect", "none"), path + ".effect", list(Effect))),
            uses=r.count(spec.get("uses", 1), path + ".uses"),
            ability=ability,
            vocabulary=_item_vocabulary(r, spec, path, languages),
        )
    return frozen(out)


def _item_vocabulary(
    r: Reader, spec: Mapping[str, Any], path: str, languages: tuple[str, ...]
) -> Mapping[str, tuple[str, ...]]:
    words: dict[str, tuple[str, ...]] = {}
    names = r.mapping(spec.get("name"), path + ".name", optional=languages)
    for lang, name in names.items():
        words[lang] = r.strings(name, f"{path}.name.{lang}")
    for lang, extra in r.vocabulary(
        spec.get("vocabulary"), path + ".vocabulary", languages
    ).items():
        words[lang] = words.get(lang, ()) + extra
    return frozen(words)


def abilities(
    r: Reader,
    raw: Any,
    languages: tuple[str, ...],
    kinds: tuple[str, ...],
    steps: Mapping[str, set[str]],
    options: Mapping[str, Any],
) -> Mapping[str, Ability]:
    """Read ``abilities:``; priorities must name a step of ``order``."""
    raw = r.mapping(raw, "abilities")
    out = {}
    for aid, spec in raw.items():
        path = join("abilities", r.ident(aid, f"abilities.{aid}"))
        spec = _resolve_options(r, r.mapping(spec, path, optional=ABILITY_KEYS), path, options)
        passive = r.boolean(spec.get("passive", False), path + ".passive")
        priority = spec.get("priority", "other")
        phases = _phase_set(r, spec.get("phases", ["night"]), path + ".phases", kinds)
        if not passive or "priority" in spec:
            _check_priority(r, priority, path + ".priority", phases, steps)
        out[aid] = Ability(
            id=aid,
            name=r.names(spec.get("name"), path + ".name", languages),
            phases=phases,
            not_on=frozenset(r.strings(spec.get("not_on"), path + ".not_on")),
            uses=r.count(spec.get("uses"), path + ".uses"),
            per_phase=r.count(spec.get("per_phase", 1), path + ".per_phase", allow_null=False) or 1,
            targets=_targets(r, spec.get("targets"), path + ".targets"),
            params=_params(r, spec.get("params"), path + ".params"),
            priority=priority,
            effect=Effect(r.choice(spec.get("effect", "none"), path + ".effect", list(Effect))),
            effect_params=_resolve_options(
                r, spec.get("effect_params"), path + ".effect_params", options
            ),
            visits=r.boolean(spec.get("visits", True), path + ".visits"),
            passive=passive,
            vocabulary=r.vocabulary(spec.get("vocabulary"), path + ".vocabulary", languages),
            requires=deep_freeze(
                r.mapping(spec.get("requires"), path + ".requires", optional=REQUIRES)
            ),
            tags=frozenset(r.strings(spec.get("tags"), path + ".tags")),
            notes=str(spec.get("notes", "")),
        )
    return frozen(out)


def _check_priority(
    r: Reader, priority: Any, path: str, phases: frozenset[str], steps: Mapping[str, set[str]]
) -> None:
    """The step must exist in the order of every phase kind the ability may be used in."""
    kinds = sorted(steps) if ANY_PHASE in phases else sorted(phases & set(steps))
    if not kinds:
        every = sorted({s for kind_steps in steps.values() for s in kind_steps})
        r.choice(priority, path, every)
    for kind in kinds:
        if priority not in steps[kind]:
            raise r.fail(path, f"step {priority!r} is not in order.{kind}", sorted(steps[kind]))


def _phase_set(r: Reader, raw: Any, path: str, kinds: tuple[str, ...]) -> frozenset[str]:
    return frozenset(r.idents(raw, path, (*kinds, ANY_PHASE)))


def _targets(r: Reader, raw: Any, path: str) -> tuple[TargetSpec, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple):
        raise r.fail(path, "expected a list of target slots ([] for none)")
    out = []
    for i, slot in enumerate(raw):
        p = f"{path}[{i}]"
        slot = r.mapping(slot, p, optional=("kind", "alive", "self", "others", "optional"))
        alive = slot.get("alive", True)
        if alive is not None:
            r.boolean(alive, p + ".alive")
        out.append(
            TargetSpec(
                kind=TargetKind(
                    r.choice(slot.get("kind", "player"), p + ".kind", list(TargetKind))
                ),
                alive=alive,
                self=r.boolean(slot.get("self", False), p + ".self"),
                others=r.boolean(slot.get("others", True), p + ".others"),
                optional=r.boolean(slot.get("optional", False), p + ".optional"),
            )
        )
    return tuple(out)


def _params(r: Reader, raw: Any, path: str) -> Mapping[str, ParamSpec]:
    raw = r.mapping(raw, path)
    out = {}
    for name, spec in raw.items():
        p = join(path, r.ident(name, join(path, str(name))))
        spec = r.mapping(spec, p, optional=("kind", "optional", "choices"))
        out[name] = ParamSpec(
            name=name,
            kind=TargetKind(r.choice(spec.get("kind", "text"), p + ".kind", list(TargetKind))),
            optional=r.boolean(spec.get("optional", False), p + ".optional"),
            choices=r.strings(spec.get("choices"), p + ".choices"),
        )
    return frozen(out)


def _resolve_options(r: Reader, raw: Any, path: str, options: Mapping[str, Any]) -> Any:
    """Replace ``$option_name`` strings with the option's value (GM choices apply here)."""
    if isinstance(raw, str) and raw.startswith("$"):
        name = raw[1:]
        if name not in options:
            raise r.fail(path, f"refers to unknown option {name!r}", sorted(options))
        return deep_freeze(options[name])
    if isinstance(raw, Mapping):
        return frozen({k: _resolve_options(r, v, join(path, k), options) for k, v in raw.items()})
    if isinstance(raw, list | tuple):
        return tuple(_resolve_options(r, v, f"{path}[{i}]", options) for i, v in enumerate(raw))
    return frozen({}) if raw is None and path.endswith("effect_params") else raw


resolve_options = _resolve_options


def roles(
    r: Reader,
    raw: Any,
    languages: tuple[str, ...],
    factions_: Mapping[str, Faction],
    abilities_: Mapping[str, Ability],
    items_: Mapping[str, ItemDef],
    statuses_: Mapping[str, StatusDef],
    options: Mapping[str, Any],
) -> Mapping[str, Role]:
    """Read ``roles:``; every ability, faction, item and status must exist."""
    raw = r.mapping(raw, "roles")
    out = {}
    for rid, spec in raw.items():
        path = join("roles", r.ident(rid, f"roles.{rid}"))
        spec = r.mapping(spec, path, required=("faction",), optional=ROLE_KEYS)
        spec = _resolve_options(r, spec, path, options)
        start = r.mapping(spec.get("start"), path + ".start", optional=("items", "statuses"))
        start_items = r.mapping(start.get("items"), path + ".start.items")
        for iid, n in start_items.items():
            r.choice(iid, f"{path}.start.items.{iid}", sorted(items_))
            r.count(n, f"{path}.start.items.{iid}", allow_null=False)
        out[rid] = Role(
            id=rid,
            faction=r.choice(spec["faction"], path + ".faction", sorted(factions_)),
            name=r.names(spec.get("name"), path + ".name", languages),
            abilities=_role_abilities(r, spec.get("abilities"), path, abilities_, options),
            appears=frozen(
                {
                    str(k): str(v)
                    for k, v in r.mapping(spec.get("appears"), path + ".appears").items()
                }
            ),
            immune=_immunities(r, spec.get("immune"), path + ".immune"),
            vocabulary=r.vocabulary(spec.get("vocabulary"), path + ".vocabulary", languages),
            tags=frozenset(r.strings(spec.get("tags"), path + ".tags")),
            team=_opt_ident(r, spec.get("team"), path + ".team"),
            tie_class=_opt_ident(r, spec.get("tie_class"), path + ".tie_class"),
            start_items=frozen(start_items),
            start_statuses=r.idents(start.get("statuses"), path + ".start.statuses", statuses_),
            reactions=deep_freeze(
                r.mapping(spec.get("reactions"), path + ".reactions", optional=("blocked",))
            ),
            win=_opt_ident(r, spec.get("win"), path + ".win"),
            notes=str(spec.get("notes", "")),
        )
    return frozen(out)


def _opt_ident(r: Reader, raw: Any, path: str) -> str | None:
    return None if raw is None else r.ident(raw, path)


def _role_abilities(
    r: Reader,
    raw: Any,
    path: str,
    abilities_: Mapping[str, Ability],
    options: Mapping[str, Any],
) -> Mapping[str, Ability]:
    if raw is None:
        return frozen({})
    if not isinstance(raw, list | tuple):
        raise r.fail(path + ".abilities", "expected a list of ability ids or {id: ...} overrides")
    out = {}
    for i, entry in enumerate(raw):
        p = f"{path}.abilities[{i}]"
        if isinstance(entry, str):
            out[entry] = abilities_[r.choice(entry, p, sorted(abilities_))]
            continue
        entry = r.mapping(entry, p, required=("id",), optional=OVERRIDE_KEYS)
        base = abilities_[r.choice(entry["id"], p + ".id", sorted(abilities_))]
        out[base.id] = base.with_overrides(**_overrides(r, entry, p, base, options))
    return frozen(out)


def _overrides(
    r: Reader, entry: Mapping[str, Any], p: str, base: Ability, options: Mapping[str, Any]
) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if "uses" in entry:
        changes["uses"] = r.count(
            _resolve_options(r, entry["uses"], p + ".uses", options), p + ".uses"
        )
    if "per_phase" in entry:
        changes["per_phase"] = r.count(entry["per_phase"], p + ".per_phase", allow_null=False)
    if "phases" in entry:
        changes["phases"] = frozenset(r.strings(entry["phases"], p + ".phases"))
    if "not_on" in entry:
        changes["not_on"] = frozenset(r.strings(entry["not_on"], p + ".not_on"))
    if "visits" in entry:
        changes["visits"] = r.boolean(entry["visits"], p + ".visits")
    if "targets" in entry:
        changes["targets"] = _targets(r, entry["targets"], p + ".targets")
    if "effect_params" in entry:
        extra = _resolve_options(r, entry["effect_params"], p + ".effect_params", options)
        changes["effect_params"] = frozen({**base.effect_params, **extra})
    return changes


def _immunities(r: Reader, raw: Any, path: str) -> tuple[Immunity, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple):
        raise r.fail(path, "expected a list of attack kinds or {kinds: [...]} entries")
    out = []
    for i, entry in enumerate(raw):
        p = f"{path}[{i}]"
        if isinstance(entry, str):
            out.append(Immunity(frozenset({entry})))
            continue
        entry = r.mapping(entry, p, required=("kinds",), optional=("while_alive_tag", "pierceable"))
        out.append(
            Immunity(
                kinds=frozenset(r.strings(entry["kinds"], p + ".kinds")),
                while_alive_tag=entry.get("while_alive_tag"),
                pierceable=r.boolean(entry.get("pierceable", True), p + ".pierceable"),
            )
        )
    return tuple(out)
