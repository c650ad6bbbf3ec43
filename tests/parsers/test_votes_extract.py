"""Vote syntaxes: each one on its own, several at once, and what is never a vote."""

from __future__ import annotations

import pytest

from parsers.html import parse_html
from parsers.votes import Action, Syntax, rules_from_data
from parsers.votes.extract import clean_target, extract_actions, may_hold_votes

ALL = frozenset(Syntax)


def actions(html: str, *syntaxes: Syntax) -> list[tuple[str, str]]:
    rules = rules_from_data({"host_colour": "blue"})
    found = extract_actions(parse_html(html), rules, frozenset(syntaxes) or ALL)
    return [(a.action.value, a.target) for a in found]


@pytest.mark.parametrize(
    ("html", "syntax", "expected"),
    [
        ("<b>Vote: Ann</b>", Syntax.BOLD_VOTE, [("vote", "Ann")]),
        ("<strong>VOTE:Ann</strong>", Syntax.BOLD_VOTE, [("vote", "Ann")]),
        ("<b>vote Mr Fox</b>", Syntax.BOLD_VOTE, [("vote", "Mr Fox")]),
        ("<b>Unvote</b>", Syntax.BOLD_VOTE, [("unvote", "")]),
        ("<b>Unvote, Vote: Ann</b>", Syntax.BOLD_VOTE, [("unvote", ""), ("vote", "Ann")]),
        ("<b>Vote:</b> Ann please", Syntax.BOLD_VOTE, [("vote", "Ann please")]),
        ("<b>Vote</b>ing is fun", Syntax.BOLD_VOTE, []),
        ("<b>My failure to vote on you</b>", Syntax.BOLD_VOTE, []),
        ("<b>Vote Count 4.1</b>", Syntax.BOLD_VOTE, []),
        (
            "<b>unvote, vote; science and magic</b>",
            Syntax.BOLD_VOTE,
            [("unvote", ""), ("vote", "science and magic")],
        ),
        ("<b>Vote: LLD--that's a hammer</b>", Syntax.BOLD_VOTE, [("vote", "LLD")]),
        (
            "<b>Vote: Ann I just want to vote on someone</b>",
            Syntax.BOLD_VOTE,
            [("vote", "Ann I just want to vote on someone")],
        ),
        (
            "<b>VOTE: notthepopeVOTE: Kid</b>",
            Syntax.BOLD_VOTE,
            [("vote", "notthepope"), ("vote", "Kid")],
        ),
        (
            "<b>Also,<br>unvote<br>vote Lupo</b>",
            Syntax.BOLD_VOTE,
            [("unvote", ""), ("vote", "Lupo")],
        ),
        # A line saying only "[b]unvoted[/b]" withdraws the vote (t61664 post 1564, as the
        # moderator counted it); "unvoted" inside a sentence is talk.
        ("<b>Unvoted.</b><br>Off to sleep, back tomorrow", Syntax.BOLD_VOTE, [("unvote", "")]),
        ("Yes I <b>unvoted</b> Mira earlier", Syntax.BOLD_VOTE, []),
        ("<b>unvoted because Mira asked</b>", Syntax.BOLD_VOTE, []),
        ("<b>$Ann</b>", Syntax.DOLLAR_BOLD, [("vote", "Ann")]),
        ("<s>$Ann</s> <b>$Bob</b>", Syntax.DOLLAR_BOLD, [("withdraw", "Ann"), ("vote", "Bob")]),
        ("<b><s>$Ann</s></b>", Syntax.DOLLAR_BOLD, [("withdraw", "Ann")]),
        ('<span class="bbvote" title="vote">VOTE: Ann</span>', Syntax.VOTE_TAG, [("vote", "Ann")]),
        ('<span class="bbvote">UNVOTE: </span>', Syntax.VOTE_TAG, [("unvote", "")]),
        ('<span class="bbvote">VOTE: unvote</span>', Syntax.VOTE_TAG, [("unvote", "")]),
        (
            '<span class="bbvote">VOTE: Levio[/unvote] ok.</span>',
            Syntax.VOTE_TAG,
            [("vote", "Levio")],
        ),
        ("hi<br>##vote Ann<br>bye", Syntax.HASH_VOTE, [("vote", "Ann")]),
        ("##unvote", Syntax.HASH_VOTE, [("unvote", "")]),
        ('<span style="color:#FF0000">Ann</span>', Syntax.COLOUR, [("vote", "Ann")]),
        ('<span style="color:darkred"><s>Ann</s></span>', Syntax.COLOUR, [("withdraw", "Ann")]),
        ('<span style="color:red">-</span>', Syntax.COLOUR, [("unvote", "")]),
        ('<span style="color:blue">Ann</span>', Syntax.COLOUR, []),
        ("vote: Ann\nthanks", Syntax.PLAIN_VOTE, [("vote", "Ann")]),
        ("I vote Ann tonight", Syntax.PLAIN_VOTE, [("vote", "Ann tonight")]),
        ("Je vote contre Ann", Syntax.PLAIN_VOTE, [("vote", "Ann")]),
        ("голосую против Ани", Syntax.PLAIN_VOTE, [("vote", "Ани")]),
        ("My vote is Ann.", Syntax.PLAIN_VOTE, [("vote", "Ann")]),
        ("I want to lynch Ann", Syntax.PLAIN_VOTE, [("vote", "Ann")]),
        ("Mon vote : Ann", Syntax.PLAIN_VOTE, [("vote", "Ann")]),
        ("Мой голос: Аня", Syntax.PLAIN_VOTE, [("vote", "Аня")]),
        ("I will vote later", Syntax.PLAIN_VOTE, []),
    ],
)
def test_each_syntax(html: str, syntax: Syntax, expected: list[tuple[str, str]]) -> None:
    assert actions(html, syntax) == expected


@pytest.mark.parametrize(
    "html",
    [
        "<blockquote><b>Vote: Ann</b></blockquote>",
        "<blockquote><div><blockquote><b>$Ann</b></blockquote></div></blockquote>",
        '<div class="quotetitle">Spoiler:</div><div class="quotecontent"><b>Vote: Ann</b></div>',
        '<div class="spoiler"><b>Vote: Ann</b></div>',
        "<code>[b]Vote: Ann[/b]</code>",
        "Vote: Ann (plain text in a thread)",
        '<div class="signature"><b>Vote: Ann</b></div>',
        # A bold clause ending in a bare "vote" is talk: the name after it is not a vote
        # (t17173 post 158: "you also just gave up your [b]Confirmed! vote[/b] on Elsa").
        "you gave up your <b>Confirmed! vote</b> on Ann from your last post",
    ],
)
def test_never_a_vote_in_the_thread(html: str) -> None:
    thread = frozenset(ALL - {Syntax.PLAIN_VOTE})
    assert actions(html, *thread) == []


def test_one_text_read_by_two_syntaxes_counts_once() -> None:
    html = '<b><span style="color:red">Vote: Ann</span></b>'
    assert actions(html, Syntax.BOLD_VOTE, Syntax.COLOUR) == [("vote", "Ann")]


def test_actions_come_in_document_order() -> None:
    html = '<s>$Bob</s> <span class="bbvote">VOTE: Cy</span> <b>$Ann</b>'
    assert actions(html, Syntax.DOLLAR_BOLD, Syntax.VOTE_TAG) == [
        ("withdraw", "Bob"),
        ("vote", "Cy"),
        ("vote", "Ann"),
    ]


def test_clean_target_and_prefilter() -> None:
    assert clean_target(" for Ann!") == "Ann"
    assert clean_target("@Ann.") == "Ann"
    assert not may_hold_votes("<p>hello there</p>", frozenset({Syntax.BOLD_VOTE}))
    assert may_hold_votes("<b>VOTE: x</b>", frozenset({Syntax.BOLD_VOTE}))
    assert Action.VOTE.value == "vote"
