"""The resolver's exceptions: one root, ``ResolverError``; messages built from typed fields."""

from __future__ import annotations

from collections.abc import Iterable


class ResolverError(Exception):
    """Root of every error the resolver raises on purpose."""


class RulesetError(ResolverError, ValueError):
    """A ruleset file is broken; raised when it is loaded, never mid-game.

    Attributes:
        source: the file (or ruleset id) at fault.
        path: the key path inside it, dotted (``abilities.check.targets[0].kind``).
        problem: what is wrong, in words a GM understands.
        choices: the valid values, when there is a closed set of them.
    """

    def __init__(
        self, source: str, path: str, problem: str, choices: Iterable[object] = ()
    ) -> None:
        self.source = source
        self.path = path
        self.problem = problem
        self.choices = tuple(str(c) for c in choices)
        hint = f" (valid: {', '.join(self.choices)})" if self.choices else ""
        where = f" at '{path}'" if path else ""
        super().__init__(f"{source}{where}: {problem}{hint}")


class ScenarioError(ResolverError, ValueError):
    """A scenario (scripted game) is malformed: unknown player, role, phase or option.

    Attributes:
        path: the key path inside the scenario (``phases[2].orders[0].actor``).
        problem: what is wrong.
        choices: the valid values, when there is a closed set of them.
    """

    def __init__(self, path: str, problem: str, choices: Iterable[object] = ()) -> None:
        self.path = path
        self.problem = problem
        self.choices = tuple(str(c) for c in choices)
        hint = f" (valid: {', '.join(self.choices)})" if self.choices else ""
        super().__init__(f"scenario '{path}': {problem}{hint}")


class InvariantViolation(ResolverError):
    """A bug: the game state became inconsistent. Never an expected outcome."""
