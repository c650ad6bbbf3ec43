"""The game file: one readable YAML file per game, loaded once into frozen, typed settings.

Every mistake is reported as a ``ConfigError`` naming the setting (``schedule.timezone``)
and what is wrong, never as a traceback. Secrets never live here: the file only says
where the password comes from (an environment variable or an owner-only file).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from forum_adapters.timeparse import DATE_ORDERS
from forumbot.credentials import refuse_url_credentials
from forumbot.db.enums import FORUM_ENGINES
from forumbot.errors import ConfigError
from parsers.votes.config import Channel, Syntax
from resolver._schema import Reader
from resolver.errors import RulesetError
from resolver.ruleset import parse_yaml
from resolver.votes import VOTE_DEFAULTS, read_vote

ENGINES = ("auto", *FORUM_ENGINES)
PUBLISH_MODES = ("approve", "auto")
# The vote counter's own names, so a game file can never name a syntax it does not know.
VOTE_CHANNELS = tuple(c.value for c in Channel)
VOTE_SYNTAXES = tuple(s.value for s in Syntax)
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PHASE = re.compile(r"^(day|night)(\d+)$")
BLANK = "FILL_IN"
_ROLE_KEY = re.compile(r"^players\[(\d+)\]\.role$")
"""What ``forumbot init`` writes where the thread did not tell: a blank the GM fills in.

A game file may hold blanks: ``forumbot game check`` lists them and ``forumbot run`` refuses
the game until none is left (``require_filled``, the one rule both apply)."""
# A blank that must stand in for a required setting while the rest of the file is checked.
_STAND_INS: dict[str, Any] = {
    "name": BLANK,
    "gm": BLANK,
    "ruleset": BLANK,
    "players": [{"name": BLANK}],
    "players.name": BLANK,
    "schedule.timezone": "UTC",
    "schedule.first_phase": "day1",
    "schedule.day.length": "48h",
    "schedule.night.length": "24h",
}

# libyaml when installed (8x faster on the big rulesets), else the pure-Python safe loader.


@dataclass(frozen=True, slots=True)
class ForumSettings:
    """The board and thread the game is played in."""

    url: str
    engine: str = "auto"
    requests_per_second: float = 1.0
    post_interval: float | None = None  # seconds between the bot's posts/PMs; None: stock
    date_order: str | None = None  # numeric dates: "dmy", "mdy" or "ymd"; None: guessed
    pms_per_hour: int | None = None  # the forum's PM cap for the bot; None: engine stock, 0: none


@dataclass(frozen=True, slots=True)
class CredentialSettings:
    """Whose account the bot uses and where its password comes from (never the password)."""

    username: str
    password_env: str | None = "FORUMBOT_PASSWORD"
    password_file: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """A player as the GM lists them."""

    name: str
    role: str | None = None
    aliases: tuple[str, ...] = ()
    forum_user_id: str | None = None


@dataclass(frozen=True, slots=True)
class PhaseLength:
    """How long a kind of phase lasts, when it starts, and its inner deadlines."""

    length: timedelta
    starts: time | None = None
    inner_deadlines: tuple[tuple[str, time], ...] = ()


@dataclass(frozen=True, slots=True)
class Schedule:
    """The phase clock: time zone, first phase and start, length of days and nights."""

    timezone: ZoneInfo
    first_phase: str
    start: datetime | None
    day: PhaseLength
    night: PhaseLength


@dataclass(frozen=True, slots=True)
class PublishSettings:
    """Whether drafts wait for the GM, and what the bot says on its own."""

    mode: str = "approve"
    receipts: bool = True
    vote_count_every: timedelta | None = None
    poll_interval: timedelta = timedelta(minutes=2)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything a game file says, validated."""

    name: str
    forum: ForumSettings
    credentials: CredentialSettings
    gm: str
    ruleset: str
    players: tuple[PlayerSettings, ...]
    schedule: Schedule
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    publishing: PublishSettings = PublishSettings()
    vote_rules: Mapping[str, Any] = field(default_factory=dict)
    """The game's ``votes:``, validated: laid over the ruleset's ``vote:`` by
    ``parsers.votes.config.vote_section`` (the one place vote rules are made)."""
    """Every key the game file states under ``votes:`` (validated): the vote counter lays
    them over the ruleset's ``vote:`` section."""
    database: str | None = None
    source: str | None = None
    blanks: tuple[str, ...] = ()
    """The settings left as ``FILL_IN`` (dotted names), in file order."""


TOP_KEYS = (
    "name",
    "forum",
    "credentials",
    "gm",
    "ruleset",
    "options",
    "seed",
    "players",
    "schedule",
    "votes",
    "publishing",
    "database",
)


def load_game_file(path: str | Path) -> GameConfig:
    """Read and validate a game file.

    Raises:
        ConfigError: the file is missing, is not YAML, or a setting is wrong; the message
            names the setting.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("game file", f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise ConfigError("game file", f"{path} is not UTF-8 text") from None
    try:
        data = parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise ConfigError("game file", f"{path} is not valid YAML{where}") from None
    try:
        return parse_game(data, source=str(path))
    except ConfigError as exc:
        raise ConfigError(exc.setting, exc.problem, str(path)) from None


def parse_game(data: Any, *, source: str | None = None) -> GameConfig:
    """Validate already-parsed game data (a mapping) into a ``GameConfig``."""
    blanks = tuple(_blanks(data, ""))
    root = _mapping(_stood_in(data, ""), "game file")
    _no_unknown_keys(root, TOP_KEYS, "")
    seed = root.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError("seed", f"must be a whole number, not {seed!r}")
    options = _mapping(root.get("options", {}), "options")
    database = root.get("database")
    if "credentials" in root and isinstance(root["credentials"], dict):
        _refuse_inline_secret(root["credentials"])
    return GameConfig(
        name=_text(root, "name", ""),
        forum=_forum(_mapping(_required(root, "forum", ""), "forum")),
        credentials=_credentials(_mapping(_required(root, "credentials", ""), "credentials")),
        gm=_text(root, "gm", ""),
        ruleset=_text(root, "ruleset", ""),
        players=_players(_required(root, "players", "")),
        schedule=_schedule(_mapping(_required(root, "schedule", ""), "schedule")),
        seed=seed,
        options=dict(options),
        vote_rules=_votes(_mapping(root.get("votes", {}), "votes")),
        publishing=_publishing(_mapping(root.get("publishing", {}), "publishing")),
        database=str(database) if database else None,
        source=source,
        blanks=blanks,
    )


def unfilled(config: GameConfig) -> list[str]:
    """The settings the GM must still fill in before ``run`` (dotted names, file order): the
    ``FILL_IN`` blanks and the role of every player without one; empty when the game can run."""
    found = list(config.blanks)
    found += [f"players[{i}].role" for i, p in enumerate(config.players) if p.role is None]
    return list(dict.fromkeys(found))


def describe_unfilled(config: GameConfig) -> str:
    """What is left to fill in, in one line: the settings, then the players who need a role."""
    keys = unfilled(config)
    roles = [int(m.group(1)) for k in keys if (m := _ROLE_KEY.match(k))]
    settings = [k for k in keys if not _ROLE_KEY.match(k)]
    names = [config.players[i].name for i in roles if config.players[i].name != BLANK]
    if len(names) < len(roles):  # a player without a name yet
        names.append(f"{len(roles) - len(names)} player(s) to name")
    return "; ".join(
        [", ".join(settings)] * bool(settings) + [f"the role of {', '.join(names)}"] * bool(roles)
    )


def require_filled(config: GameConfig) -> None:
    """The one rule ``forumbot game check`` and ``forumbot run`` apply to blanks.

    Raises:
        ConfigError: a setting is still ``FILL_IN`` or a player has no role; the message
            lists every one of them.
    """
    missing = unfilled(config)
    if missing:
        left = f"(left {BLANK} or empty in the file)"
        problem = f"fill in before `run`: {describe_unfilled(config)} {left}"
        raise ConfigError(missing[0], problem, config.source)


def parse_duration(value: Any, setting: str) -> timedelta:
    """Parse ``48h``, ``30m``, ``1d``, ``90s`` (or a number of seconds)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return timedelta(seconds=value)
    match = _DURATION.match(str(value))
    if not match or float(match.group(1)) <= 0:
        raise ConfigError(setting, f"expected a duration like 48h, 30m or 1d, not {value!r}")
    return timedelta(seconds=float(match.group(1)) * _UNITS[match.group(2)])


def parse_clock(value: Any, setting: str) -> time:
    """Parse a time of day ``HH:MM`` (YAML may hand us minutes since midnight for 19:00)."""
    if isinstance(value, int) and not isinstance(value, bool):  # YAML 1.1 sexagesimal: 19:00
        value = f"{value // 60:02d}:{value % 60:02d}"
    try:
        return time.fromisoformat(str(value))
    except ValueError:
        raise ConfigError(setting, f"expected a time of day like 19:00, not {value!r}") from None


# --- sections -------------------------------------------------------------------------------


def _forum(data: dict[str, Any]) -> ForumSettings:
    known = ("url", "engine", "requests_per_second", "post_interval", "date_order", "pms_per_hour")
    _no_unknown_keys(data, known, "forum")
    url = _text(data, "url", "forum")
    if not re.match(r"^https?://", url):
        raise ConfigError("forum.url", f"must start with http:// or https://, not {url!r}")
    refuse_url_credentials(url, "forum.url")
    engine = _choice(data.get("engine", "auto"), ENGINES, "forum.engine")
    rate = data.get("requests_per_second", 1.0)
    if not isinstance(rate, int | float) or isinstance(rate, bool) or not 0 < rate <= 5:
        raise ConfigError("forum.requests_per_second", "must be a number above 0 and at most 5")
    interval = data.get("post_interval")
    if interval is not None and (
        not isinstance(interval, int | float) or isinstance(interval, bool) or interval < 0
    ):
        raise ConfigError("forum.post_interval", "must be a number of seconds, 0 or more")
    order = data.get("date_order")
    if order is not None:
        order = _choice(order, DATE_ORDERS, "forum.date_order")
    per_hour = data.get("pms_per_hour")
    if per_hour is not None and (not isinstance(per_hour, int) or isinstance(per_hour, bool)
                                 or per_hour < 0):  # fmt: skip
        raise ConfigError("forum.pms_per_hour", "must be a whole number of PMs, 0 for no limit")
    return ForumSettings(url=url, engine=engine, requests_per_second=float(rate),
                         post_interval=None if interval is None else float(interval),
                         date_order=order, pms_per_hour=per_hour)  # fmt: skip


def _refuse_inline_secret(data: dict[str, Any]) -> None:
    for key in ("password", "pass", "token"):
        if key in data:
            raise ConfigError(
                f"credentials.{key}",
                "a password never goes in the game file; use password_env (an environment "
                "variable) or password_file (a file only you can read)",
            )


def _credentials(data: dict[str, Any]) -> CredentialSettings:
    _no_unknown_keys(data, ("username", "password_env", "password_file"), "credentials")
    env = data.get("password_env")
    file = data.get("password_file")
    if env and file:
        raise ConfigError("credentials", "give password_env or password_file, not both")
    if not env and not file:
        env = "FORUMBOT_PASSWORD"
    return CredentialSettings(
        username=_text(data, "username", "credentials"),
        password_env=str(env) if env else None,
        password_file=str(Path(str(file)).expanduser()) if file else None,
    )


def _players(data: Any) -> tuple[PlayerSettings, ...]:
    if isinstance(data, dict):  # short form: {Ann: sheriff, Bob: godfather}
        data = [{"name": name, "role": role} for name, role in data.items()]
    if not isinstance(data, list) or not data:
        raise ConfigError("players", "list at least one player")
    players: list[PlayerSettings] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(data):
        where = f"players[{index}]"
        if isinstance(entry, str):
            entry = {"name": entry}
        entry = _mapping(entry, where)
        _no_unknown_keys(entry, ("name", "role", "aliases", "forum_user_id"), where)
        name = _text(entry, "name", where)
        key = name.casefold().strip()
        if key in seen:
            raise ConfigError(f"{where}.name", f"{name!r} is listed twice (also {seen[key]})")
        seen[key] = where
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise ConfigError(f"{where}.aliases", "must be a list of names")
        role = entry.get("role")
        user_id = entry.get("forum_user_id")
        players.append(
            PlayerSettings(
                name=name,
                role=str(role) if role is not None else None,
                aliases=tuple(aliases),
                forum_user_id=str(user_id) if user_id is not None else None,
            )
        )
    return tuple(players)


def _schedule(data: dict[str, Any]) -> Schedule:
    keys = ("timezone", "first_phase", "start", "day", "night")
    _no_unknown_keys(data, keys, "schedule")
    zone_name = _text(data, "timezone", "schedule")
    try:
        zone = ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            "schedule.timezone", f"unknown time zone {zone_name!r} (e.g. Europe/Paris, UTC)"
        ) from None
    first = str(data.get("first_phase", "day1"))
    if not _PHASE.match(first) and first != "day0":
        raise ConfigError("schedule.first_phase", f"expected day1, night1, day0..., not {first!r}")
    start = data.get("start")
    if start is not None:
        start = _start_time(start, zone)
    return Schedule(
        timezone=zone,
        first_phase=first,
        start=start,
        day=_phase_length(data.get("day", {"length": "48h"}), "schedule.day"),
        night=_phase_length(data.get("night", {"length": "24h"}), "schedule.night"),
    )


def _start_time(value: Any, zone: ZoneInfo) -> datetime:
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            raise ConfigError(
                "schedule.start", f"expected a date and time like 2026-12-01 22:00, not {value!r}"
            ) from None
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment


def _phase_length(data: Any, where: str) -> PhaseLength:
    data = _mapping(data, where)
    _no_unknown_keys(data, ("length", "starts", "inner_deadlines"), where)
    starts = data.get("starts")
    inner = _mapping(data.get("inner_deadlines", {}), f"{where}.inner_deadlines")
    return PhaseLength(
        length=parse_duration(_required(data, "length", where), f"{where}.length"),
        starts=parse_clock(starts, f"{where}.starts") if starts is not None else None,
        inner_deadlines=tuple(
            (str(name), parse_clock(at, f"{where}.inner_deadlines.{name}"))
            for name, at in inner.items()
        ),
    )


def _votes(data: dict[str, Any]) -> dict[str, Any]:
    """The game's vote overrides: any key of a ruleset's ``vote:`` section, checked by the one
    vote schema (``resolver.votes``), as written (``docs/votes.md``)."""
    _no_unknown_keys(data, tuple(VOTE_DEFAULTS), "votes")
    syntax = data.get("syntax", [])
    for index, name in enumerate([syntax] if isinstance(syntax, str) else syntax):
        _choice(name, VOTE_SYNTAXES, f"votes.syntax[{index}]")
    if data.get("channel"):
        _choice(data["channel"], VOTE_CHANNELS, "votes.channel")
    try:
        read_vote(Reader("game file"), data, None, "votes")
    except RulesetError as exc:
        hint = f" (valid: {', '.join(exc.choices)})" if exc.choices else ""
        raise ConfigError(exc.path, f"{exc.problem}{hint}") from None
    return dict(data)


def _publishing(data: dict[str, Any]) -> PublishSettings:
    keys = ("mode", "receipts", "vote_count_every", "poll_interval")
    _no_unknown_keys(data, keys, "publishing")
    receipts = data.get("receipts", True)
    if not isinstance(receipts, bool):
        raise ConfigError("publishing.receipts", "must be true or false")
    every = data.get("vote_count_every")
    return PublishSettings(
        mode=_choice(data.get("mode", "approve"), PUBLISH_MODES, "publishing.mode"),
        receipts=receipts,
        vote_count_every=parse_duration(every, "publishing.vote_count_every") if every else None,
        poll_interval=parse_duration(data.get("poll_interval", "2m"), "publishing.poll_interval"),
    )


# --- blanks -------------------------------------------------------------------------------


def _blanks(data: Any, where: str) -> list[str]:
    """The dotted names of every ``FILL_IN`` value in the raw game data."""
    if data == BLANK:
        return [where]
    if isinstance(data, dict):
        return [b for key, value in data.items() for b in _blanks(value, _join(where, str(key)))]
    if isinstance(data, list):
        return [b for i, value in enumerate(data) for b in _blanks(value, f"{where}[{i}]")]
    return []


def _stood_in(data: Any, where: str) -> Any:
    """The raw game data with each blank replaced by its stand-in (or left out when the
    setting is optional), so the rest of the file is still checked."""
    if isinstance(data, dict):
        kept = {}
        for key, value in data.items():
            inner = _join(where, str(key))
            if value == BLANK:
                generic = re.sub(r"\[\d+\]", "", inner)  # players[2].name -> players.name
                if generic in _STAND_INS:
                    kept[key] = _STAND_INS[generic]
                continue
            kept[key] = _stood_in(value, inner)
        return kept
    if isinstance(data, list):
        return [_stood_in(value, f"{where}[{i}]") for i, value in enumerate(data)]
    return data


# --- small checks ---------------------------------------------------------------------------


def _mapping(value: Any, setting: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(setting, f"must be a mapping of settings, not {type(value).__name__}")
    return value


def _required(data: dict[str, Any], key: str, where: str) -> Any:
    if data.get(key) in (None, ""):
        raise ConfigError(_join(where, key), "is required")
    return data[key]


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = _required(data, key, where)
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise ConfigError(_join(where, key), f"must be text, not {value!r}")
    return str(value).strip()


def _choice(value: Any, choices: tuple[str, ...], setting: str) -> str:
    if value not in choices:
        raise ConfigError(setting, f"{value!r} is not one of: {', '.join(choices)}")
    return str(value)


def _no_unknown_keys(data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(known)}"
            raise ConfigError(_join(where, str(key)), f"unknown setting{hint}")


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
