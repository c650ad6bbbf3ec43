"""The day part of a SETUP file: deadline, mid-day events, GM corrections and checkpoints.

Shape (``docs/setup-files.md``)::

    day:
      number: 1
      deadline: "2026-11-29T18:00:00+00:00"   # votes posted later do not count
      majority: 7                             # optional: override floor(alive/2)+1
      mayor_choice: Akonyl                    # optional: the mayor's tie-break, once made
      gm_choice: Akonyl                       # optional: the moderator's pick at the deadline
      ended: true                             # optional: the Day is over (deadline passed)
    events:                                   # applied just after the post named by `post`
      - {post: 40, kind: death, player: Bob}           # killed / mod-killed / day-killed
      - {post: 41, kind: status, player: Cy, status: arrested}
      - {post: 45, kind: checkpoint, votes: {Ann: Cy, Dan: null}}  # the GM's own count
    corrections:                              # GM decisions on single posts
      - {post: 36, ignore: true}
      - {post: 37, target: Conia}             # this post's vote means Conia (null = unvote)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from parsers.roster import SetupError
from parsers.votes.model import DayEvent, DayEventKind

__all__ = ["DaySetup", "day_from_data"]


@dataclass(frozen=True, slots=True)
class DaySetup:
    """What the GM tells the counter about the day being counted.

    Attributes:
        number: the day number (for the vote-count post).
        deadline: votes posted after it do not count (timezone-aware).
        majority: a majority override; None = floor(living voters / 2) + 1.
        mayor_choice: the mayor's tie-break, once he made it.
        events: mid-day events, in post order.
        added_votes: votes the ruleset puts on a slot's wagon without a voter (seed 004's
            host penalties «+1 в лог»), slot -> votes; the runtime takes them from the
            resolver (``vote_extras``), so the count and the resolved lynch agree.
    """

    number: int | None = None
    deadline: datetime | None = None
    majority: int | None = None
    mayor_choice: str | None = None
    events: tuple[DayEvent, ...] = ()
    ended: bool = False
    gm_choice: str | None = None
    added_votes: tuple[tuple[str, int], ...] = ()


_DAY_KEYS = frozenset(
    {"number", "deadline", "majority", "mayor_choice", "gm_choice", "ended", "added_votes"}
)
_EVENT_KEYS = frozenset({"post", "kind", "player", "status", "remove", "votes", "target"})


def day_from_data(data: Mapping[str, Any]) -> DaySetup:
    """Read ``day``, ``events`` and ``corrections`` from SETUP data (other keys are ignored).

    Args:
        data: the loaded SETUP mapping.

    Returns:
        The day setup.

    Raises:
        SetupError: (a ValueError) naming the bad key.
    """
    day = data.get("day") or {}
    if not isinstance(day, Mapping):
        raise SetupError("day", "must be a mapping")
    unknown = sorted(set(day) - _DAY_KEYS)
    if unknown:
        raise SetupError(
            f"day.{unknown[0]}", f"unknown key (known: {', '.join(sorted(_DAY_KEYS))})"
        )
    events = [_event(e, f"events[{i}]") for i, e in enumerate(_list(data, "events"))]
    events += [
        _correction(c, f"corrections[{i}]") for i, c in enumerate(_list(data, "corrections"))
    ]
    return DaySetup(
        number=_int(day.get("number"), "day.number"),
        deadline=_time(day.get("deadline"), "day.deadline"),
        majority=_int(day.get("majority"), "day.majority"),
        mayor_choice=_name(day.get("mayor_choice"), "day.mayor_choice"),
        events=tuple(events),
        ended=_bool(day.get("ended", False), "day.ended"),
        gm_choice=_name(day.get("gm_choice"), "day.gm_choice"),
        added_votes=_added(day.get("added_votes"), "day.added_votes"),
    )


def _added(value: Any, where: str) -> tuple[tuple[str, int], ...]:
    """``{player: votes}``: votes on a player's wagon that no voter cast (penalties)."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise SetupError(where, "must map a player to a number of votes (e.g. {Bob: 1})")
    out = []
    for name, votes in value.items():
        if isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
            raise SetupError(f"{where}.{name}", "must be a whole number of votes, 1 or more")
        out.append((_name(name, f"{where}.{name}") or "", votes))
    return tuple(out)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(where, "must be true or false")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise SetupError(key, "must be a list")
    return value


def _int(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(where, "must be a whole number")
    return value


def _name(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise SetupError(where, "must be a player name")
    return value.strip()


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        parsed = value
    else:
        try:
            parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise SetupError(where, f"'{value}' is not an ISO date-time") from None
    if parsed.tzinfo is None:
        raise SetupError(where, "needs a time zone offset (e.g. +00:00 or +03:00)")
    return parsed


def _post(entry: Mapping[str, Any], where: str) -> int | str:
    post = entry.get("post")
    if isinstance(post, bool) or not isinstance(post, int | str):
        raise SetupError(f"{where}.post", "must be a post number or a post id")
    return post


def _event(entry: Any, where: str) -> DayEvent:
    if not isinstance(entry, Mapping):
        raise SetupError(where, "must be a mapping")
    unknown = sorted(set(entry) - _EVENT_KEYS)
    if unknown:
        raise SetupError(f"{where}.{unknown[0]}", "unknown key")
    try:
        kind = DayEventKind(str(entry.get("kind")))
    except ValueError:
        choices = ", ".join(k.value for k in DayEventKind)
        raise SetupError(
            f"{where}.kind", f"'{entry.get('kind')}' is not one of: {choices}"
        ) from None
    votes = entry.get("votes") or {}
    if not isinstance(votes, Mapping):
        raise SetupError(f"{where}.votes", "must map a voter to a target (or null)")
    if kind is not DayEventKind.CHECKPOINT and not entry.get("player"):
        raise SetupError(f"{where}.player", "missing")
    return DayEvent(
        kind=kind,
        post=_post(entry, where),
        player=_name(entry.get("player"), f"{where}.player"),
        target=_name(entry.get("target"), f"{where}.target"),
        votes=tuple((str(k), None if v is None else str(v)) for k, v in votes.items()),
        status=_name(entry.get("status"), f"{where}.status"),
        remove=bool(entry.get("remove", False)),
    )


def _correction(entry: Any, where: str) -> DayEvent:
    if not isinstance(entry, Mapping):
        raise SetupError(where, "must be a mapping")
    unknown = sorted(set(entry) - {"post", "ignore", "target"})
    if unknown:
        raise SetupError(f"{where}.{unknown[0]}", "unknown key (known: post, ignore, target)")
    if entry.get("ignore"):
        return DayEvent(kind=DayEventKind.IGNORE, post=_post(entry, where))
    if "target" not in entry:
        raise SetupError(where, "needs 'ignore: true' or 'target: NAME' (null = unvote)")
    target = _name(entry.get("target"), f"{where}.target")
    return DayEvent(kind=DayEventKind.CORRECT, post=_post(entry, where), target=target)
