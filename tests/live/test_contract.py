"""One contract over every forum forumbot talks to: ``LocalForum`` (the fake the demo and the
runtime tests use) and the real adapters on the live boards. The same tests run on each, so
the fake can never again offer something the real adapters lack (``find_sent_pm`` once)."""

from __future__ import annotations

import inspect
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from forum_adapters import ForumAdapter, PhpBBAdapter, PostId, SMFAdapter, ThreadRef
from forum_adapters.errors import ReplyRefusedNewerPost
from forumbot.localforum import ForumState, LocalForum, save_state
from tests.live.boards import Board

# LocalForum's own extras: how tests and the demo play the players. Nothing else.
SCRIPTING = {"add_post", "edit_post", "add_pm", "sent_bodies", "reload", "save"}
PROTOCOL = {
    name
    for name, value in vars(ForumAdapter).items()
    if not name.startswith("_") and callable(value)
}


@dataclass
class Forum:
    """A forum under contract: the bot's adapter, a topic, and players who act on it."""

    bot: Any
    topic: int
    post_as: Callable[[str, str], int]
    pm_bot_as: Callable[[str, str, str], None]


def _local(tmp_path: Path) -> Forum:  # one topic per module, as on the live boards
    save_state(tmp_path, ForumState(topic_id=7, title="Contract"))
    bot = LocalForum(tmp_path, "ModBot")
    players = LocalForum(tmp_path, "Players")
    now = datetime.now(UTC)
    players.add_post("GameMaster", "Contract topic", now)

    def post_as(name: str, body: str) -> int:
        return int(players.add_post(name, body, datetime.now(UTC))["post_id"])

    def pm_bot_as(name: str, subject: str, body: str) -> None:
        players.add_pm(name, subject, body, datetime.now(UTC))

    return Forum(bot, 7, post_as, pm_bot_as)


def _live(board: Board) -> Forum:
    gm = board.player("GameMaster")
    topic = gm.new_topic("Contract", "Contract topic")
    players = {name: board.player(name) for name in ("Conia", "Маша")}

    def post_as(name: str, body: str) -> int:
        return players[name].reply(topic, body)

    def pm_bot_as(name: str, subject: str, body: str) -> None:
        players[name].send_pm([board.bot[0]], subject, body)

    return Forum(board.adapter(), topic, post_as, pm_bot_as)


@pytest.fixture(scope="module", params=["local", "phpbb", "smf21", "smf20"])
def forum(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Forum]:
    """Each forum in turn: the local fake, then the three live boards (one topic each)."""
    if request.param == "local":
        yield _local(tmp_path_factory.mktemp("localforum"))
        return
    yield _live(request.getfixturevalue(f"{request.param}_board"))


def test_the_fake_offers_only_what_the_protocol_and_scripting_name() -> None:
    public = {n for n, v in vars(LocalForum).items() if not n.startswith("_") and callable(v)}
    assert public - SCRIPTING == PROTOCOL


@pytest.mark.parametrize("cls", [LocalForum, PhpBBAdapter, SMFAdapter])
def test_every_forum_has_the_protocol_with_its_signatures(cls: type) -> None:
    for name in PROTOCOL:
        wanted = inspect.signature(getattr(ForumAdapter, name))
        have = inspect.signature(getattr(cls, name))
        assert list(have.parameters) == list(wanted.parameters), f"{cls.__name__}.{name}"
        for param in wanted.parameters.values():
            assert have.parameters[param.name].kind == param.kind, f"{cls.__name__}.{name}"


def test_the_forum_satisfies_the_protocol(forum: Forum) -> None:
    assert isinstance(forum.bot, ForumAdapter)


def test_posts_after_a_mark_come_oldest_first_and_once(forum: Forum) -> None:
    thread = ThreadRef(forum.topic)
    first = forum.post_as("Conia", "[b]Vote: Маша[/b]")
    second = forum.post_as("Маша", "Привет, [b]Vote: Conia[/b]")
    after_first = [p.post_id for p in forum.bot.iter_posts(thread, after=PostId(first))]
    assert after_first == [second]
    everything = [p.post_id for p in forum.bot.iter_posts(thread)]
    assert everything[-2:] == [first, second] and len(set(everything)) == len(everything)
    assert list(forum.bot.iter_posts(thread, after=PostId(second))) == []


def test_a_reply_is_confirmed_found_and_guarded_by_last_seen(forum: Forum) -> None:
    thread = ThreadRef(forum.topic)
    seen = forum.post_as("Conia", "before the bot")
    body = f"Vote count {uuid.uuid4().hex[:8]}"
    calls: list[int] = []
    assert forum.bot.find_post(thread, body, after=PostId(seen)) is None
    ref = forum.bot.reply(thread, body, last_seen=PostId(seen), on_submit=lambda: calls.append(1))
    assert calls and ref.post_id > seen  # one call per POST (a flood refusal adds one)
    found = forum.bot.find_post(thread, body, after=PostId(seen))
    assert found is not None and found.post_id == ref.post_id
    newer = forum.post_as("Маша", "a post the bot has not read")
    with pytest.raises(ReplyRefusedNewerPost):
        forum.bot.reply(thread, "must not be posted", last_seen=ref.post_id)
    assert [p.post_id for p in forum.bot.iter_posts(thread, after=ref.post_id)] == [newer]


def test_a_pm_is_sent_once_and_found_in_the_sent_box(forum: Forum) -> None:
    subject = f"Result {uuid.uuid4().hex[:6]}"
    since = datetime.now(UTC) - timedelta(minutes=5)
    assert forum.bot.find_sent_pm(["Маша"], subject, "You are the Villager.", since=since) is None
    calls: list[int] = []
    ref = forum.bot.send_pm(["Маша", "Conia"], subject, "You are the Villager.",
                            on_submit=lambda: calls.append(1))  # fmt: skip
    assert calls  # before each POST that could write
    found = forum.bot.find_sent_pm(["Маша", "Conia"], subject, "You are the Villager.", since=since)
    assert found is not None and (ref.pm_id is None or found.pm_id == ref.pm_id)


def test_pms_after_a_mark_come_oldest_first(forum: Forum) -> None:
    newest = max((pm.pm_id for pm in forum.bot.iter_pms()), default=None)
    forum.pm_bot_as("Conia", "N1", "[b]check Маша[/b]")
    time.sleep(0)  # players act one after another, as on a board
    forum.pm_bot_as("Маша", "ночь", "лечу Conia")
    fresh = list(forum.bot.iter_pms(after=newest))
    assert [pm.subject for pm in fresh] == ["N1", "ночь"]
    assert fresh[0].sender.name == "Conia" and fresh[1].sender.name == "Маша"
    assert list(forum.bot.iter_pms(after=fresh[-1].pm_id)) == []
