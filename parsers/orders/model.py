"""Value types of the order parser: orders, claims, crimes, candidates and the parse result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """What the parser concluded about one PM."""

    ACCEPTED = "accepted"
    AMBIGUOUS = "ambiguous"
    REJECTED = "rejected"


class Kind(StrEnum):
    """What a PM (or one order in it) is: an ability order or one of the built-in kinds."""

    ORDER = "order"
    CANCEL = "cancel"
    WILL = "will"
    VOTE = "vote"
    HANDOFF = "handoff"
    QUESTION = "question"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Crime:
    """A crime an arrest accuses someone of: ``killing Conia on Night 1``."""

    crime: str
    victim: str | None = None
    phase: str | None = None
    role: str | None = None

    def render(self) -> str:
        """Compact form used by the corpus: ``kill:Conia:night1`` (empty parts kept)."""
        parts = [self.crime, self.victim or self.role or "", self.phase or ""]
        return ":".join(parts).rstrip(":")

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``parse-order``."""
        data: dict[str, Any] = {"crime": self.crime, "victim": self.victim, "phase": self.phase}
        if self.role:
            data["role"] = self.role
        return data


@dataclass(frozen=True, slots=True)
class Claim:
    """A quoted investigation claim: ``'Conia kills CTU'`` or ``'Akonyl disguised as Shinichi'``."""

    text: str
    subject: str | None = None
    verb: str | None = None
    object: str | None = None
    phase: str | None = None

    def render(self) -> str:
        """Compact form: ``Conia>kill>CTU@night1``; unresolved parts stay empty."""
        core = f"{self.subject or '?'}>{self.verb or '?'}>{self.object or ''}".rstrip(">")
        return f"{core}@{self.phase}" if self.phase else core

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``parse-order``."""
        return {
            "text": self.text,
            "subject": self.subject,
            "verb": self.verb,
            "object": self.object,
            "phase": self.phase,
        }


Value = str | Crime | Claim


@dataclass(frozen=True, slots=True)
class Slot:
    """One filled target slot: its kind, the chosen value and ranked alternatives."""

    kind: str
    value: Value
    alternatives: tuple[Value, ...] = ()

    def render(self) -> str:
        """``Bob`` or ``Bob|Carl`` (ranked alternatives after the first choice)."""
        return "|".join(_render_value(v) for v in (self.value, *self.alternatives))

    def as_json(self) -> Any:
        """The value alone, or ``{"ranked": [...]}`` when there are alternatives."""
        if not self.alternatives:
            return _json_value(self.value)
        return {"ranked": [_json_value(v) for v in (self.value, *self.alternatives)]}


def _render_value(value: Value) -> str:
    return value if isinstance(value, str) else value.render()


def _json_value(value: Value) -> Any:
    return value if isinstance(value, str) else value.as_json()


@dataclass(frozen=True, slots=True)
class Order:
    """One structured order: ability id, target slots and named parameters."""

    ability: str
    targets: tuple[Slot, ...] = ()
    params: tuple[tuple[str, Value], ...] = ()
    kind: Kind = Kind.ORDER
    phase: str | None = None
    source: str = ""
    guesses: tuple[tuple[str, str, str], ...] = ()
    performer: str | None = None
    for_player: str | None = None

    def render(self) -> str:
        """Canonical one-line form of the corpus: ``arrest Akonyl crime=kill:Conia:night1``;
        a move carried out by a teammate ends ``by=<performer>`` (``shoot Кот by=Олег``), an
        order written for a player who handed over their actions ``as=<player>``."""
        parts = [self.ability, *(slot.render() for slot in self.targets)]
        parts += [f"{key}={_render_value(val)}" for key, val in self.params]
        parts += [f"by={self.performer}"] if self.performer else []
        parts += [f"as={self.for_player}"] if self.for_player else []
        return " ".join(parts)

    def param(self, key: str) -> Value | None:
        """The value of a named parameter, or None."""
        return next((v for k, v in self.params if k == key), None)

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``parse-order`` (DESIGN.md: ability, targets, params)."""
        return {
            "kind": str(self.kind),
            "ability": self.ability,
            "targets": [slot.as_json() for slot in self.targets],
            "params": {key: _json_value(val) for key, val in self.params},
            "phase": self.phase,
            "text": self.source,
            "guesses": [{"kind": k, "written": w, "read_as": v} for k, w, v in self.guesses],
            "performer": self.performer,
            "for_player": self.for_player,
        }


@dataclass(frozen=True, slots=True)
class Candidate:
    """One possible reading of an unclear PM, ranked by score (higher first)."""

    orders: tuple[Order, ...]
    score: float
    why: str

    def render(self) -> str:
        """The orders of this reading, ``; `` separated."""
        return "; ".join(order.render() for order in self.orders)

    def as_json(self) -> dict[str, Any]:
        """JSON form for ``parse-order``."""
        return {
            "orders": [o.as_json() for o in self.orders],
            "score": round(self.score, 3),
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class ParseResult:
    """Everything the parser says about one PM (a value, never an exception)."""

    status: Status
    orders: tuple[Order, ...]
    reason: str
    confidence: float
    candidates: tuple[Candidate, ...] = ()
    rule: str | None = None
    questions: tuple[str, ...] = ()
    superseded: tuple[Order, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def kind(self) -> Kind:
        """The kind of the PM: that of its orders, else question or none."""
        if self.orders:
            return self.orders[-1].kind
        return Kind.QUESTION if self.questions else Kind.NONE

    def as_json(self) -> dict[str, Any]:
        """The ``parse-order --json`` document."""
        return {
            "status": str(self.status),
            "kind": str(self.kind),
            "orders": [o.as_json() for o in self.orders],
            "candidates": [c.as_json() for c in self.candidates],
            "reason": self.reason,
            "rule": self.rule,
            "confidence": round(self.confidence, 3),
            "questions": list(self.questions),
            "superseded": [o.as_json() for o in self.superseded],
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class Learned:
    """Mappings a GM taught by resolving review items, for one game.

    Attributes:
        names: written form (casefolded) -> player name, e.g. ``{"kudo": "Kudou Shinichi"}``.
        abilities: written form (casefolded) -> ability id, e.g. ``{"protecc": "protect"}``.
    """

    names: Mapping[str, str] = field(default_factory=dict)
    abilities: Mapping[str, str] = field(default_factory=dict)

    def merged(self, other: Learned) -> Learned:
        """These mappings plus ``other``'s (``other`` wins on the same written form)."""
        return Learned({**self.names, **other.names}, {**self.abilities, **other.abilities})

    @classmethod
    def taught_by(cls, order: Order) -> Learned:
        """What the GM teaches by confirming ``order`` (a queue candidate): each guessed
        word of it ("Frnak" read as Frank, "protecc" read as protect) becomes a mapping.

        Args:
            order: the reading the GM chose.

        Returns:
            The mappings to remember for the game.
        """
        names = {w: v for kind, w, v in order.guesses if kind == "name"}
        abilities = {w: v for kind, w, v in order.guesses if kind == "ability"}
        return cls(names, abilities)
