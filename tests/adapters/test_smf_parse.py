"""SMF 2.0 and 2.1 page parsers against the recorded pages and the game's ground truth."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from forum_adapters.errors import LayoutChanged
from forum_adapters.markup import fingerprint, html_fingerprint, parse_html
from forum_adapters.smf import parse
from tests.adapters.conftest import FIXTURES, SMF20, SMF21, page

NOW = datetime(2026, 11, 29, 13, 38, tzinfo=UTC)  # the captures' server clock (Date header)
UTC_ZONE = ZoneInfo("UTC")
VERSIONS = {"smf20": SMF20, "smf21": SMF21}


def truth(folder: str) -> dict:
    return json.loads((FIXTURES / folder / "game_ground_truth.json").read_text(encoding="utf-8"))


def when(text: str, folder: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    # 2.1's stock format shows minutes only ("Nov 27, 2026, 06:06 PM").
    return moment.replace(second=0) if folder == "smf21" else moment


def read_topic(folder: str, number: int) -> parse.TopicPage:
    root = parse_html(page(folder, f"topic_p{number}"))
    return parse.parse_topic_page(root, "", now=NOW, tz=UTC_ZONE, base_url=VERSIONS[folder])


@pytest.mark.parametrize("folder", VERSIONS)
def test_every_post_of_the_thread_matches_the_ground_truth(folder: str) -> None:
    posts = [post for n in range(1, 6) for post in read_topic(folder, n).posts]
    expected = truth(folder)["posts"]
    assert [p.post_id for p in posts] == [e["msg_id"] for e in expected]
    for post, row in zip(posts, expected, strict=True):
        assert post.author.name == row["poster"]
        assert post.author.id == row["member_id"]
        assert post.posted_at == when(row["posted_utc"], folder)
        assert post.page == row["page"]
        assert post.topic_id == 2
        assert post.posted_at.tzinfo is not None
        # Quotes render as extra text, so compare the post's own last words.
        tail = fingerprint(row["bbcode"].rsplit("[/quote]", 1)[-1])[-40:]
        assert tail in html_fingerprint(post.body_html), post.post_id


@pytest.mark.parametrize("folder", VERSIONS)
def test_edited_post_has_its_edit_time_and_editor(folder: str) -> None:
    post = next(p for p in read_topic(folder, 3).posts if p.post_id == 33)
    expected = truth(folder)["posts"][31]["edited"]
    assert post.edited_by == expected["by"] == "player_42"
    assert post.edited_at == when(expected["at_utc"], folder)
    assert "Vote: Conia" in post.body_html
    unedited = next(p for p in read_topic(folder, 3).posts if p.post_id == 32)
    assert unedited.edited_at is None and unedited.edited_by is None


@pytest.mark.parametrize("folder", VERSIONS)
def test_quotes_and_bold_are_kept_as_rendered_html(folder: str) -> None:
    post = next(p for p in read_topic(folder, 1).posts if p.post_id == 6)
    assert "blockquote" in post.body_html
    if folder == "smf20":  # 2.0 puts the "Quote from" header outside the blockquote
        assert 'class="quoteheader"' in post.body_html
    bold = next(p for p in read_topic(folder, 1).posts if p.post_id == 3)
    assert ("<strong>" if folder == "smf20" else "<b>") + "Vote: bob" in bold.body_html


@pytest.mark.parametrize("folder", VERSIONS)
def test_non_ascii_and_cyrillic_names(folder: str) -> None:
    authors = {p.author for n in range(1, 6) for p in read_topic(folder, n).posts}
    names = {a.name: a.id for a in authors}
    assert names["Маша"] == 10
    assert names["Zoé"] == 9
    assert names["xX_DarkKnight_7_Xx"] == 14


@pytest.mark.parametrize("folder", VERSIONS)
@pytest.mark.parametrize(("number", "next_start", "last"), [(1, 15, 5), (3, 45, 5), (5, None, 5)])
def test_pagination_finds_the_next_page_even_when_hidden(
    folder: str, number: int, next_start: int | None, last: int
) -> None:
    topic = read_topic(folder, number)
    assert topic.page == number
    assert topic.last_page == last
    expected = f"{VERSIONS[folder]}?topic=2.{next_start}" if next_start is not None else None
    assert topic.next_url == expected
    assert topic.logged_in
    assert topic.title == "Loopback Village Mafia - Day 1"


@pytest.mark.parametrize("folder", VERSIONS)
def test_inbox_pages_hold_every_pm_with_recipients(folder: str) -> None:
    messages = {}
    for name in ("pm_inbox_p1", "pm_inbox_p2"):
        root = parse_html(page(folder, name))
        inbox = parse.parse_inbox_page(root, "", now=NOW, tz=UTC_ZONE, base_url=VERSIONS[folder])
        assert [row.pm_id for row in inbox.rows] == sorted(inbox.messages)
        messages.update(inbox.messages)
    expected = [pm for pm in truth(folder)["pms"] if "ModBot" in pm["to"]]
    assert sorted(messages) == [pm["id_pm"] for pm in expected]
    for row in expected:
        pm = messages[row["id_pm"]]
        assert pm.sender.name == row["sender"] and pm.sender.id == row["sender_id"]
        assert [r.name for r in pm.recipients] == row["to"]
        assert pm.subject == row["subject"]
        assert pm.sent_at == when(row["sent_utc"], folder)
        body = row["body_bbcode"].rsplit("[/quote]", 1)[-1]
        assert fingerprint(body)[-30:] in html_fingerprint(pm.body_html)


def test_smf20_pm_to_two_recipients_names_both() -> None:
    root = parse_html(page("smf20", "pm_inbox_p2"))
    inbox = parse.parse_inbox_page(root, "", now=NOW, tz=UTC_ZONE, base_url=SMF20)
    assert [(r.id, r.name) for r in inbox.messages[34].recipients] == [(2, "ModBot"), (4, "Akonyl")]


@pytest.mark.parametrize("folder", VERSIONS)
def test_unread_marks_are_read_from_the_list(folder: str) -> None:
    first = parse.parse_inbox_page(
        parse_html(page(folder, "pm_inbox_p1")), "", now=NOW, tz=UTC_ZONE, base_url=""
    )
    second = parse.parse_inbox_page(
        parse_html(page(folder, "pm_inbox_p2")), "", now=NOW, tz=UTC_ZONE, base_url=""
    )
    assert all(row.unread for row in first.rows)
    assert not any(row.unread for row in second.rows)  # page 1 in mode 0 marked all read


@pytest.mark.parametrize("folder", VERSIONS)
@pytest.mark.parametrize("name", ["pm_view_single", "pm_view_conversation"])
def test_single_pm_views_in_other_display_modes(folder: str, name: str) -> None:
    root = parse_html(page(folder, name))
    inbox = parse.parse_inbox_page(root, "", now=NOW, tz=UTC_ZONE, base_url=VERSIONS[folder])
    pm = inbox.messages[13]
    assert pm.sender.name == "Kleene"
    assert "investigate" in pm.body_html
    assert pm.sent_at - datetime(2026, 11, 28, 21, 32, tzinfo=UTC) < timedelta(minutes=1)


@pytest.mark.parametrize("folder", VERSIONS)
def test_session_token_login_state_and_forms(folder: str) -> None:
    topic = parse_html(page(folder, "topic_p1"))
    token = parse.session_token(topic)
    assert token is not None and len(token[1]) == 32 and token[0] != "sesc"
    assert parse.is_logged_in(topic)
    assert not parse.is_logged_in(parse_html(page(folder, "guest_topic_p1")))
    login = parse.login_form(parse_html(page(folder, "login_page")), VERSIONS[folder])
    assert login is not None and login.get("user") == "" and "action=login2" in login.action
    reply = parse.post_form(parse_html(page(folder, "reply_form")), VERSIONS[folder])
    assert reply is not None and reply.get("last_msg") == "65" and reply.get("seqnum")
    assert parse.has_captcha(parse_html(page(folder, "pm_compose_form_with_captcha")))
    assert not parse.has_captcha(parse_html(page(folder, "pm_compose_form")))


@pytest.mark.parametrize("folder", VERSIONS)
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("error_flood_control", "less than 5 seconds"),
        ("login_wrong_password", "Password incorrect"),
        ("login_session_expired", "session timed out"),
        ("reply_post_session_expired", "session timed out"),
        ("error_topic_missing_logged_in", "missing or off limits"),
    ],
)
def test_error_messages(folder: str, name: str, words: str) -> None:
    message = parse.error_message(parse_html(page(folder, name)))
    assert message is not None and words in message


def test_a_page_without_posts_is_a_layout_change() -> None:
    root = parse_html(page("smf21", "board_index"))
    with pytest.raises(LayoutChanged):
        parse.parse_topic_page(root, "http://x/index.php", now=NOW, tz=UTC_ZONE, base_url="")


def test_times_in_the_forum_zone_become_utc() -> None:
    moscow = ZoneInfo("Europe/Moscow")
    root = parse_html(page("smf20", "topic_p1"))
    topic = parse.parse_topic_page(root, "", now=NOW, tz=moscow, base_url=SMF20)
    assert topic.posts[0].posted_at == datetime(2026, 11, 27, 15, 0, 12, tzinfo=UTC)


@pytest.mark.parametrize("folder", VERSIONS)
def test_the_header_clock_gives_the_members_offset(folder: str) -> None:
    root = parse_html(page(folder, "topic_p1"))
    now = datetime(2026, 11, 29, 13, 38, 29, tzinfo=UTC)  # 2.0's page shows 01:38:29 pm
    if folder == "smf21":
        now = datetime(2026, 11, 29, 13, 11, 32, tzinfo=UTC)
    assert parse.shown_offset(root, now) == UTC
    assert parse.shown_offset(parse_html(page("smf20", "guest_topic_p1")), now) is None


def test_an_offset_zone_shifts_every_time() -> None:
    shifted = page("smf21", "topic_p1").replace(
        b"Nov 29, 2026, 01:11 PM</time>", b"Nov 29, 2026, 04:11 PM</time>"
    )
    zone = parse.shown_offset(parse_html(shifted), NOW)
    assert zone is not None and zone.utcoffset(None) == timedelta(hours=3)
