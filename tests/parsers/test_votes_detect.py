"""The thread's vote syntax is detected; posts voting in another syntax raise a warning."""

from __future__ import annotations

from parsers.votes import Syntax, rules_from_data
from parsers.votes.detect import detect_syntaxes, suggest_syntaxes, unread_votes_warning

BOLD = [f"<b>vote: Player{i}</b> because" for i in range(6)]
TAGS = ['<span class="bbvote">VOTE: Ann</span>', '<span class="bbvote">VOTE: Bob</span>']
CHATTER = ['I like <span style="color:red">red</span> text', "no vote here"]


def test_the_threads_syntaxes_are_detected_most_used_first() -> None:
    counts = detect_syntaxes(BOLD + TAGS + CHATTER, rules_from_data({}))
    assert counts == {Syntax.BOLD_VOTE: 6, Syntax.VOTE_TAG: 2, Syntax.COLOUR: 1}
    assert suggest_syntaxes(counts) == (Syntax.BOLD_VOTE, Syntax.VOTE_TAG)


def test_a_dollar_game_reading_bold_vote_posts_warns_the_gm() -> None:
    warning = unread_votes_warning(BOLD + CHATTER, rules_from_data({"syntax": ["dollar_bold"]}))
    assert warning is not None
    assert "8 posts read and no vote found" in warning and "bold_vote (6 posts)" in warning


def test_no_warning_when_the_games_syntax_finds_votes_or_nobody_voted() -> None:
    assert unread_votes_warning(BOLD, rules_from_data({"syntax": ["bold_vote"]})) is None
    assert unread_votes_warning(CHATTER, rules_from_data({"syntax": ["dollar_bold"]})) is None
