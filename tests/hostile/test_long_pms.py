"""Long PMs through the whole bot on the loopback forum (issue 11: "a PM of any size is read
in bounded time: PMs up to 64 KB [...]; longer ones are queued as too long").

The runtime queues a PM of more than ``MAX_ORDER_PM`` characters unread (``cases.yaml``'s
5 MB PM); these are the PMs under that gate: one past the order parser's 64 KB (Cyrillic
text is two bytes a letter) is queued as too long, one just under it (60 KB of English chat)
is read to its last line.
"""

from __future__ import annotations

from forumbot.db.enums import ReviewKind
from forumbot.services.ingest import MAX_ORDER_PM
from parsers.orders.parse import MAX_PM_BYTES
from tests.hostile.conftest import Hostile


def _chat(line: str, size: int, order: str) -> str:
    """``line`` repeated to ``size`` bytes of UTF-8, then ``order`` on its own line."""
    count = size // len(line.encode("utf-8"))
    return line * count + "\n" + order


def _open_items(night: Hostile) -> list[str]:
    return [i.reason for i in night.queue() if i.kind is not ReviewKind.ALERT]


def test_a_pm_over_64_kb_under_the_runtime_cap_is_queued_as_too_long(night: Hostile) -> None:
    night.cycle()  # night 1 opens
    body = _chat("ну не знаю, лол\n", 80 * 1024, "check Zed")
    assert len(body) < MAX_ORDER_PM  # past the parser's bound, not the runtime's gate
    assert len(body.encode("utf-8")) > MAX_PM_BYTES
    night.forum.add_pm("Ann", "N1", body)
    assert night.cycle()
    orders = [(o.status.value, o.ability, o.targets) for o in night.orders()]
    assert orders == [("ambiguous", None, [])], "the order at its end is never read nor applied"
    items = _open_items(night)
    assert len(items) == 1 and "PM too long to read (80 KB, over 64 KB)" in items[0]
    receipts = [pm for pm in night.forum.data.sent if pm["to"] == "Ann"]
    assert len(receipts) == 1, "the player is told the GM reads it"


def test_a_pm_just_under_64_kb_is_read_to_its_end(night: Hostile) -> None:
    night.cycle()
    line = "no idea tbh, lol, we will see what the thread says about it tomorrow\n"
    body = _chat(line, MAX_PM_BYTES - 20, "check Zed")  # 900 lines: under MAX_PM_SENTENCES
    assert 60_000 < len(body.encode("utf-8")) < min(MAX_PM_BYTES, MAX_ORDER_PM)
    night.forum.add_pm("Ann", "N1", body)
    assert night.cycle()
    orders = [(o.status.value, o.ability, o.targets) for o in night.orders()]
    assert orders == [("accepted", "check", ["Zed"])]
    assert _open_items(night) == []
