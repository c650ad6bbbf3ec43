"""Compare a ``simulate`` report with a scenario's ``expect`` blocks (subset matching)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def matches(actual: Any, expected: Any) -> bool:
    """True if ``expected`` is a sub-structure of ``actual`` (mappings: listed keys only)."""
    if isinstance(expected, Mapping):
        return isinstance(actual, Mapping) and all(
            k in actual and matches(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            matches(a, e) for a, e in zip(actual, expected, strict=True)
        )
    return actual == expected


def _present(items: list[Any], expected: Any) -> bool:
    return any(matches(item, expected) for item in items)


def phase_problems(report: Mapping[str, Any], expect: Mapping[str, Any]) -> list[str]:
    """Differences between one phase's report and its ``expect`` block."""
    out: list[str] = []
    phase = report["phase"]
    if "dead" in expect and sorted(report["dead"]) != sorted(expect["dead"]):
        out.append(f"{phase}: dead {report['dead']} != {expect['dead']}")
    if "lynched" in expect and report["lynched"] != expect["lynched"]:
        out.append(f"{phase}: lynched {report['lynched']} != {expect['lynched']}")
    if "winner" in expect and not _winner_ok(report["winner"], expect["winner"]):
        out.append(f"{phase}: winner {report['winner']} != {expect['winner']}")
    if "rejected" in expect:
        got = report["rejected"]
        want = expect["rejected"]
        if len(got) != len(want) or not all(_present(got, w) for w in want):
            out.append(f"{phase}: rejected {got} != {want}")
    for key in ("private", "public", "gm"):
        for item in expect.get(key, []):
            if not _present(report[key], item):
                out.append(f"{phase}: missing {key} {item}; got {report[key]}")
        for item in expect.get(f"no_{key}", []):
            if _present(report[key], item):
                out.append(f"{phase}: unexpected {key} {item}")
    for name, state in expect.get("state", {}).items():
        if not matches(report["state"].get(name), state):
            out.append(f"{phase}: state of {name} {report['state'].get(name)} !~ {state}")
    return out


def _winner_ok(actual: Any, expected: Any) -> bool:
    if expected is None or actual is None:
        return actual == expected
    exp = dict(expected)
    for key in ("factions", "players"):
        if key in exp and sorted(actual[key]) != sorted(exp.pop(key)):
            return False
    return matches(actual, exp)
