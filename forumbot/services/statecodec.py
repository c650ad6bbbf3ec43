"""Resolver state to JSON and back, for ``Phase.state_after`` (readable by a GM, exact).

Generic over frozen dataclasses: a dataclass becomes a mapping of its fields, tuples and
frozensets become lists, and reading follows the dataclass's type hints back to the same
types (nested dataclasses, ``tuple[X, ...]``, fixed tuples, ``frozenset``, optionals).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")


def encode(value: Any) -> Any:
    """A JSON-friendly copy of ``value``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted((encode(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def decode(cls: type[T], data: Any) -> T:
    """Rebuild a ``cls`` (a dataclass) from ``encode``'s output."""
    return _decode(cls, data)  # type: ignore[no-any-return]


def _decode(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    origin, args = get_origin(tp), get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _decode(options[0], value) if len(options) == 1 else value
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        known = {f.name for f in dataclasses.fields(tp)}
        return tp(**{k: _decode(hints[k], v) for k, v in value.items() if k in known})  # type: ignore[operator]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=False))
    if origin in (frozenset, set):
        return frozenset(_decode(args[0], v) for v in value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value
