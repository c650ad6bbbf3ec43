"""Turn the dates forums show ("Nov 27, 2026, 06:06 PM", "Today at 09:09 AM") into aware UTC.

Forums print times in the member's (or the board's) time zone and in a format the admin or
member chose, so this parser is deliberately tolerant: it finds a time of day, then either a
relative day word ("Today", "Yesterday", in English, French, Russian, German, Spanish) or a
date written with a month name (same languages) or with numbers. ``now`` (the server's clock,
from the HTTP ``Date`` header) decides which day "Today" is, in the forum's zone ``tz``.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal, cast, get_args

DateOrder = Literal["dmy", "mdy", "ymd"]
"""How a forum writes an all-numeric date: ``05/03/2026`` is 5 March under ``dmy`` (French and
Russian boards), 3 May under ``mdy``; ``ymd`` reads ``2026/03/05``."""
DATE_ORDERS: tuple[str, ...] = get_args(DateOrder)


def as_date_order(value: str | None) -> DateOrder | None:
    """A setting's text as a ``DateOrder`` (None stays None: guessed).

    Raises:
        ValueError: not one of ``dmy``, ``mdy``, ``ymd``.
    """
    if value is None:
        return None
    for order in get_args(DateOrder):
        if value == order:
            return cast(DateOrder, order)
    raise ValueError(f"date_order must be one of {', '.join(DATE_ORDERS)}, not {value!r}")


_MONTHS: dict[str, int] = {}


def _add_months(names: str) -> None:
    for number, group in enumerate(names.split(";"), start=1):
        for name in group.split(","):
            _MONTHS[name.strip()] = number


# English, French, German, Spanish, Russian (nominative, genitive, short forms).
_add_months(
    "january,jan,janvier,janv,januar,jän,enero,ene,январь,января,янв;"
    "february,feb,février,fevrier,févr,fevr,februar,febrero,февраль,февраля,фев;"
    "march,mar,mars,märz,maerz,marzo,март,марта,мар;"
    "april,apr,avril,avr,abril,abr,апрель,апреля,апр;"
    "may,mai,mayo,май,мая;"
    "june,jun,juin,juni,junio,июнь,июня,июн;"
    "july,jul,juillet,juil,juli,julio,июль,июля,июл;"
    "august,aug,août,aout,agosto,ago,август,августа,авг;"
    "september,sep,sept,septembre,septiembre,сентябрь,сентября,сен,сент;"
    "october,oct,octobre,oktober,okt,octubre,октябрь,октября,окт;"
    "november,nov,novembre,noviembre,ноябрь,ноября,ноя,нояб;"
    "december,dec,décembre,decembre,déc,dezember,dez,diciembre,dic,декабрь,декабря,дек"
)

_TODAY = re.compile(r"\b(today|aujourd['’]hui|heute|hoy)\b|сегодня", re.IGNORECASE)
_YESTERDAY = re.compile(r"\b(yesterday|hier|gestern|ayer)\b|вчера", re.IGNORECASE)
_MINUTES_AGO = re.compile(r"(\d+)\s*(?:minutes?|mins?|минут[уы]?)\s*(?:ago|назад)", re.IGNORECASE)
_JUST_NOW = re.compile(r"less than a minute ago|just now|только что", re.IGNORECASE)
_TIME = re.compile(
    r"(?<!\d)(\d{1,2})[:h](\d{2})(?::(\d{2}))?\s*([ap])?\.?\s*(m\b\.?)?", re.IGNORECASE
)
_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?!\d)")
_POST_NUMBER = re.compile(r"#\s*\d+")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_NUMBER = re.compile(r"(?<!\d)\d{1,4}(?!\d)")


def parse_forum_time(
    text: str, *, now: datetime, tz: tzinfo, order: DateOrder | None = None
) -> datetime:
    """Parse a date/time as a forum prints it.

    Args:
        text: the shown text, e.g. "November 27, 2026, 06:06:15 pm",
            "Today at 09:09 AM", "Sun Nov 29, 2026 1:05 pm", "Yesterday, 10:00",
            "5 minutes ago".
        now: the current time (aware), used for relative dates.
        tz: the zone the forum shows times in (the bot account's zone on that forum).
        order: how the forum orders an all-numeric date (the game file's
            ``forum.date_order``); None guesses: a 4-digit first number is the year, dots
            are day first, slashes month first unless the first number is above 12.

    Returns:
        The moment as an aware datetime in UTC.

    Raises:
        ValueError: no date could be read from ``text``.
    """
    # "Reply #31 on: ..." (SMF 2.0): a post number is not a day of the month.
    clean = " ".join(_POST_NUMBER.sub(" ", text.replace("\xa0", " ")).split())
    local_now = now.astimezone(tz)
    if _JUST_NOW.search(clean):
        return now.astimezone(UTC)
    ago = _MINUTES_AGO.search(clean)
    if ago:
        return (now - timedelta(minutes=int(ago.group(1)))).astimezone(UTC)
    clock, rest = _find_time(clean)
    if _TODAY.search(rest):
        day = local_now.date()
    elif _YESTERDAY.search(rest):
        day = local_now.date() - timedelta(days=1)
    else:
        day = _find_date(rest, clean, order)
    return datetime.combine(day, clock, tzinfo=tz).astimezone(UTC)


def _find_time(text: str) -> tuple[time, str]:
    match = _TIME.search(text)
    if not match:
        return time(0, 0), text
    hour, minute = int(match.group(1)), int(match.group(2))
    second = int(match.group(3) or 0)
    meridiem = (match.group(4) or "").lower()
    if meridiem and match.group(5):
        if hour == 12:
            hour = 0
        if meridiem == "p":
            hour += 12
    if hour > 23 or minute > 59 or second > 59:
        raise ValueError(f"not a time of day: {match.group(0)!r}")
    rest = text[: match.start()] + " " + text[match.end() :]
    return time(hour, minute, second), rest


def _find_date(rest: str, original: str, order: DateOrder | None) -> date:
    numeric = _NUMERIC_DATE.search(rest)
    if numeric:
        return _numeric_date(numeric, original, order)
    month: int | None = None
    for word in _WORD.findall(rest):
        month = _MONTHS.get(word.lower().rstrip("."))
        if month:
            break
    numbers = [int(n) for n in _NUMBER.findall(rest)]
    years = [n for n in numbers if n >= 1000]
    days = [n for n in numbers if 1 <= n <= 31]
    if month is None or not years or not days:
        raise ValueError(f"no date found in {original!r}")
    return date(years[0], month, days[0])


def _numeric_date(found: re.Match[str], original: str, order: DateOrder | None) -> date:
    """``a/b/c``, ``a.b.c`` or ``a-b-c`` in the forum's order (or the guessed one)."""
    first, sep, second, third = found.group(1), found.group(2), found.group(3), found.group(4)
    if len(first) == 4:  # a year first, whatever the setting: 2026-03-05
        order = "ymd"
    elif order is None:  # dots are day first; slashes month first unless it cannot be
        order = "mdy" if sep == "/" and int(first) <= 12 else "dmy"
    if order == "ymd":
        year, month, day = _year(first), int(second), int(third)
    elif order == "mdy":
        year, month, day = _year(third), int(first), int(second)
    else:
        year, month, day = _year(third), int(second), int(first)
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"no {order} date in {original!r}") from None


def _year(text: str) -> int:
    value = int(text)
    return value + 2000 if value < 100 else value
