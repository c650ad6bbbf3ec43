"""Small typed readers for the ruleset loader: each names the key path when it refuses."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from resolver.errors import RulesetError

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only view of a dict (the catalogue is never mutated after loading)."""
    return MappingProxyType(dict(mapping))


def deep_freeze(value: Any) -> Any:
    """Turn nested dicts/lists from YAML into read-only mappings and tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: deep_freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(deep_freeze(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Reader:
    """Reads raw YAML values for one source file, raising ``RulesetError`` with the path."""

    source: str

    def fail(self, path: str, problem: str, choices: Iterable[object] = ()) -> RulesetError:
        """Build (not raise) the error for ``path``."""
        return RulesetError(self.source, path, problem, choices)

    def mapping(
        self,
        value: Any,
        path: str,
        *,
        required: Iterable[str] = (),
        optional: Iterable[str] | None = None,
    ) -> Mapping[str, Any]:
        """A mapping with exactly the allowed keys (``optional=None``: any extra keys)."""
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(value).__name__}")
        required = tuple(required)
        for key in required:
            if key not in value:
                raise self.fail(_join(path, key), "missing required key")
        if optional is not None:
            allowed = set(required) | set(optional)
            for key in value:
                if key not in allowed:
                    raise self.fail(_join(path, str(key)), "unknown key", sorted(allowed))
        return value

    def ident(self, value: Any, path: str) -> str:
        """A snake_case id."""
        if not isinstance(value, str) or not SNAKE.match(value):
            raise self.fail(path, f"expected a snake_case id, got {value!r}")
        return value

    def text(self, value: Any, path: str) -> str:
        """Any string."""
        if not isinstance(value, str):
            raise self.fail(path, f"expected text, got {value!r}")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        """true / false."""
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {value!r}")
        return value

    def count(self, value: Any, path: str, *, allow_null: bool = True) -> int | None:
        """A non-negative integer (or null when allowed)."""
        if value is None and allow_null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(path, f"expected a non-negative integer, got {value!r}")
        return value

    def choice(self, value: Any, path: str, choices: Iterable[str]) -> str:
        """One of a closed set of strings."""
        choices = tuple(choices)
        if value not in choices:
            raise self.fail(path, f"unknown value {value!r}", choices)
        return str(value)

    def strings(self, value: Any, path: str) -> tuple[str, ...]:
        """A string or a list of strings, as a tuple."""
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise self.fail(path, f"expected a string or a list of strings, got {value!r}")
        return tuple(value)

    def idents(
        self, value: Any, path: str, choices: Iterable[str] | None = None
    ) -> tuple[str, ...]:
        """A list of ids, each checked against ``choices`` when given."""
        items = self.strings(value, path)
        allowed = tuple(choices) if choices is not None else None
        for i, item in enumerate(items):
            if allowed is not None and item not in allowed:
                raise self.fail(f"{path}[{i}]", f"unknown id {item!r}", allowed)
        return items

    def names(self, value: Any, path: str, languages: tuple[str, ...]) -> Mapping[str, str]:
        """Display names per language: ``{en: Check}`` (a list keeps its first entry)."""
        value = self.mapping(value, path, optional=languages)
        out = {}
        for lang, name in value.items():
            got = self.strings(name, _join(path, lang))
            if not got:
                raise self.fail(_join(path, lang), "empty name")
            out[lang] = got[0]
        return frozen(out)

    def vocabulary(
        self, value: Any, path: str, languages: tuple[str, ...]
    ) -> Mapping[str, tuple[str, ...]]:
        """Words per language: ``{en: [check, inv]}``; languages must be declared."""
        value = self.mapping(value, path, optional=languages)
        return frozen(
            {lang: self.strings(words, _join(path, lang)) for lang, words in value.items()}
        )


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


join = _join
