"""Issue 17, items 1 and 2: a page too deep for libxml2, and a page cut short with status 200.

Neither may blind the bot: every post after a 300-quote post is read (its votes stored), the
bot's own posts after it are confirmed (never posted twice), and a page that was not read to
its footer is quarantined, alerted, and never moves ``last_post_id`` past what was not read.
"""

from __future__ import annotations

from forumbot.db.enums import ReviewKind
from tests.hostile.conftest import Hostile, RawPost, data


def test_posts_after_300_nested_quotes_are_read(hostile: Hostile) -> None:
    hostile.forum.add_post("Dan", data("post_300_nested_quotes.html") + "<b>$Zed</b>")
    last = hostile.forum.add_post("Ann", "<b>$Zed</b>")
    assert hostile.cycle()
    assert hostile.last_post_id() == last
    assert hostile.votes().get("Zed") == ("Dan", "Ann")
    assert "Carl" not in hostile.votes(), "a vote inside a quote counted"


def test_deeper_than_huge_tree_is_flattened_and_read(hostile: Hostile) -> None:
    hostile.forum.add_post("Bob", data("post_3000_nested_quotes.html"))
    last = hostile.forum.add_post("Carl", "<b>$Zed</b>")
    assert hostile.cycle()
    assert hostile.last_post_id() == last
    assert hostile.votes() == {"Dan": ("Bob",), "Zed": ("Carl",)}


def test_bot_posts_after_a_deep_post_are_confirmed_not_repeated(hostile: Hostile) -> None:
    hostile.forum.add_post("Dan", data("post_300_nested_quotes.html"))
    for voter in ("Ann", "Bob", "Carl"):
        hostile.forum.add_post(voter, "<b>$Zed</b>")
    hostile.cycle()
    hostile.clock.set(hostile.clock.now().replace(day=3, hour=21, minute=0, second=30))
    for _ in range(4):  # past the day's deadline: one phase post, never again
        hostile.cycle()
    posts = hostile.bot_posts()
    assert len(posts) == len(set(posts)) and len(posts) >= 1


def test_a_page_cut_mid_post_is_quarantined_and_not_read_past(hostile: Hostile) -> None:
    first = hostile.forum.add_post("Ann", "<b>$Zed</b>")
    assert hostile.cycle()
    assert hostile.last_post_id() == first
    stored = hostile.count(RawPost)
    hostile.forum.add_post("Bob", "I have thought long about this and my vote is <b>$Carl</b>")
    whole = hostile.forum.topic_page

    def cut(logged_in: bool) -> str:  # status 200, the body ends inside Bob's post
        page = whole(logged_in)
        return page[: page.index("I have thought long") + 40]

    hostile.forum.topic_page = cut  # type: ignore[method-assign]
    assert not hostile.cycle()
    assert hostile.last_post_id() == first, "moved past a post it did not read whole"
    assert hostile.count(RawPost) == stored
    alerts = hostile.queue(ReviewKind.ALERT)
    assert len(alerts) == 1 and "cut short" in alerts[0].reason
    assert hostile.quarantined(), "the cut page is kept for a fixture"
    assert not hostile.cycle() and len(hostile.queue(ReviewKind.ALERT)) == 1  # one alert
    hostile.forum.topic_page = whole  # type: ignore[method-assign]
    assert hostile.cycle()
    assert hostile.votes() == {"Zed": ("Ann",), "Carl": ("Bob",)}
    assert hostile.last_post_id() > first


def test_the_gm_is_told_by_pm_while_the_page_stays_cut(hostile: Hostile) -> None:
    """A page that stays unreadable fails every cycle before its publishing step: the alert's
    PM to the GM (and whatever else is approved) still goes out, in the failing cycle."""
    hostile.forum.add_post("Bob", "I have thought long about this and my vote is <b>$Carl</b>")
    whole = hostile.forum.topic_page

    def cut(logged_in: bool) -> str:
        page = whole(logged_in)
        return page[: page.index("I have thought long") + 40]

    hostile.forum.topic_page = cut  # type: ignore[method-assign]
    assert not hostile.cycle()
    to_gm = [pm for pm in hostile.forum.data.sent if pm["to"] == "GameMaster"]
    assert len(to_gm) == 1 and "cut short" in to_gm[0]["body"], hostile.forum.data.sent
    assert not hostile.cycle()
    assert len([pm for pm in hostile.forum.data.sent if pm["to"] == "GameMaster"]) == 1
    assert hostile.bot_posts() == []


def test_orders_are_read_and_answered_while_the_thread_page_stays_cut(night: Hostile) -> None:
    """A thread page the bot cannot read does not keep the inbox waiting: a night order sent
    meanwhile is stored and its receipt sent in the failing cycle; nothing is resolved."""
    night.forum.add_post("Bob", "I have thought long about tonight, and I have nothing to add")
    whole = night.forum.topic_page

    def cut(logged_in: bool) -> str:
        page = whole(logged_in)
        return page[: page.index("I have thought long") + 40]

    night.forum.topic_page = cut  # type: ignore[method-assign]
    night.forum.add_pm("Ann", "N1 check", "check Zed")
    assert not night.cycle()
    assert [(o.ability, o.targets) for o in night.orders()] == [("check", ["Zed"])]
    to_ann = [pm for pm in night.forum.data.sent if pm["to"] == "Ann"]
    assert len(to_ann) == 1 and "Zed" in to_ann[0]["body"], night.forum.data.sent
    assert len(night.queue(ReviewKind.ALERT)) == 1
    assert not night.cycle()
    assert len([pm for pm in night.forum.data.sent if pm["to"] == "Ann"]) == 1
    assert night.bot_posts() == []
