"""phpBB 3.3 page parsers against the recorded pages and the game's ground truth."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from forum_adapters.errors import LayoutChanged
from forum_adapters.markup import fingerprint, html_fingerprint, parse_html
from forum_adapters.phpbb import parse
from tests.adapters.conftest import FIXTURES, PHPBB, page

NOW = datetime(2026, 11, 29, 13, 10, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")
GAME = json.loads((FIXTURES / "phpbb33" / "game.json").read_text(encoding="utf-8"))


def topic(number: int) -> parse.TopicPage:
    root = parse_html(page("phpbb33", f"topic_page_{number}"))
    return parse.parse_topic_page(root, "", now=NOW, tz=UTC_ZONE, base_url=PHPBB)


def test_every_post_matches_the_ground_truth() -> None:
    posts = [post for n in range(1, 8) for post in topic(n).posts]
    assert [p.post_id for p in posts] == [row["post_id"] for row in GAME["posts"]]
    for post, row in zip(posts, GAME["posts"], strict=True):
        assert post.author.name == row["author"]
        assert post.author.id == GAME["user_ids"][row["author"]]
        assert post.page == row["n"] // 10 + 1
        assert post.posted_at.tzinfo is not None and post.posted_at.date().day == 29
        tail = fingerprint(row["bbcode"].rsplit("[/quote]", 1)[-1])[-30:]
        assert tail in html_fingerprint(post.body_html), post.post_id


def test_post_times_come_from_the_time_element() -> None:
    post = next(p for p in topic(4).posts if p.post_id == 36)
    assert post.posted_at == datetime(2026, 11, 29, 13, 5, 53, tzinfo=UTC)


def test_edited_post_has_its_edit_notice() -> None:
    post = next(p for p in topic(4).posts if p.post_id == 36)
    assert post.edited_by == "LaRa2000"
    assert post.edited_at == datetime(2026, 11, 29, 13, 6, tzinfo=UTC)
    assert "Vote: Mr Fox" in post.body_html
    assert all(p.edited_at is None for p in topic(4).posts if p.post_id != 36)


def test_quotes_nest_and_stay_in_the_body() -> None:
    post = next(p for p in topic(5).posts if p.post_id == 51)
    assert post.body_html.count("<blockquote") == 2
    assert "Vote: Akonyl" in post.body_html


def test_coloured_admin_and_cyrillic_names() -> None:
    authors = {p.author for n in range(1, 8) for p in topic(n).posts}
    assert {(a.id, a.name) for a in authors} >= {(2, "GameMaster"), (64, "Маша"), (63, "Zoé")}


@pytest.mark.parametrize(("number", "following"), [(1, 10), (4, 40), (6, 60), (7, None)])
def test_pagination(number: int, following: int | None) -> None:
    page_ = topic(number)
    assert page_.page == number and page_.last_page == 7
    expected = f"{PHPBB}viewtopic.php?t=2&start={following}" if following else None
    assert page_.next_url == expected
    assert page_.title == "Mafia Game 1 - Day 1"


def test_page_reached_by_post_id_is_page_four() -> None:
    root = parse_html(page("phpbb33", "topic_by_post_id"))
    page_ = parse.parse_topic_page(root, "", now=NOW, tz=UTC_ZONE, base_url=PHPBB)
    assert page_.page == 4 and 36 in [p.post_id for p in page_.posts]


def test_inbox_list() -> None:
    root = parse_html(page("phpbb33", "pm_inbox"))
    inbox = parse.parse_pm_list(root, "", now=NOW, tz=UTC_ZONE, base_url=PHPBB)
    assert [row.pm_id for row in inbox.rows] == list(range(9, 0, -1))
    assert all(row.unread for row in inbox.rows)
    by_id = {row.pm_id: row for row in inbox.rows}
    for pm in GAME["pms"][:9]:
        assert by_id[pm["pm_id"]].subject == pm["subject"]
        assert by_id[pm["pm_id"]].sender.name == pm["from"]
        shown = by_id[pm["pm_id"]].sent_at
        assert shown == datetime.fromtimestamp(pm["time"] // 60 * 60, UTC)
    after = parse.parse_pm_list(
        parse_html(page("phpbb33", "pm_inbox_after_read")), "", now=NOW, tz=UTC_ZONE, base_url=""
    )
    assert not any(row.unread for row in after.rows)


@pytest.mark.parametrize(
    ("name", "pm_id", "recipients"),
    [
        ("pm_view", 1, ["ModBot"]),
        ("pm_view_two_recipients", 8, ["GameMaster", "ModBot"]),
        ("pm_view_bbcode", 7, ["ModBot"]),
        ("pm_view_cyrillic", 6, ["ModBot"]),
    ],
)
def test_pm_views(name: str, pm_id: int, recipients: list[str]) -> None:
    pm = parse.parse_pm_view(parse_html(page("phpbb33", name)), "", now=NOW, tz=UTC_ZONE)
    truth = next(row for row in GAME["pms"] if row["pm_id"] == pm_id)
    assert pm.pm_id == pm_id
    assert pm.sender.name == truth["from"] and pm.sender.id == GAME["user_ids"][truth["from"]]
    assert [r.name for r in pm.recipients] == recipients
    assert pm.subject == truth["subject"]
    assert pm.sent_at == datetime.fromtimestamp(truth["time"] // 60 * 60, UTC)
    assert fingerprint(truth["body_bbcode"]) in html_fingerprint(pm.body_html)


def test_cyrillic_pm_body_and_subject() -> None:
    pm = parse.parse_pm_view(
        parse_html(page("phpbb33", "pm_view_cyrillic")), "", now=NOW, tz=UTC_ZONE
    )
    assert pm.subject == "Ночь 1" and pm.body_html == "лечу Машу"
    assert pm.sender.name == "Маша"


def test_sent_confirmation_names_the_new_pm() -> None:
    assert parse.sent_pm_id(parse_html(page("phpbb33", "pm_send_response"))) == 10
    assert parse.sent_pm_id(parse_html(page("phpbb33", "index"))) is None


def test_outbox_rows_name_the_recipient() -> None:
    root = parse_html(page("phpbb33", "pm_outbox"))
    outbox = parse.parse_pm_list(root, "", now=NOW, tz=UTC_ZONE, base_url=PHPBB)
    assert [(r.pm_id, r.subject, r.sender.name) for r in outbox.rows] == [
        (10, "Night 1 result", "Kleene")
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("login_post_wrong_password", "incorrect password"),
        ("reply_post_flood_error", "so soon after your last"),
        ("reply_post_invalid_form_token", "form was invalid"),
        ("session_expired_reply_form", "login in order to reply"),
        ("logged_out_pm_inbox", "login in order to access"),
    ],
)
def test_error_messages(name: str, words: str) -> None:
    message = parse.error_message(parse_html(page("phpbb33", name)))
    assert message is not None and words in message


@pytest.mark.parametrize(
    ("name", "words"),
    [("error_topic_not_found", "does not exist"), ("error_pm_not_found", "could not be found")],
)
def test_message_pages(name: str, words: str) -> None:
    assert words in (parse.info_message(parse_html(page("phpbb33", name))) or "")


def test_login_state_forms_and_tokens() -> None:
    assert parse.is_logged_in(parse_html(page("phpbb33", "index")))
    assert not parse.is_logged_in(parse_html(page("phpbb33", "session_expired_pm_inbox")))
    login = parse.login_form(parse_html(page("phpbb33", "login_page")), PHPBB)
    assert login is not None
    assert login.get("redirect") == "index.php"  # PHP keeps the last of the two
    assert login.get("form_token") and login.get("creation_time")
    reply = parse.post_form(parse_html(page("phpbb33", "reply_form")), PHPBB)
    assert reply is not None and reply.get("topic_cur_post_id") == "62"
    assert reply.action == f"{PHPBB}posting.php?mode=reply&t=2"
    compose = parse.post_form(parse_html(page("phpbb33", "pm_compose_form_to_user")), PHPBB)
    assert compose is not None and compose.get("address_list[u][62]") == "to"


def test_non_topic_page_is_a_layout_change() -> None:
    with pytest.raises(LayoutChanged):
        parse.parse_topic_page(
            parse_html(page("phpbb33", "index")), "u", now=NOW, tz=UTC_ZONE, base_url=PHPBB
        )


def test_the_footer_names_the_members_time_zone() -> None:
    assert str(parse.board_zone(parse_html(page("phpbb33", "topic_page_1")))) == "UTC"
    paris = b'<ul><li class="rightside">All times are <span title="Europe/Paris">UTC+01:00</span>'
    assert str(parse.board_zone(parse_html(paris))) == "Europe/Paris"
    india = b'<ul><li class="rightside">All times are <span title="UTC+5:30">UTC+05:30</span>'
    assert parse.board_zone(parse_html(india)).utcoffset(None).total_seconds() == 19800


def test_author_line_without_a_time_element_is_read_as_text() -> None:
    # Styles without <time> (phpBB 3.1/3.2 era prosilver children) print "by NAME » DATE".
    html = page("phpbb33", "topic_page_4").replace(
        b'<time datetime="2026-11-29T13:05:53+00:00">Sun Nov 29, 2026 1:05 pm</time>',
        b"Sun Nov 29, 2026 1:05 pm",
    )
    paris = ZoneInfo("Europe/Paris")
    root = parse_html(html)
    post = next(
        p
        for p in parse.parse_topic_page(root, "", now=NOW, tz=paris, base_url=PHPBB).posts
        if p.post_id == 36
    )
    assert post.posted_at == datetime(2026, 11, 29, 12, 5, tzinfo=UTC)
