"""A rules reference (Markdown) generated from a ruleset, so the docs cannot drift from data."""

from __future__ import annotations

from collections.abc import Mapping

from resolver.model.catalogue import Ability, Role, Ruleset


def ruleset_reference(ruleset: Ruleset, language: str | None = None) -> str:
    """Markdown tables of the ruleset's roles and abilities.

    Args:
        ruleset: the ruleset.
        language: the language of names and vocabulary (default: the ruleset's first).

    Returns:
        The Markdown text (roles table, then abilities table).
    """
    lang = language or ruleset.languages[0]
    lines = ["| role | faction | abilities | appears | notes |", "|---|---|---|---|---|"]
    lines += [_role_row(ruleset, role, lang) for role in ruleset.roles.values()]
    lines += [
        "",
        "| ability | phases | uses | targets | step | effect | visits | words |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [_ability_row(ability, lang) for ability in ruleset.abilities.values()]
    return "\n".join(lines) + "\n"


def _name(names: Mapping[str, str], fallback: str, lang: str) -> str:
    return names.get(lang) or next(iter(names.values()), fallback)


def _role_row(ruleset: Ruleset, role: Role, lang: str) -> str:
    faction = ruleset.factions[role.faction]
    abilities = ", ".join(f"`{a}`" for a in role.abilities) or "—"
    appears = ", ".join(f"{k}: {v}" for k, v in role.appears.items()) or "—"
    notes = role.notes.replace("|", "/") or ""
    return (
        f"| {_name(role.name, role.id, lang)} (`{role.id}`) | "
        f"{_name(faction.name, faction.id, lang)} | {abilities} | {appears} | {notes} |"
    )


def _ability_row(ability: Ability, lang: str) -> str:
    phases = ", ".join(sorted(ability.phases))
    if ability.not_on:
        phases += f" (not {', '.join(sorted(ability.not_on))})"
    uses = "∞" if ability.uses is None else str(ability.uses)
    targets = (
        ", ".join(
            f"{t.kind}{'' if t.alive is not False else ' (dead)'}{' or self' if t.self else ''}"
            f"{' (optional)' if t.optional else ''}"
            for t in ability.targets
        )
        or "—"
    )
    words = ", ".join(ability.vocabulary.get(lang, ())[:4])
    visits = "yes" if ability.visits else "no"
    return (
        f"| {_name(ability.name, ability.id, lang)} (`{ability.id}`) | {phases} | {uses} | "
        f"{targets} | {ability.priority} | {ability.effect} | {visits} | {words} |"
    )
