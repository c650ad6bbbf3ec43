"""Turn resolver events into BBCode with one Jinja2 template per event kind, visibility, language.

Templates live in ``forumbot/templates/events/<lang>/<visibility>/<kind>.j2``. The phase
post is built only from public events and private messages only from the events addressed to
that player, so a secret can reach a post only if the resolver marked it public.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from forumbot.errors import ForumbotError
from resolver.model import Event, EventKind, Ruleset, Visibility
from resolver.phases import parse_phase

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "events"
FALLBACK_LANGUAGE = "en"


class RenderError(ForumbotError):
    """An event has no template in the requested language, or a template failed."""

    def __init__(self, template: str, problem: str) -> None:
        self.template = template
        self.problem = problem
        super().__init__(f"template {template}: {problem}")


@dataclass(frozen=True, slots=True)
class EventRenderer:
    """Renders events of one ruleset in one language."""

    ruleset: Ruleset
    language: str
    env: jinja2.Environment

    @classmethod
    def create(cls, ruleset: Ruleset, language: str | None = None) -> EventRenderer:
        """A renderer for ``language`` (the ruleset's first language by default)."""
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=False,  # BBCode, not HTML
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        renderer = cls(ruleset, language or ruleset.languages[0], env)
        env.globals.update(
            role_name=renderer.role_name,
            ability_name=renderer.ability_name,
            phase_name=renderer.phase_name,
            status_name=renderer.status_name,
            faction_name=renderer.faction_name,
            names=_names,
        )
        return renderer

    def role_name(self, role: str | None) -> str:
        """A role's display name."""
        found = self.ruleset.roles.get(role or "")
        return _display(found.name if found else {}, self.language, role or "?")

    def ability_name(self, ability: str) -> str:
        """An ability's display name."""
        found = self.ruleset.abilities.get(ability)
        return _display(found.name if found else {}, self.language, ability)

    def status_name(self, status: str) -> str:
        """A status's display name."""
        found = self.ruleset.statuses.get(status)
        return _display(found.name if found else {}, self.language, status)

    def faction_name(self, faction: str) -> str:
        """A faction's display name."""
        found = self.ruleset.factions.get(faction)
        return _display(found.name if found else {}, self.language, faction)

    def phase_name(self, phase: str) -> str:
        """``night2`` → ``Night 2`` (``Nuit 2``, ``Ночь 2``: the ruleset's word for the kind)."""
        try:
            parsed = parse_phase(phase, self.ruleset)
        except ValueError:
            return phase
        words = self.ruleset.phases.vocabulary.get(parsed.kind, {}).get(self.language, ())
        word = words[0] if words else parsed.kind
        return f"{word[:1].upper()}{word[1:]} {parsed.number}"

    def _select(self, *names: str) -> jinja2.Template:
        """The first template found, in this language and then in English."""
        langs = dict.fromkeys((self.language, FALLBACK_LANGUAGE))
        candidates = [f"{lang}/{name}" for lang in langs for name in names]
        try:
            return self.env.select_template(candidates)
        except jinja2.TemplatesNotFound as exc:
            raise RenderError(candidates[0], "no template for this event") from exc

    def event(self, event: Event) -> str:
        """One event as text, from its visibility's template."""
        folder = str(event.visibility)
        names = [f"{folder}/{event.kind}.j2"]
        if event.kind is EventKind.RESULT and "ability" in event.data:
            names.insert(0, f"{folder}/result_{event.data['ability']}.j2")
        if event.kind is EventKind.NOTE and "message" in event.data:
            names.insert(0, f"{folder}/note_{event.data['message']}.j2")
        if event.visibility is Visibility.GM:
            names.append(f"{folder}/_default.j2")
        template = self._select(*names)
        try:
            return template.render(
                kind=str(event.kind), data=dict(event.data), **event.data
            ).strip()
        except jinja2.TemplateError as exc:
            raise RenderError(template.name or names[0], str(exc)) from exc

    def message(self, name: str, **data: Any) -> str:
        """A runtime message to a player (``messages/<name>.j2``: receipts, reminders)."""
        template = self._select(f"messages/{name}.j2")
        try:
            return template.render(**data).strip()
        except jinja2.TemplateError as exc:
            raise RenderError(template.name or name, str(exc)) from exc

    def phase_post(self, phase: str, events: Iterable[Event]) -> str:
        """The BBCode phase post: only the phase's public events."""
        public = [e for e in events if e.visibility is Visibility.PUBLIC]
        lines = [self.event(e) for e in public]
        return (
            self._select("phase_post.j2")
            .render(phase=phase, lines=[line for line in lines if line])
            .strip()
        )

    def private_messages(self, events: Iterable[Event]) -> dict[str, list[str]]:
        """Each player's private messages, in event order."""
        out: dict[str, list[str]] = {}
        for e in events:
            if e.visibility is not Visibility.PRIVATE:
                continue
            text = self.event(e)
            for who in e.to:
                out.setdefault(who, []).append(text)
        return out

    def gm_report(self, phase: str, events: Iterable[Event]) -> str:
        """Everything, including hidden events and random draws, for the GM."""
        rendered = [(str(e.visibility), self.event(e), e.to) for e in events]
        return self._select("gm_report.j2").render(phase=phase, lines=rendered).strip()


def _display(names: Mapping[str, str], language: str, fallback: str) -> str:
    if language in names:
        return names[language]
    return next(iter(names.values()), fallback)


def _names(values: Iterable[Any]) -> str:
    items = [str(v) for v in values]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
