"""``forumbot init`` writes the vote syntax the thread's players use (read from a real,
loopback SMF forum)."""

from __future__ import annotations

import yaml

from forumbot.services import initgame
from tests.runtime.test_game_http import _reader, forum  # noqa: F401  (fixture)


def test_init_writes_the_threads_vote_syntax(forum):  # noqa: F811
    forum.add_post("GameMaster", "<b>Day 1</b> begins. [b]$Name[/b] votes, please.")
    for i, name in enumerate(["Ann", "Bob", "Carl", "Dan"]):
        forum.add_post(name, f"I think so. <b>vote: {['Bob', 'Carl', 'Dan', 'Ann'][i]}</b>")
    forum.add_post("Ann", "<b>Unvote</b> <b>vote: Dan</b>")
    text = initgame.draft_game_file(f"{forum.base_url}?topic=5.0", "smf", "ModBot", _reader(forum))
    assert yaml.safe_load(text)["votes"] == {"syntax": ["bold_vote"]}


def test_init_writes_no_syntax_for_a_thread_without_votes(forum):  # noqa: F811
    forum.add_post("GameMaster", "Sign-ups: post /in")
    for name in ["Ann", "Bob"]:
        forum.add_post(name, "/in")
    text = initgame.draft_game_file(f"{forum.base_url}?topic=5.0", "smf", "ModBot", _reader(forum))
    assert "votes" not in yaml.safe_load(text)
