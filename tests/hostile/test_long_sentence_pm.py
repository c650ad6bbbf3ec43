"""A PM with one sentence longer than any a player writes, through the whole bot on the
loopback forum (issue 11: a PM is read in bounded time): it is queued for the GM as "a
sentence too long to read", the order in it never applied; the player is told the GM reads
it."""

from __future__ import annotations

from forumbot.db.enums import ReviewKind
from parsers.orders.text import MAX_SENTENCE_WORDS
from tests.hostile.conftest import Hostile


def test_a_pm_of_one_endless_sentence_is_queued_unread(night: Hostile) -> None:
    night.cycle()  # night 1 opens
    clause = "idk what to do tonight honestly the thread was a mess and nobody claimed"
    body = ", ".join([clause] * (MAX_SENTENCE_WORDS // 10)) + " so check Zed"
    assert len(body.split()) > MAX_SENTENCE_WORDS
    night.forum.add_pm("Ann", "N1", body)
    assert night.cycle()
    orders = [(o.status.value, o.ability, o.targets) for o in night.orders()]
    assert orders == [("ambiguous", None, [])], "the order in it is never read nor applied"
    items = [i.reason for i in night.queue() if i.kind is not ReviewKind.ALERT]
    assert len(items) == 1
    assert f"sentence too long to read (over {MAX_SENTENCE_WORDS} words)" in items[0]
    receipts = [pm for pm in night.forum.data.sent if pm["to"] == "Ann"]
    assert len(receipts) == 1, "the player is told the GM reads it"
