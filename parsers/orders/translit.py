"""Russian written in Latin letters ("lechu Varvaru, ee otravili"), as players without a
Cyrillic keyboard write it: back to Cyrillic, so the PM is read like any Russian PM."""

from __future__ import annotations

import re

# Longest first: "shch" before "sh" before "s"; the common forum spellings of each letter.
_PAIRS = (
    ("shch", "щ"), ("sch", "щ"), ("sh", "ш"), ("ch", "ч"), ("zh", "ж"), ("kh", "х"),
    ("ts", "ц"), ("yo", "ё"), ("yu", "ю"), ("ya", "я"), ("ju", "ю"), ("ja", "я"),
    ("jo", "ё"), ("e'", "э"), ("a", "а"), ("b", "б"), ("v", "в"), ("g", "г"), ("d", "д"),
    ("e", "е"), ("z", "з"), ("i", "и"), ("j", "й"), ("k", "к"), ("l", "л"), ("m", "м"),
    ("n", "н"), ("o", "о"), ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"),
    ("f", "ф"), ("h", "х"), ("c", "ц"), ("y", "ы"), ("w", "в"), ("x", "кс"), ("q", "к"),
    ("'", "ь"),
)  # fmt: skip
# ASCII case only: "İ" (whose case fold is two characters) is no "i" here.
_PATTERN = re.compile("|".join(re.escape(latin) for latin, _ in _PAIRS), re.IGNORECASE | re.ASCII)
_TABLE = dict(_PAIRS)
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
_LATIN = re.compile("[a-z]", re.IGNORECASE)


def is_latin_only(text: str) -> bool:
    """True when the text has Latin letters and no Cyrillic one."""
    return bool(_LATIN.search(text)) and not _CYRILLIC.search(text)


def to_cyrillic(text: str) -> str:
    """The text with its Latin letters read as Russian transliteration ("lechu" -> "лечу",
    "Varvaru" -> "Варвару"; a capital stays a capital)."""

    def one(match: re.Match[str]) -> str:
        latin = match.group(0)
        cyrillic = _TABLE[latin.casefold()]
        return cyrillic.capitalize() if latin[:1].isupper() else cyrillic

    return _PATTERN.sub(one, text)
