"""Hostile posts and PMs (``data/cases.yaml``) through the whole bot on the loopback forum.

Each input is posted (day 1) or PMed (night 1) on the loopback SMF forum, read by the real
adapter, stored and parsed; each has one expected, visible result: the day's count, the
order stored, the GM queue. A post is always followed by another, which must be read too.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from forumbot.db.enums import ReviewKind
from tests.hostile.conftest import DATA, Hostile, RawPM, data

CASES = yaml.safe_load((DATA / "cases.yaml").read_text(encoding="utf-8"))


def body_of(case: dict[str, Any]) -> str:
    """The case's body: its file (a filler repeated to ``size``), then its ``tail``."""
    text = data(case["file"])
    if "size" in case:
        text = (text * (case["size"] // len(text) + 1))[: case["size"]]
    return text + case.get("tail", "")


def _open_items(hostile: Hostile) -> list[Any]:
    return [i for i in hostile.queue() if i.kind is not ReviewKind.ALERT]


@pytest.mark.parametrize("case", CASES["posts"], ids=[c["file"] for c in CASES["posts"]])
def test_hostile_post(hostile: Hostile, case: dict[str, Any]) -> None:
    hostile.forum.add_post(case["author"], body_of(case))
    last = hostile.forum.add_post("GameMaster", "Keep voting, folks.")
    assert hostile.cycle(), case["why"]
    assert hostile.last_post_id() == last, "a post after it was not read"
    expected = {target: tuple(voters) for target, voters in case["votes"].items()}
    assert hostile.votes() == expected, case["why"]
    assert len(_open_items(hostile)) == case.get("queued", 0), case["why"]
    assert not hostile.queue(ReviewKind.ALERT)


@pytest.mark.parametrize("case", CASES["pms"], ids=[c["file"] for c in CASES["pms"]])
def test_hostile_pm(night: Hostile, case: dict[str, Any]) -> None:
    night.cycle()  # night 1 opens
    night.forum.add_pm(case["author"], "N1", body_of(case))
    assert night.cycle(), case["why"]
    assert night.count(RawPM) == 1
    orders = [(o.status.value, o.ability, (o.targets or [None])[0]) for o in night.orders()]
    assert orders == ([tuple(case["order"])] if case["order"] else []), case["why"]
    items = _open_items(night)
    assert len(items) == case.get("queued", 0), case["why"]
    if case.get("receipts") == 0:
        assert all(item.player_id is None for item in items), "marked as not from a player"
    if "reason" in case:
        assert case["reason"] in items[0].reason
    receipts = [pm for pm in night.forum.data.sent if pm["to"] == case["author"]]
    assert len(receipts) == case.get("receipts", 1), "one receipt, never two"
