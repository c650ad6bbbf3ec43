"""``forumbot init``: a game file drafted from an existing thread, with its evidence.

Each setting the thread supports is proposed with a comment naming what it came from (the
title, the GM's rules post, the players' votes); what the thread does not tell is left as a
``FILL_IN`` blank with a comment saying what to fill in, which ``forumbot game check``
reports and ``forumbot run`` refuses (``forumbot.gamefile.require_filled``). Never a guess
presented as fact. Nothing here talks to the forum: the caller hands in the thread.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import lxml.html
import yaml
from lxml.etree import ParserError

from forumbot.gamefile import BLANK
from parsers.votes import rules_from_data
from parsers.votes.detect import detect_syntaxes, suggest_syntaxes
from resolver.model.catalogue import Ruleset
from resolver.ruleset import RULESETS_DIR, load_ruleset

Reader = Callable[[str, str, str], tuple[str, list[tuple[str, str, datetime]]]]
"""(url, engine, username) -> (title, [(author, body_html, posted_at), ...]) of the thread,
in order (``posted_at`` aware)."""

LANGUAGE_NAMES = {"en": "English", "fr": "French", "ru": "Russian"}


@dataclass(frozen=True, slots=True)
class Proposal:
    """A value for the game file and the comment written next to it: its evidence, or (for
    a ``FILL_IN`` blank) what to fill in."""

    value: object
    note: str


@dataclass(frozen=True, slots=True)
class Thread:
    """The thread as ``init`` reads it: title, GM, the GM's posts and the players' posts."""

    title: str
    gm: str
    gm_posts: tuple[str, ...]  # HTML, in thread order
    player_posts: tuple[tuple[str, str], ...]  # (author, HTML), the GM's and bot's left out
    gm_times: tuple[datetime, ...] = ()  # when each of the GM's posts was made

    @classmethod
    def of(cls, title: str, posts: list[tuple[str, str, datetime]], bot: str) -> Thread:
        """Split a thread's posts: the topic starter is the GM; the bot's posts are nobody's."""
        gm = posts[0][0] if posts else ""
        return cls(title=title, gm=gm,
                   gm_posts=tuple(body for author, body, _ in posts if author == gm),
                   player_posts=tuple((a, b) for a, b, _ in posts if a not in (gm, bot)),
                   gm_times=tuple(at for author, _, at in posts if author == gm))  # fmt: skip

    @property
    def gm_texts(self) -> tuple[str, ...]:
        """The GM's posts as plain text."""
        return tuple(_text_cached(body) for body in self.gm_posts)

    @property
    def posters(self) -> list[str]:
        """Everyone who posted, but the GM and the bot, in order of their first post."""
        return list(dict.fromkeys(author for author, _ in self.player_posts))


def draft_game_file(url: str, engine: str, username: str, reader: Reader) -> str:
    """The game file ``forumbot init`` writes for a thread (YAML with comments)."""
    title, posts = reader(url, engine, username)
    thread = Thread.of(title, posts, username)
    language = language_of([thread.title, *thread.gm_texts,
                            *(text_of(b) for _, b in thread.player_posts)])  # fmt: skip
    ruleset = propose_ruleset(thread, language)
    lines = [
        f"# Game file drafted by 'forumbot init' from {url}",
        f"# Every {BLANK} is yours to fill in: 'forumbot game check' lists those left and",
        "# 'forumbot run' refuses the game until none is. A proposal names its evidence after",
        "# '#': check it against the thread.",
        f"name: {_scalar(_slug(title) or 'my-game')}",
        "forum:",
        f"  url: {_scalar(url)}",
        f"  engine: {_scalar(engine)}",
        "credentials:",
        f"  username: {_scalar(username)}",
        "  password_env: FORUMBOT_PASSWORD  # the password is read from this variable",
        _line("gm", Proposal(thread.gm, "the topic starter") if thread.gm else _blank_gm()),
        _line("ruleset", ruleset),
        *_players(propose_players(thread), ruleset),
        "schedule:",
        *_schedule(thread),
        *_votes(thread),
        "publishing:",
        "  mode: approve  # every post and PM waits for your approval (forumbot queue --drafts)",
        "  receipts: true",
        "  poll_interval: 2m",
    ]
    return "\n".join(lines) + "\n"


# --- what the thread tells -------------------------------------------------------------------

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LATIN = re.compile(r"[a-zàâçéèêëîïôûùüÿœ]", re.IGNORECASE)
_STOPWORDS = {
    "en": {"the", "and", "is", "you", "to", "of", "day", "night", "players", "vote", "with",
           "are", "will", "ends", "your", "for", "in", "by", "a"},
    "fr": {"le", "la", "les", "des", "est", "et", "vous", "une", "pour", "du", "nuit", "jour",
           "joueurs", "votez", "avec", "sont", "dans", "par", "un", "votre", "se"},
}  # fmt: skip


def language_of(texts: Iterable[str]) -> str | None:
    """The language the thread is written in (en, fr, ru), or None when it is unclear."""
    text = " ".join(texts)
    cyrillic, latin = len(_CYRILLIC.findall(text)), len(_LATIN.findall(text))
    if cyrillic > latin:
        return "ru"
    words = re.findall(r"[a-zàâçéèêëîïôûùüÿœ']+", text.casefold())
    scores = {lang: sum(w in stop for w in words) for lang, stop in _STOPWORDS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    other = min(scores.values())
    return best if scores[best] >= 3 and scores[best] >= 2 * other else None


def propose_ruleset(thread: Thread, language: str | None) -> Proposal:
    """The bundled ruleset the thread names (its title) or whose roles its GM's posts name."""
    rulesets = bundled_rulesets()
    fits = [r for r in rulesets if language is None or language in r.languages]
    said = " ".join([thread.title, *thread.gm_texts]).casefold()
    for ruleset in fits:
        for title in ruleset.title.values():
            if title.casefold() in said or re.search(rf"\b{ruleset.id}\b", said):
                return Proposal(ruleset.id, f'the thread names it: "{title}"')
    hits = {r.id: _roles_named(r, fits, said) for r in fits}
    ranked = sorted(hits.items(), key=lambda item: -len(item[1]))
    if ranked and len(ranked[0][1]) >= 2 and (len(ranked) == 1 or len(ranked[1][1]) == 0):
        named = ", ".join(f'"{n}"' for n in ranked[0][1][:4])
        return Proposal(ranked[0][0], f"the GM's posts name its roles: {named}")
    fits.sort(key=lambda r: r.languages[0] != language)  # written in it first, then translated
    where = f"the posts are in {LANGUAGE_NAMES[language]}; " if language else ""
    return Proposal(BLANK, f"which ruleset: {', '.join(r.id for r in fits)} ({where}no post "
                           "names a ruleset or its roles)")  # fmt: skip


@functools.cache
def bundled_rulesets() -> tuple[Ruleset, ...]:
    """The rulesets shipped with forumbot (``resolver/rulesets/``), by id."""
    return tuple(load_ruleset(path.stem) for path in sorted(RULESETS_DIR.glob("*.yaml")))


def _roles_named(ruleset: Ruleset, others: list[Ruleset], said: str) -> list[str]:
    """The names of this ruleset's roles the text holds, those no other candidate shares."""
    theirs = {term for other in others if other.id != ruleset.id for term in _role_terms(other)}
    found: list[str] = []
    for role in ruleset.roles.values():
        terms = [t for t in _terms_of_role(role.name.values(), role.vocabulary) if t not in theirs]
        hit = next((t for t in terms if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", said)), None)
        if hit is not None:
            found.append(hit)
    return found


def _role_terms(ruleset: Ruleset) -> set[str]:
    return {t for role in ruleset.roles.values()
            for t in _terms_of_role(role.name.values(), role.vocabulary)}  # fmt: skip


def _terms_of_role(names: Iterable[str], vocabulary: Mapping[str, tuple[str, ...]]) -> list[str]:
    """A role's names and words in every language (short ones like "don" say too little)."""
    words = [*names, *(w for terms in vocabulary.values() for w in terms)]
    return [w.casefold() for w in words if len(w) >= 4]


_PHASE_NAME = re.compile(
    r"(?<!\w)(?:(day|jour|день|дня|дне)|(night|nuit|ночь|ночи))\s*(\d{1,2})(?!\w)", re.IGNORECASE
)


def propose_first_phase(thread: Thread) -> Proposal:
    """The phase the title names, else the one the GM's latest post naming a phase names."""
    match = _PHASE_NAME.search(thread.title)
    if match is not None:
        return Proposal(_phase(match), f'from the title "{thread.title}"')
    for text in reversed(thread.gm_texts):
        found = list(_PHASE_NAME.finditer(text))
        if found:
            return Proposal(
                _phase(found[-1]), f'the GM\'s latest post says "{_around(text, found[-1])}"'
            )
    return Proposal(BLANK, "the phase the game is in when the bot takes over: day1 or night1 "
                           "(neither the title nor the GM's posts name one)")  # fmt: skip


_OPENS = re.compile(
    r"(?:starts|begins|has begun|is open|commence|a commencé|débute|начался|началась|начинается)"
    r"(?!\w)",
    re.IGNORECASE,
)


def propose_start(thread: Thread, first_phase: Proposal) -> Proposal:
    """When the first phase began: the GM's latest post saying it starts ("Day 1 starts
    now", "Ночь 1 началась"), so the votes already in the thread count."""
    if first_phase.value != BLANK:
        for text, at in reversed(list(zip(thread.gm_texts, thread.gm_times, strict=True))):
            for match in _PHASE_NAME.finditer(text):
                if _phase(match) == first_phase.value and _OPENS.match(
                    text[match.end() :].lstrip(" :,")
                ):
                    when = at.astimezone(UTC).strftime("%Y-%m-%d %H:%M+00:00")
                    return Proposal(
                        when, f'the GM\'s post of {when[:16]} UTC says "{_around(text, match)}"'
                    )
    return Proposal(BLANK, "when the first phase began, e.g. 2026-12-01 18:00 (votes and "
                           "orders before it do not count), or delete this line: it starts "
                           "when `run` first sees the game")  # fmt: skip


def _phase(match: re.Match[str]) -> str:
    return f"{'day' if match.group(1) else 'night'}{int(match.group(3))}"


_PLAYERS_HEADING = re.compile(r"(players|joueurs|inscrits|participants|игроки|участники|список)",
                              re.IGNORECASE)  # fmt: skip


def propose_players(thread: Thread) -> Proposal:
    """The GM's player list (a list in a GM post under a "Players" heading, or whose names
    posted), else the thread's posters; a list of names."""
    posters = {p.casefold() for p in thread.posters}
    for number, body in enumerate(thread.gm_posts, start=1):
        for heading, items in _lists_of(body):
            known = sum(item.casefold() in posters for item in items)
            if len(items) >= 2 and (_PLAYERS_HEADING.search(heading) or 2 * known >= len(items)):
                return Proposal(items, f"the GM's player list (the GM's post {number})")
    if thread.posters:
        note = "the thread's posters but the GM and the bot (no player list in the GM's posts)"
        return Proposal(thread.posters, f"{note}: remove who is not playing")
    return Proposal(BLANK, "nobody posted: list the players")


def _lists_of(body: str) -> list[tuple[str, list[str]]]:
    """Each HTML list of a post: (the text just before it, its items as names)."""
    root = _fragment(body)
    if root is None:
        return []
    found = []
    for element in root.iter("ul", "ol"):
        items = [" ".join(li.text_content().split()) for li in element.iter("li")]
        items = [i for i in items if 0 < len(i) <= 40 and len(i.split()) <= 4]
        before = "".join(element.xpath("preceding::text()")[-6:])
        found.append((before[-80:], list(dict.fromkeys(items))))
    return found


_KIND = r"(?<!\w)(?:(days?|jours?|день|дни|дня)|(nights?|nuits?|ночь|ночи))(?!\w)"
_LENGTH = re.compile(  # "the day lasts 48 hours", "la nuit dure 24 heures", "день длится 24 часа"
    _KIND + r"[^.!?\n]{0,20}?(?<!\w)(?:lasts?|are|dure(?:nt|ra)?|длится|длятся|продлится)\s+"
    r"(\d{1,3})\s*(hours?|h|heures?|час\w*|days?|jours?|дн\w*|сут\w*)(?!\w)",
    re.IGNORECASE,
)
_TIME_SAID = re.compile(r"\d{1,2}[:h]\d{2}|\d+\s*(hours?|heures?|час\w*|h)(?!\w)", re.IGNORECASE)
_ZONES = (
    (re.compile(r"(?<!\w)(UTC|GMT)(?!\s?[+-]\s?\d)"), "UTC"),
    (re.compile(r"(?<!\w)(МСК|MSK|по Москве|Moscow time|heure de Moscou)", re.IGNORECASE),
     "Europe/Moscow"),
    (re.compile(r"(heure de Paris|heure française|Paris time)", re.IGNORECASE), "Europe/Paris"),
    (re.compile(r"(?<!\w)CES?T(?!\w)"), "Europe/Paris"),
    (re.compile(r"(?<!\w)(?:E[SD]T|Eastern time)(?!\w)"), "America/New_York"),
    (re.compile(r"(?<!\w)(?:C[SD]T|Central time)(?!\w)"), "America/Chicago"),
    (re.compile(r"(?<!\w)(?:M[SD]T|Mountain time)(?!\w)"), "America/Denver"),
    (re.compile(r"(?<!\w)(?:P[SD]T|Pacific time)(?!\w)"), "America/Los_Angeles"),
    (re.compile(r"(?<!\w)(?:BST|UK time|London time|heure de Londres)(?!\w)"), "Europe/London"),
    (re.compile(r"(?<!\w)(?:по Киеву|по киевскому времени|Kyiv time|Kiev time)", re.IGNORECASE),
     "Europe/Kyiv"),
)  # fmt: skip
# "UTC+3", "GMT-05:00": a whole-hour offset is the fixed zone Etc/GMT∓N (POSIX inverts the sign).
_OFFSET = re.compile(r"(?<!\w)(?:UTC|GMT)\s?([+-])\s?(\d{1,2})(?::?00)?(?![\d:])")


def propose_length(thread: Thread, kind: str) -> Proposal:
    """How long a day (or night) lasts, from the GM's latest post stating it; else a blank
    quoting the GM's latest sentence about that phase's time ("Day 1 ends in 12 hours" says
    when one day ends, not how long days last)."""
    for text in reversed(thread.gm_texts):
        for match in reversed(list(_LENGTH.finditer(text))):
            if (kind == "day") == bool(match.group(1)):
                unit = "d" if match.group(4).casefold()[0] in "djдс" else "h"
                return Proposal(f"{int(match.group(3))}{unit}",
                                f'the GM wrote "{_around(text, match)}"')  # fmt: skip
    example = "48h" if kind == "day" else "24h"
    said = _latest_time_said(thread, kind)
    hint = f'; the GM wrote "{said}"' if said else ""
    return Proposal(BLANK, f"how long a {kind} lasts, e.g. {example}{hint}")


def _latest_time_said(thread: Thread, kind: str) -> str | None:
    """The GM's latest sentence naming this kind of phase and a time ("ends at 18:00")."""
    for text in reversed(thread.gm_texts):
        for sentence in reversed(re.split(r"(?<=[.!?])\s+|\n", text)):
            found = re.search(_KIND, sentence, re.IGNORECASE)
            if found and (kind == "day") == bool(found.group(1)) and _TIME_SAID.search(sentence):
                return sentence.strip()[:100].replace('"', "'")
    return None


def propose_timezone(thread: Thread) -> Proposal:
    """The time zone the GM's posts give their times in, when they name exactly one."""
    found: dict[str, str] = {}
    for text in thread.gm_texts:
        for pattern, zone in _ZONES:
            match = pattern.search(text)
            if match is not None:
                found.setdefault(zone, _around(text, match))
        for match in _OFFSET.finditer(text):
            hours = int(match.group(2))
            if hours <= 12:
                sign = "-" if match.group(1) == "+" else "+"
                zone = f"Etc/GMT{sign}{hours}" if hours else "UTC"
                found.setdefault(zone, _around(text, match))
    if len(found) == 1:
        zone, said = next(iter(found.items()))
        return Proposal(zone, f'the GM wrote "{said}"')
    named = f" (the GM's posts name {', '.join(found)})" if found else ""
    return Proposal(BLANK, f"the time zone of the deadlines, e.g. UTC, Europe/Paris{named}")


# --- writing ---------------------------------------------------------------------------------


def _players(players: Proposal, ruleset: Proposal) -> list[str]:
    which = (
        f"a role id of {ruleset.value}" if ruleset.value != BLANK else "a role id of the ruleset"
    )
    if players.value == BLANK:
        return [f"players:  # {players.note}", f"  - name: {BLANK}",
                f"    role: {BLANK}  # {which}"]  # fmt: skip
    assert isinstance(players.value, list)
    lines = [f"players:  # {players.note}"]
    for name in players.value:
        lines += [f"  - name: {_scalar(name)}", f"    role: {BLANK}  # {which}"]
    return lines


def _schedule(thread: Thread) -> list[str]:
    first = propose_first_phase(thread)
    return [
        _line("  timezone", propose_timezone(thread)),
        _line("  first_phase", first),
        _line("  start", propose_start(thread, first)),
        "  day:",
        _line("    length", propose_length(thread, "day")),
        "  night:",
        _line("    length", propose_length(thread, "night")),
    ]


def _votes(thread: Thread) -> list[str]:
    counts = detect_syntaxes([body for _, body in thread.player_posts], rules_from_data({}))
    syntax = suggest_syntaxes(counts)
    if not syntax:  # the ruleset's vote syntax
        return []
    used = ", ".join(f"{s.value} in {counts[s]} posts" for s in syntax)
    return [
        "votes:",
        f"  syntax: [{', '.join(s.value for s in syntax)}]  # the players' votes: {used}",
    ]


def _blank_gm() -> Proposal:
    return Proposal(BLANK, "the GM's forum name (the thread has no posts)")


def _line(key: str, proposal: Proposal) -> str:
    return f"{key}: {_scalar(proposal.value)}  # {proposal.note}"


def _scalar(value: object) -> str:
    """A YAML scalar: plain when it reads back as itself, else double-quoted."""
    text = str(value)
    if re.fullmatch(r"[\w./:@-]+", text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


_BLOCKS = ("br", "li", "p", "div", "ul", "ol", "blockquote", "tr", "hr")


@functools.lru_cache(maxsize=1024)
def _text_cached(html: str) -> str:
    return text_of(html)


def text_of(html: str) -> str:
    """A post's text, its markup dropped (quotes included: what the GM wrote and quoted)."""
    root = _fragment(html)
    if root is None:
        return ""
    for element in root.iter(*_BLOCKS):  # a line break or list item ends a sentence
        element.tail = "\n" + (element.tail or "")
    return "\n".join(" ".join(line.split()) for line in root.text_content().splitlines())


def _fragment(html: str) -> lxml.html.HtmlElement | None:
    try:
        return lxml.html.fragment_fromstring(html, create_parent="div")
    except (ParserError, ValueError):
        return None


def _around(text: str, match: re.Match[str]) -> str:
    """The match and up to five words either side of it on its line, for a comment."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = len(text) if text.find("\n", match.end()) < 0 else text.find("\n", match.end())
    before, after = text[start : match.start()], text[match.end() : end]
    head = re.search(r"(?:\S+\s*){0,5}$", before)
    tail = re.match(r"(?:\s*\S+){0,5}", after)
    assert head is not None and tail is not None  # both match the empty string
    cut = ("..." if head.group(0) != before.lstrip() else "",
           "..." if tail.group(0) != after.rstrip() else "")  # fmt: skip
    return (cut[0] + head.group(0) + match.group(0) + tail.group(0) + cut[1]).replace('"', "'")


def _slug(text: str) -> str:
    keep = [c.lower() if c.isalnum() else "-" for c in text]
    return "-".join(part for part in "".join(keep).split("-") if part)[:60]
