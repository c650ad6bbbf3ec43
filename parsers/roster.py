"""The game's roster (slots, names, replacements, who is alive, vote modifiers) from plain data.

The data is the ``players``/``hosts``/``aliases`` part of a SETUP.yaml file (documented in
``docs/setup-files.md``), already loaded by the caller (parsers do no I/O). Two shapes::

    players: {Ann: Sheriff, Bob: Doctor}          # short form: name -> role (or null)

    players:                                      # long form
      - name: Ann
        role: Sheriff
        aliases: [Annie]                          # nicknames the GM accepts
        replaces: [OldAnn]                        # earlier players of this slot
        alive: true
        statuses: [revealed_mayor]
        vote: {weight: 3, extra: 0, received: 0, tie_bonus: 0, mayor: false}
    hosts: [GameMaster, ModBot]                   # their posts are never votes
    aliases: {Annie: Ann}                         # more aliases, alias -> player

A slot is named by its current player; a replacement inherits the slot, so posts by a
replaced name count for the slot and votes on a replaced name land on it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from parsers.names import EntryKind, NameEntry, NameIndex, account_key, fold

__all__ = ["Roster", "SetupError", "Slot", "VoteModifiers", "roster_from_data"]


class SetupError(ValueError):
    """The setup data is malformed.

    Attributes:
        key: the path of the bad key (``players[2].aliases``).
        problem: what is wrong, in words a GM understands.
    """

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"{key}: {problem}")


@dataclass(frozen=True, slots=True)
class VoteModifiers:
    """How a slot's vote, and the votes on it, are weighted (rules of the seeds).

    Attributes:
        weight: what the slot's vote counts for (1; a revealed Mayor 3; 0 = lost vote), or
            None to take it from the ruleset (status weights) or 1.
        extra: extra votes added to the slot's vote (Kujou's Voice of Accusation).
        received: added to the votes on this slot (Kazuha's Accompany: -1).
        tie_bonus: added to the votes on this slot only when it is tied for the lead
            (Pisco/Tequila's Sabotage: +1).
        mayor: this slot breaks ties when the ruleset says the mayor decides.
    """

    weight: int | None = None
    extra: int = 0
    received: int = 0
    tie_bonus: int = 0
    mayor: bool = False


@dataclass(frozen=True, slots=True)
class Slot:
    """One seat of the game, played by one player at a time.

    Attributes:
        name: the current player (also the slot's id).
        role: the role id or name, when the setup gives it.
        aliases: other names the GM accepts for this slot.
        previous: earlier players of the slot (replaced), oldest first.
        alive: False once dead (or otherwise out of the game).
        statuses: free status names (``arrested``, ``abroad``, ``revealed_mayor``...).
        vote: the slot's vote modifiers.
        user_id: the forum account id of the current player, when known: posts are then
            matched to the slot by account id, never by name (it also keeps look-alike names
            apart: "Мара" in Cyrillic and "Mapa" in Latin letters are two accounts).
    """

    name: str
    role: str | None = None
    aliases: tuple[str, ...] = ()
    previous: tuple[str, ...] = ()
    alive: bool = True
    statuses: frozenset[str] = frozenset()
    vote: VoteModifiers = field(default_factory=VoteModifiers)
    user_id: str | None = None

    @property
    def id(self) -> str:
        """The slot id: its current player's name."""
        return self.name


@dataclass(frozen=True, slots=True)
class Roster:
    """All slots plus the hosts (GM accounts, whose posts are never player votes).

    Attributes:
        slots: the slots, in setup order.
        hosts: the GM/bot account names.
        host_ids: their forum account ids, when known.
    """

    slots: tuple[Slot, ...]
    hosts: tuple[str, ...] = ()
    host_ids: tuple[str, ...] = ()
    _authors: dict[str, Slot] = field(default_factory=dict, init=False, repr=False, compare=False)
    _spelled: dict[str, Slot] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        folded: dict[str, set[str]] = {}
        users: set[str] = set()
        for slot in self.slots:
            for name in (slot.name, *slot.previous):
                key = _spelling(name)
                if key in self._spelled and self._spelled[key].name != slot.name:
                    raise SetupError("players", f"'{name}' names two slots")
                self._spelled[key] = slot
                folded.setdefault(fold(name), set()).add(slot.name)
            if slot.user_id is not None:
                if slot.user_id in users:
                    raise SetupError("players", f"user id {slot.user_id} names two slots")
                users.add(slot.user_id)
        for slot in self.slots:  # a folded name counts only when it means one slot
            for name in (slot.name, *slot.previous):
                if len(folded[fold(name)]) == 1:
                    self._authors[fold(name)] = slot

    def slot(self, slot_id: str) -> Slot:
        """The slot with this id.

        Raises:
            KeyError: no such slot.
        """
        for slot in self.slots:
            if slot.name == slot_id:
                return slot
        raise KeyError(slot_id)

    def by_author(self, author: str) -> Slot | None:
        """The slot a post's author plays (current or replaced name, exact after folding).

        Two look-alike names (a Cyrillic and a Latin spelling that fold to the same letters)
        are two slots: each is found by its own spelling, or by user id (:meth:`by_account`).

        Args:
            author: the forum user name of the post or PM.

        Returns:
            The slot, or None for hosts and outsiders.
        """
        return self._spelled.get(_spelling(author)) or self._authors.get(fold(author))

    def look_alikes(self, name: str) -> tuple[str, ...]:
        """Every slot name that folds to the same letters as ``name`` (two or more: a
        target written this way could be either)."""
        key = fold(name)
        return tuple(s.name for s in self.slots if fold(s.name) == key)

    def is_host(self, author: str) -> bool:
        """True when ``author`` is one of the hosts."""
        return fold(author) in {fold(h) for h in self.hosts}

    def by_account(self, author: str, user_id: str | None = None) -> Slot | None:
        """The slot a post's author plays, by forum account: never a folded display name.

        The account id decides when the post and the slot both carry one; otherwise the
        account name must equal the slot's current or a replaced name (:func:`account_key`:
        case and spaces aside), so a look-alike account (``Аnn`` with a Cyrillic А,
        ``Ann\u200b``) is an outsider, and so is an account of the same name whose id is
        not the slot's.

        Args:
            author: the account name shown on the post.
            user_id: the forum's account id, when known.

        Returns:
            The slot, or None for hosts and outsiders.
        """
        if user_id is not None:
            by_id = next((s for s in self.slots if s.user_id == user_id), None)
            if by_id is not None:
                return by_id
        key = account_key(author)
        for slot in self.slots:
            if key in {account_key(n) for n in (slot.name, *slot.previous)}:
                # A slot whose account id is known and differs: another account by that name.
                known = user_id is not None and slot.user_id is not None
                return None if known and slot.user_id != user_id else slot
        return None

    def is_host_account(self, author: str, user_id: str | None = None) -> bool:
        """True when the account is a host's (by id when known, else its exact name)."""
        if user_id is not None and self.host_ids:
            return user_id in self.host_ids
        return account_key(author) in {account_key(h) for h in self.hosts}

    def name_entries(self, *, alive_only: bool = False) -> list[NameEntry]:
        """Every name, alias and previous name of the slots, for a :class:`NameIndex`.

        Args:
            alive_only: leave out dead slots.

        Returns:
            The entries, names first.
        """
        out: list[NameEntry] = []
        for slot in self.slots:
            if alive_only and not slot.alive:
                continue
            out.append(NameEntry(slot.name, slot.name, EntryKind.NAME))
            out.extend(NameEntry(slot.name, a, EntryKind.ALIAS) for a in slot.aliases)
            out.extend(NameEntry(slot.name, p, EntryKind.PREVIOUS) for p in slot.previous)
        return out

    def name_index(self, *, alive_only: bool = False) -> NameIndex:
        """A :class:`NameIndex` over :meth:`name_entries`."""
        return NameIndex(self.name_entries(alive_only=alive_only))

    def with_slot(self, slot: Slot) -> Roster:
        """A copy with ``slot`` replacing the slot of the same name."""
        return replace(self, slots=tuple(slot if s.name == slot.name else s for s in self.slots))


_PLAYER_KEYS = frozenset(
    {"name", "role", "aliases", "replaces", "alive", "statuses", "vote", "user_id"}
)
_VOTE_KEYS = {"weight": int, "extra": int, "received": int, "tie_bonus": int, "mayor": bool}


def roster_from_data(data: Mapping[str, Any]) -> Roster:
    """Build and validate a :class:`Roster` from SETUP data.

    Only ``players``, ``hosts`` (and a game file's ``gm``), ``aliases`` and ``lovers`` (pairs
    of players: both get the ``lover`` status) are read; other top-level keys belong to other
    readers (votes, orders) and are left alone.

    Args:
        data: the loaded SETUP mapping.

    Returns:
        The roster.

    Raises:
        SetupError: (a ValueError) naming the bad key, e.g. ``players[1].alive``.
    """
    if not isinstance(data, Mapping):
        raise SetupError("(top level)", "must be a mapping with a 'players' key")
    if "players" not in data:
        raise SetupError("players", "missing: list the players")
    slots = _slots(data["players"])
    slots = _add_aliases(slots, data.get("aliases") or {})
    slots = _add_lovers(slots, data.get("lovers") or [])
    hosts = _str_list(data.get("hosts") or [], "hosts")
    hosts += _str_list(data.get("gm") or [], "gm")  # the game file names its GM so
    return Roster(slots=tuple(slots), hosts=tuple(hosts))


def _slots(players: Any) -> list[Slot]:
    if isinstance(players, Mapping):
        items: Iterable[tuple[str, Any]] = (
            (f"players.{name}", _short_entry(name, value, f"players.{name}"))
            for name, value in players.items()
        )
    elif isinstance(players, list):
        items = ((f"players[{i}]", entry) for i, entry in enumerate(players))
    else:
        raise SetupError("players", "must be a mapping {name: role} or a list of players")
    slots = [_slot(entry, where) for where, entry in items]
    if not slots:
        raise SetupError("players", "is empty")
    names = [_spelling(s.name) for s in slots]
    for i, key in enumerate(names):
        if key in names[:i]:
            raise SetupError(f"players[{i}].name", f"'{slots[i].name}' is listed twice")
    return slots


def _spelling(name: str) -> str:
    """A name as spelt (case and Unicode form aside): look-alike letters stay apart."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def _short_entry(name: Any, value: Any, where: str) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return {"name": name, **value}
    if value is None or isinstance(value, str):
        return {"name": name, "role": value}
    raise SetupError(where, "must be a role name, null, or a mapping")


def _slot(entry: Any, where: str) -> Slot:
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, Mapping):
        raise SetupError(where, "must be a name or a mapping with 'name'")
    unknown = sorted(set(entry) - _PLAYER_KEYS)
    if unknown:
        known = ", ".join(sorted(_PLAYER_KEYS))
        raise SetupError(f"{where}.{unknown[0]}", f"unknown key (known: {known})")
    name = entry.get("name")
    if not isinstance(name, str) or not fold(name):
        raise SetupError(f"{where}.name", "must be a non-empty name")
    role = entry.get("role")
    if role is not None and not isinstance(role, str):
        raise SetupError(f"{where}.role", "must be a string")
    alive = entry.get("alive", True)
    if not isinstance(alive, bool):
        raise SetupError(f"{where}.alive", "must be true or false")
    user_id = entry.get("user_id")
    if user_id is not None and (isinstance(user_id, bool) or not isinstance(user_id, str | int)):
        raise SetupError(f"{where}.user_id", "must be the forum user id (a number or a string)")
    return Slot(
        name=name.strip(),
        role=role,
        aliases=tuple(_str_list(entry.get("aliases") or [], f"{where}.aliases")),
        previous=tuple(_str_list(entry.get("replaces") or [], f"{where}.replaces")),
        alive=alive,
        statuses=frozenset(_str_list(entry.get("statuses") or [], f"{where}.statuses")),
        vote=_modifiers(entry.get("vote") or {}, f"{where}.vote"),
        user_id=None if user_id is None else str(user_id),
    )


def _modifiers(data: Any, where: str) -> VoteModifiers:
    if not isinstance(data, Mapping):
        raise SetupError(where, "must be a mapping")
    values: dict[str, Any] = {}
    for key, value in data.items():
        kind = _VOTE_KEYS.get(key)
        if kind is None:
            raise SetupError(f"{where}.{key}", f"unknown key (known: {', '.join(_VOTE_KEYS)})")
        if type(value) is not kind:
            raise SetupError(
                f"{where}.{key}", f"must be {'true/false' if kind is bool else 'a whole number'}"
            )
        values[key] = value
    return VoteModifiers(**values)


def _str_list(value: Any, where: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise SetupError(where, "must be a list of names")
    return [v.strip() for v in value]


def _add_lovers(slots: list[Slot], pairs: Any) -> list[Slot]:
    """``lovers: [[A, B], ...]``: sugar for the ``lover`` status on both players."""
    if not isinstance(pairs, list):
        raise SetupError("lovers", "must be a list of pairs [A, B]")
    by_key = {fold(s.name): i for i, s in enumerate(slots)}
    by_key.update({_spelling(s.name): i for i, s in enumerate(slots)})
    for n, pair in enumerate(pairs):
        names = pair if isinstance(pair, list) else []
        if len(names) != 2 or not all(isinstance(p, str) for p in names):
            raise SetupError(f"lovers[{n}]", "must be a pair of two player names [A, B]")
        for name in pair:
            index = by_key.get(_spelling(name), by_key.get(fold(name)))
            if index is None:
                raise SetupError(f"lovers[{n}]", f"'{name}' is not a player")
            slot = slots[index]
            slots[index] = replace(slot, statuses=slot.statuses | {"lover"})
    return slots


def _add_aliases(slots: list[Slot], aliases: Any) -> list[Slot]:
    if not isinstance(aliases, Mapping):
        raise SetupError("aliases", "must be a mapping alias -> player")
    by_key = {fold(s.name): i for i, s in enumerate(slots)}
    by_key.update({_spelling(s.name): i for i, s in enumerate(slots)})
    for alias, player in aliases.items():
        if not isinstance(alias, str) or not isinstance(player, str):
            raise SetupError(f"aliases.{alias}", "must map a name to a player name")
        index = by_key.get(_spelling(player), by_key.get(fold(player)))
        if index is None:
            raise SetupError(f"aliases.{alias}", f"'{player}' is not a player")
        slot = slots[index]
        slots[index] = replace(slot, aliases=(*slot.aliases, alias))
    return slots
