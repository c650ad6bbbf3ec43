"""The shell side of vote counting: read the files, call the pure counter, render the count post.

``forumbot count-votes`` calls :func:`count_from_files`; the rendering of the BBCode
vote-count post is :func:`render_vote_count`, from the Jinja2 template
``forumbot/templates/votes/vote_count.bbcode.j2`` (a GM may pass his own template file).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2
import yaml

from forumbot.errors import ConfigError
from forumbot.savedpages import PageError, read_saved_page
from parsers.roster import Roster, SetupError, roster_from_data
from parsers.votes import (
    CountResult,
    DaySetup,
    PostInput,
    Source,
    VoteRules,
    count_votes,
    day_from_data,
    result_as_json,
    rules_for,
)
from parsers.votes.config import vote_section
from resolver.errors import RulesetError
from resolver.model.catalogue import Ruleset
from resolver.ruleset import RULESETS_DIR, load_ruleset, parse_yaml
from resolver.votes import VOTE_DEFAULTS

TEMPLATES = Path(__file__).resolve().parent / "templates" / "votes"
RULESETS = RULESETS_DIR
DEFAULT_TEMPLATE = "vote_count.bbcode.j2"


@dataclass(frozen=True, slots=True)
class VoteCountJob:
    """Everything one ``count-votes`` run read, and its result."""

    ruleset: str
    rules: VoteRules
    roster: Roster
    day: DaySetup
    posts: tuple[PostInput, ...]
    result: CountResult
    engine: str | None = None
    zone: ZoneInfo | timezone | None = None  # the game's: times are shown in it


def _load_yaml(path: Path, what: str) -> Any:
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(what, f"cannot read {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(what, f"not valid YAML: {exc}", str(path)) from exc


def load_vote_rules(ruleset: str, setup: Mapping[str, Any]) -> VoteRules:
    """The vote rules: the ruleset's defaults, then its file's ``vote:``, then the game's.

    Args:
        ruleset: a ruleset id (``resolver/rulesets/<id>.yaml``) or a path to a ruleset file.
        setup: the loaded SETUP mapping (its ``vote:``/``votes:`` section overrides).

    Returns:
        The rules. A missing ruleset file is fine: the documented defaults apply.

    Raises:
        ConfigError: a bad ``vote:`` key, named.
    """
    path = Path(ruleset) if ruleset.endswith((".yaml", ".yml")) else RULESETS / f"{ruleset}.yaml"
    data = setup.get("vote") or setup.get("votes") or {}
    try:
        found = _ruleset(str(path), path.stat().st_mtime_ns) if path.is_file() else None
        return rules_for(found, data)
    except SetupError as exc:
        raise ConfigError(exc.key, exc.problem, str(path)) from exc
    except RulesetError as exc:
        raise ConfigError(exc.path or "ruleset", exc.problem, exc.source) from exc


@functools.lru_cache(maxsize=16)
def _ruleset(path: str, mtime_ns: int) -> Ruleset:
    """A ruleset file, loaded and validated once per version of the file (a tally reads its
    ``vote:`` from memory; a GM's edited file is read again)."""
    del mtime_ns  # part of the cache key only
    return load_ruleset(path)


def vote_rule_lines(ruleset: Ruleset, stated: Mapping[str, Any]) -> list[tuple[str, Any, bool]]:
    """The vote rules a game plays with, for ``game check``: (key, value, set by the game).

    Args:
        ruleset: the game's ruleset (its ``vote:`` section).
        stated: what the game file says under ``votes:``.

    Returns:
        Every key of the section, in the documented order.
    """
    base = vote_section(ruleset)  # the ruleset's own (its lynch_rule option applied)
    played = vote_section(ruleset, stated)  # the game's laid over it: what everyone reads
    out = []
    for key in VOTE_DEFAULTS:
        value = played.get(key)
        given = key in stated and _same(value) != _same(base.get(key))
        if key == "at_deadline" and value is None:
            value = f"(from rule: {'plurality' if played['rule'] == 'plurality' else 'no_lynch'})"
        elif isinstance(value, list | tuple):
            value = ", ".join(map(str, value)) or "(none)"
        elif isinstance(value, Mapping):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "(none)"
        out.append((key, value, given))
    return out


def _same(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def load_setup(path: Path) -> tuple[dict[str, Any], Roster, DaySetup]:
    """Read a SETUP file (``docs/setup-files.md``): the players, hosts and the day.

    Raises:
        ConfigError: unreadable file or a bad key, named.
    """
    data = _load_yaml(path, "setup")
    if not isinstance(data, dict):
        raise ConfigError("(top level)", "must be a mapping with a 'players' key", str(path))
    try:
        roster, day = roster_from_data(data), day_from_data(data)
    except SetupError as exc:
        raise ConfigError(exc.key, exc.problem, str(path)) from exc
    slots = {slot.name for slot in roster.slots}
    for name, _votes in day.added_votes:
        if name not in slots:
            raise ConfigError(f"day.added_votes.{name}", "is not a player of this setup", str(path))
    return data, roster, day


def forum_zone(setup: Mapping[str, Any]) -> ZoneInfo | timezone:
    """The time zone the forum displays times in (``timezone:`` or ``schedule.timezone``)."""
    schedule = setup.get("schedule")
    name = setup.get("timezone") or (
        schedule.get("timezone") if isinstance(schedule, dict) else None
    )
    if not name:
        return UTC
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError("timezone", f"unknown time zone '{name}'") from exc


def load_pages(
    paths: Sequence[Path], zone: ZoneInfo | timezone, saved_on: date | None = None
) -> tuple[str, list[PostInput]]:
    """Posts of saved topic pages, in the order given (page 1 first), numbered across pages.

    Topic pages are numbered by position, so pass every page from the first, in order (a
    page missing or out of order is an error). Saved PM pages (SMF inbox, phpBB PM view)
    give PMs, with their recipients. "Today"/"Yesterday" times are read against
    ``saved_on``, by default the day each file was last modified.

    Raises:
        ConfigError: a file unreadable, not a page of a known engine, or out of order.
    """
    posts: list[PostInput] = []
    engines = set()
    expected = 1
    for path in paths:
        try:
            html = path.read_text(encoding="utf-8", errors="replace")
            saved = saved_on or date.fromtimestamp(path.stat().st_mtime)
        except OSError as exc:
            raise ConfigError("pages", f"cannot read {path}: {exc.strerror}") from exc
        try:
            engine, page, found = read_saved_page(html, str(path), zone, saved)
        except PageError as exc:
            raise ConfigError("pages", str(exc), str(path)) from exc
        if page is not None:
            if page != expected:
                problem = f"{path.name} is topic page {page}, page {expected} was expected"
                raise ConfigError("pages", f"{problem}: give the pages from 1, in order")
            expected += 1
        engines.add(engine)
        posts.extend(found)
    numbered: list[PostInput] = []
    last = -1
    for post in posts:
        if post.source is Source.PM:  # PMs have no place in the thread
            numbered.append(post)
            continue
        last += 1
        numbered.append(replace(post, number=last))
    return "+".join(sorted(engines)), numbered


def _time(value: Any, zone: ZoneInfo | timezone, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError as exc:
        raise ConfigError(where, f"'{value}' is not an ISO date-time") from exc
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def load_posts_jsonl(path: Path, zone: ZoneInfo | timezone) -> list[PostInput]:
    """Stored posts, one JSON object a line, in thread order (``docs/votes.md``).

    Keys: ``id``, ``author`` (or ``user``), ``time`` (ISO; naive = forum zone), ``html`` (or
    ``body``/``content``), optional ``number`` (default: line index), ``source``
    (``thread``/``pm``), ``recipients``, ``previous_html``, ``edited``, ``edited_at``. A post
    id that comes again (fetched after an edit) is one edited post: the later text counts,
    the earlier one is its previous version.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError("posts", f"cannot read {path}: {exc.strerror}") from exc
    posts = []
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"posts line {index + 1}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(where, f"not JSON: {exc.msg}", str(path)) from exc
        if not isinstance(raw, dict) or "id" not in raw:
            raise ConfigError(where, "needs at least 'id', 'author' and 'html'", str(path))
        try:
            source = Source(raw.get("source", "thread"))
        except ValueError as exc:
            raise ConfigError(f"{where}.source", "must be 'thread' or 'pm'", str(path)) from exc
        posts.append(
            PostInput(
                id=str(raw["id"]),
                author=str(raw.get("author") or raw.get("user") or ""),
                html=str(raw.get("html") or raw.get("body") or raw.get("content") or ""),
                number=int(raw["number"]) if raw.get("number") is not None else index,
                time=_time(raw.get("time"), zone, f"{where}.time"),
                source=source,
                recipients=tuple(raw.get("recipients") or ()),
                previous_html=raw.get("previous_html"),
                edited=bool(raw.get("edited", False)),
                edited_at=_time(raw.get("edited_at"), zone, f"{where}.edited_at"),
            )
        )
    return _merge_versions(posts)


def _merge_versions(posts: list[PostInput]) -> list[PostInput]:
    """A post stored twice (fetched again after an edit) is one edited post: the last text,
    with the first as ``previous_html``, at the place of the first."""
    merged: dict[str, PostInput] = {}
    for post in posts:
        first = merged.get(post.id)
        if first is None:
            merged[post.id] = post
        elif first.html != post.html:
            merged[post.id] = replace(
                post, number=first.number, time=first.time or post.time, edited=True,
                previous_html=post.previous_html or first.previous_html or first.html,
            )  # fmt: skip
    return list(merged.values())


def count_from_files(
    ruleset: str,
    setup_path: Path,
    pages: Sequence[Path] = (),
    posts_path: Path | None = None,
    from_post: int | None = None,
    to_post: int | None = None,
    saved_on: date | None = None,
    now: datetime | None = None,
) -> VoteCountJob:
    """Read a SETUP file and saved pages or stored posts, and count the votes.

    The Day is over (the deadline rule decides) when the SETUP says ``day.ended: true`` or
    its deadline is before ``now`` (default: the current time).

    Raises:
        ConfigError: missing or bad input, named.
    """
    setup, roster, day = load_setup(setup_path)
    rules = load_vote_rules(ruleset, setup)
    zone = forum_zone(setup)
    if bool(pages) == bool(posts_path):
        raise ConfigError(
            "input", "give saved pages (PAGE.html...) or --posts FILE.jsonl: one of the two"
        )
    engine = None
    if posts_path is not None:
        posts = load_posts_jsonl(posts_path, zone)
    else:
        engine, posts = load_pages(pages, zone, saved_on)
    low = from_post if from_post is not None else -1
    high = to_post if to_post is not None else 10**12
    window = [p for p in posts if p.number is None or low <= p.number <= high]
    moment = now or datetime.now(UTC)
    if day.deadline is not None and moment >= day.deadline:
        day = replace(day, ended=True)
    result = count_votes(window, roster, rules, day)
    return VoteCountJob(ruleset, rules, roster, day, tuple(window), result, engine, zone)


def job_as_json(job: VoteCountJob) -> dict[str, Any]:
    """The ``count-votes --json`` payload: the counter's result plus what was read."""
    numbers = [p.number for p in job.posts if p.number is not None]
    return {
        "ruleset": job.ruleset,
        "engine": job.engine,
        "window": {
            "from_post": min(numbers) if numbers else None,
            "to_post": max(numbers) if numbers else None,
            "posts": len(job.posts),
        },
        "day": job.day.number,
        "deadline": job.day.deadline.isoformat() if job.day.deadline else None,
        "rule": job.rules.rule.value,
        "tie_rule": job.rules.tie.value,
        **result_as_json(job.result),
    }


def _shown(moment: datetime | None, zone: ZoneInfo | timezone | None) -> str | None:
    """A time as a GM reads it: in the game's zone, to the minute ("2026-12-03 18:00 CET")."""
    if moment is None:
        return None
    local = moment.astimezone(zone) if zone is not None else moment
    return f"{local:%Y-%m-%d %H:%M} {local.tzname() or ''}".strip()


def _time_left(deadline: datetime | None, now: datetime) -> str | None:
    if deadline is None:
        return None
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "deadline passed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d"] if days else []
    parts += [f"{hours}h", f"{minutes:02d}m"]
    return " ".join(parts) + " left"


def render_vote_count(
    job: VoteCountJob,
    now: datetime,
    template: Path | None = None,
    zone: ZoneInfo | timezone | None = None,
) -> str:
    """The BBCode vote-count post for the forum.

    Args:
        job: the count.
        now: the current time (for the time left to the deadline).
        template: a GM's own template file; default ``templates/votes/vote_count.bbcode.j2``.
        zone: the game's time zone: the deadline is shown in it, to the minute (default:
            the deadline's own offset).

    Returns:
        The post text.

    Raises:
        ConfigError: the template cannot be read or fails.
    """
    folder, name = (template.parent, template.name) if template else (TEMPLATES, DEFAULT_TEMPLATE)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=False,  # BBCode, not HTML
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    data = job_as_json(job)
    context = {
        **data,
        "time_left": _time_left(job.day.deadline, now),
        "as_of": data["window"]["to_post"],
        "deadline_shown": _shown(job.day.deadline, zone or job.zone),
        "majority_rule": job.rules.rule.value == "majority" or job.rules.majority_ends_day,
        "outcome": job.result.decision.outcome,
    }
    try:
        return env.get_template(name).render(**context)
    except jinja2.TemplateError as exc:
        raise ConfigError("template", str(exc), str(folder / name)) from exc
