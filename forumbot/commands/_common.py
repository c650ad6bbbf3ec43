"""Helpers shared by command modules: JSON output and turning our errors into clean exits."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from forumbot.errors import ForumbotError

F = TypeVar("F", bound=Callable[..., Any])


def echo_json(data: Any) -> None:
    """Print ``data`` as indented UTF-8 JSON (names stay readable, no ``\\u`` escapes)."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str))


def clean_errors(func: F) -> F:
    """Turn a ForumbotError (and its kin from the other layers) into a one-line message, exit 2.

    A GM sees ``Error: setting 'players': ...`` instead of a traceback. Unexpected
    exceptions still show their traceback: they are bugs and should be reported.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ForumbotError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(2)
        except Exception as exc:
            if _is_expected_layer_error(exc):
                click.echo(f"Error: {exc}", err=True)
                sys.exit(2)
            problem = database_problem(exc)
            if problem:
                click.echo(f"Error: {problem}", err=True)
                sys.exit(2)
            raise

    return wrapper  # type: ignore[return-value]


def database_problem(exc: BaseException) -> str | None:
    """One sentence for a database that cannot be read or written (full disk, read-only file,
    locked, unreachable server), or None if ``exc`` is something else."""
    from sqlalchemy.exc import OperationalError

    if not isinstance(exc, OperationalError):
        return None
    cause = str(exc.orig).strip() or type(exc.orig).__name__
    return (
        f"the database cannot be used ({cause}): check that its disk has free space, that "
        "the database file and its folder are writable, or that its server is up; nothing "
        "was lost (what was not stored is read again from the forum next time)"
    )


def _is_expected_layer_error(exc: Exception) -> bool:
    """True for the root exceptions of the adapters, parsers and resolver layers."""
    roots = {"ForumError", "ResolverError", "ParserError"}
    return any(cls.__name__ in roots for cls in type(exc).__mro__)
