"""Documentation is checked like code: every setting of the game file is documented."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from forumbot import gamefile

DOCS = Path(__file__).resolve().parent.parent / "docs"

SECTIONS = {
    "forum": gamefile.ForumSettings,
    "credentials": gamefile.CredentialSettings,
    "publishing": gamefile.PublishSettings,
}


def _documented() -> set[str]:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z_.]+)` \|", text, flags=re.MULTILINE))


def test_every_top_level_setting_is_documented() -> None:
    documented = _documented()
    for key in gamefile.TOP_KEYS:
        assert key in documented or any(d.startswith(f"{key}.") for d in documented), key


def test_every_section_setting_is_documented() -> None:
    documented = _documented()
    for section, cls in SECTIONS.items():
        for f in dataclasses.fields(cls):
            assert f"{section}.{f.name}" in documented, f"{section}.{f.name} is not in the docs"
    for key in ("timezone", "first_phase", "start"):
        assert f"schedule.{key}" in documented
    for key in ("channel", "syntax"):  # votes: any key of the ruleset's vote: (docs/votes.md)
        assert f"votes.{key}" in documented
    for kind in ("day", "night"):
        for f in dataclasses.fields(gamefile.PhaseLength):
            assert f"schedule.{kind}.{f.name}" in documented


def test_the_errors_reference_is_current() -> None:
    """docs/errors.md lists every exception; regenerate it with the command below."""
    from forumbot.docgen import render_errors

    committed = (DOCS / "errors.md").read_text(encoding="utf-8")
    assert committed == render_errors(), "run: python -m forumbot.docgen errors > docs/errors.md"


def test_every_exception_has_a_docstring() -> None:
    from forumbot.docgen import exception_classes

    undocumented = [c.__qualname__ for c in exception_classes() if not c.__doc__]
    assert undocumented == []
