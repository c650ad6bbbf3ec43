"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import enum
from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, Enum
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

#: JSON everywhere, JSONB on PostgreSQL (indexable, compact).
JSONType = JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on both engines.

    SQLite has no time zones: values are stored as naive UTC and read back aware.
    A naive datetime is refused on write, because guessing its zone is how vote
    deadlines end up an hour off.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: forumbot stores aware UTC times only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def enum_column(enum_cls: type[enum.Enum]) -> Enum:
    """A portable enum column: stored as its string value, checked by the database."""
    return Enum(
        enum_cls,
        native_enum=False,
        create_constraint=True,
        length=max(len(str(m.value)) for m in enum_cls) + 8,
        values_callable=lambda cls: [str(m.value) for m in cls],
        name=f"ck_{enum_cls.__name__.lower()}",
    )


def choice_column(values: tuple[str, ...], name: str) -> Enum:
    """A portable column of one of ``values`` (strings), checked by the database like
    :func:`enum_column` (same CHECK, same length rule)."""
    return Enum(
        *values,
        native_enum=False,
        create_constraint=True,
        length=max(len(v) for v in values) + 8,
        name=name,
    )


def utcnow() -> datetime:
    """The current time, aware UTC (the shell's only clock for row timestamps)."""
    return datetime.now(UTC)
