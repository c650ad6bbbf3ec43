"""A draft: what one order word and the words after it say, before an ability is chosen."""

from __future__ import annotations

from dataclasses import dataclass, field

from parsers.orders.context import Context
from parsers.orders.model import Claim, Crime, Kind
from parsers.orders.players import NameHit
from parsers.phases import Phase

# Phrase kinds that start a new draft, and the draft kind each starts.
TRIGGERS = {
    "ability": Kind.ORDER,
    "vote": Kind.VOTE,
    "cancel": Kind.CANCEL,
    "will": Kind.WILL,
    "handoff": Kind.HANDOFF,
}


@dataclass(slots=True)
class CrimeDraft:
    """A crime being read: ``for killing Conia on Night 1``."""

    crime: str
    victim: str | None = None
    role: str | None = None
    phase: str | None = None

    def done(self) -> Crime:
        """The finished crime value."""
        return Crime(self.crime, self.victim, self.phase, self.role)


@dataclass(slots=True)
class Draft:
    """What one trigger word and the words after it say, before choosing an ability."""

    kind: Kind
    abilities: tuple[str, ...]
    trigger: str
    line: int
    names: list[list[NameHit]] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    crimes: list[CrimeDraft] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)
    text: str = ""
    unknown: list[str] = field(default_factory=list)
    negated: bool = False
    hedged: bool = False
    question: bool = False
    nobody: bool = False
    vague: bool = False
    guessed: str = ""
    guessed_word: str = ""
    corrects: bool = False
    taken_back: bool = False  # "Heal Ann... or maybe not": withdrawn, nothing in its place
    last_was_name: bool = False
    end: int = 0
    trigger_first: bool = False
    alt_next: bool = False
    or_next: bool = False
    crime_link: bool = False
    source: str = ""
    role_named: str = ""
    role_sought: str = ""  # "проверю Мефодия на шерифа": the role the check is for
    unread_first: list[str] = field(default_factory=list)  # unread before any name or role
    performer: str = ""
    doer: NameHit | None = None
    lent: tuple[Draft, NameHit] | None = None
    doer_roles: tuple[str, ...] = ()
    past: bool = False
    start: int = 0
    mentions: tuple[str, ...] = ()
    handed: bool = False
    and_next: bool = False
    joined: list[str] = field(default_factory=list)
    later: bool = False

    def wants(self, ctx: Context, kind: str) -> bool:
        """True if an ability this draft may be has a target/param of ``kind``."""
        for ability_id in self.abilities:
            ability = ctx.lexicon.ruleset.abilities.get(ability_id)
            if ability is None:
                continue
            if any(t.kind == kind for t in ability.targets) or any(
                p.kind == kind for p in ability.params.values()
            ):
                return True
        return False

    def add_name(self, hit: NameHit) -> None:
        """A player name: a ranked alternative after "else", otherwise a new value."""
        if self.names and self.names[-1][-1].players == hit.players and self.last_was_name:
            return  # "Васю Пупкина": the second word of the same name
        if self.crimes and self.crimes[-1].victim is None and len(hit.players) == 1:
            self.crimes[-1].victim = hit.players[0]
        elif self.names and (self.alt_next or self.or_next):
            self.names[-1].append(hit)
            if self.or_next:
                self.unknown.append("or")
        else:
            self.names.append([hit])
        self.alt_next = self.or_next = self.and_next = False
