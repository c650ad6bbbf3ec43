"""The review and drafts services, without the web page."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OrderStatus, ReviewState
from forumbot.db.models import Game, LearnedMapping, Order, ReviewItem, VoteEvent
from forumbot.db.repo import move_outbound
from forumbot.services import drafts, review
from forumbot.services.review import InvalidDecision, Lesson, OrderInput
from tests.web.conftest import copy_of
from tests.web.seed import NOW, Built, Seeded, play_on


@pytest.fixture(scope="session")
def pg_built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[bool], str]]:
    """The same game played on PostgreSQL once per session for each moment (night 2 open, or
    drafted): the URL of a database each test copies, as the SQLite tests copy ``built``."""
    from forumbot.db import upgrade
    from tests.storage.conftest import _postgres_database

    played: dict[bool, str] = {}
    with contextlib.ExitStack() as stack:

        def of(drafted: bool) -> str:
            if drafted not in played:
                url = stack.enter_context(contextlib.contextmanager(_postgres_database)())
                upgrade(url)
                play_on(url, tmp_path_factory.mktemp("pg-game"), drafted=drafted)
                played[drafted] = url
            return played[drafted]

        yield of


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, built: Built, tmp_path: Path) -> Iterator[str]:
    """The services run on both engines (PostgreSQL when FORUMBOT_TEST_POSTGRES_URL is set):
    a copy of the built game, or a copy of the same game played on PostgreSQL."""
    from tests.storage.conftest import _postgres_database

    if request.param == "sqlite":
        yield copy_of(built, request, tmp_path)
        return
    drafted = request.node.get_closest_marker("drafted") is not None
    yield from _postgres_database(template=request.getfixturevalue("pg_built")(drafted))


def test_queue_lists_open_items_with_context(session: Session, seeded: Seeded) -> None:
    entries = review.list_queue(session, seeded.game_id)
    # oldest first: Carl's doubtful vote, the outsider account's vote, Bob's unclear order
    assert [e.id for e in entries] == [seeded.vote_item_id, 2, seeded.order_item_id]
    assert entries[1].reason.startswith("'$Ann': <img src=x onerror=")  # its name, as text
    order = entries[2]
    assert (order.sender, order.phase_name, order.source) == ("Bob", "night2", "pm")
    assert order.sender_role == "doctor" and order.recipients == ("ModBot",)
    assert "heal annie please" in order.text and "<script>" not in order.text
    assert order.candidates[0].label == "heal Ann"
    assert order.candidates[0].lessons == ()  # "annie" is Ann's alias already
    vote = entries[0]
    from forumbot.db.models import RawPost

    item = session.get_one(ReviewItem, seeded.vote_item_id)
    post = session.get_one(RawPost, item.raw_post_id)
    assert vote.link == f"{post.page_url}#msg{post.post_id}"  # Carl's post
    assert vote.link.startswith("http://127.0.0.1:") and "topic=5" in vote.link


def test_accepting_a_candidate_stores_order_who_when_and_lesson(
    session: Session, seeded: Seeded
) -> None:
    decision = review.accept_candidate(session, seeded.order_item_id, 0, gm="Steph")
    session.commit()
    item = session.get(ReviewItem, seeded.order_item_id)
    assert item is not None and item.state is ReviewState.ACCEPTED
    assert item.decided_by == "gm:Steph" and item.decided_at is not None
    order = session.get(Order, decision.order_ids[0])
    assert order is not None
    assert (order.ability, order.targets, order.status) == ("heal", ["Ann"], OrderStatus.ACCEPTED)
    assert order.decided_by == "gm:Steph"
    learned = session.scalars(select(LearnedMapping)).all()
    assert learned == []  # "annie" is Ann's alias in the game file: nothing new to learn
    with pytest.raises(InvalidDecision, match="already decided"):
        review.accept_candidate(session, seeded.order_item_id, 0, gm="Steph")


def test_edit_is_validated_against_living_targets(session: Session, seeded: Seeded) -> None:
    with pytest.raises(InvalidDecision, match="dead, or not in the game"):
        review.accept_edit(
            session, seeded.order_item_id, [OrderInput("heal", ("Dave",))], gm="Steph"
        )
    with pytest.raises(InvalidDecision, match="cannot use 'kill'"):
        review.accept_edit(
            session, seeded.order_item_id, [OrderInput("kill", ("Carl",))], gm="Steph"
        )
    decision = review.accept_edit(
        session,
        seeded.order_item_id,
        [OrderInput("heal", ("Carl",))],
        gm="Steph",
        note="he meant Carl",
        lessons=[Lesson("player", "Carly", "Carl")],
    )
    assert decision.state is ReviewState.EDITED
    assert decision.lessons == (Lesson("player", "carly", "Carl"),)


def test_choices_fall_back_to_candidates(session: Session, seeded: Seeded) -> None:
    game = session.get(Game, seeded.game_id)
    assert game is not None
    game.ruleset = "no-such-ruleset"
    choices = review.choices_for(session, seeded.order_item_id)
    assert not choices.from_ruleset
    heal = choices.ability("heal")
    assert heal is not None
    assert "Dave" not in heal.targets[0].options
    assert "Ann" in heal.targets[0].options


def test_choices_come_from_the_ruleset_when_it_loads(session: Session, seeded: Seeded) -> None:
    game = session.get(Game, seeded.game_id)
    assert game is not None
    ruleset = review.load_game_ruleset(game)
    if ruleset is None:
        pytest.skip("the failheap ruleset does not load yet")
    choices = review.choices_for(session, seeded.order_item_id, ruleset=ruleset)
    assert choices.from_ruleset
    legal = {a.id for a in choices.abilities}
    assert legal == set(ruleset.roles["doctor"].abilities)
    for ability in choices.abilities:
        for picker in ability.targets:
            assert "Dave" not in picker.options


def test_spent_abilities_and_item_abilities(session: Session, seeded: Seeded) -> None:
    from forumbot.db.models import Phase

    game = session.get(Game, seeded.game_id)
    assert game is not None
    ruleset = review.load_game_ruleset(game)
    if ruleset is None:
        pytest.skip("the failheap ruleset does not load yet")
    day1 = session.scalars(select(Phase).where(Phase.name == "day1")).one()  # the latest state
    state = dict(day1.state_after or {})
    players = [dict(p) for p in state["players"]]
    bob = next(p for p in players if p["name"] == "Bob")
    bob["uses"] = [["heal", 0]]
    granting = next((i for i in ruleset.items.values() if i.ability), None)
    if granting is not None:
        bob["items"] = [[granting.id, 1]]
    day1.state_after = {**state, "players": players}
    session.flush()
    legal = {a.id for a in review.choices_for(session, seeded.order_item_id, ruleset).abilities}
    assert "heal" not in legal
    if granting is not None and ruleset.abilities[granting.ability].allowed_in("night"):
        assert granting.ability in legal


def test_accepting_a_cancel_cancels_the_earlier_order(session: Session, seeded: Seeded) -> None:
    item = session.get(ReviewItem, seeded.order_item_id)
    assert item is not None
    earlier = Order(
        game_id=item.game_id, phase_id=item.phase_id, player_id=item.player_id,
        ability="heal", targets=["Ann"], status=OrderStatus.ACCEPTED, received_at=NOW,
    )  # fmt: skip
    session.add(earlier)
    item.candidates = [{"orders": [{"kind": "cancel", "ability": "heal"}], "why": "cancel"}]
    session.flush()
    entry = review.get_entry(session, item.id)
    assert entry.candidates[0].label == "cancel heal"
    decision = review.accept_candidate(session, item.id, 0, gm="Steph")
    assert decision.order_ids == () and earlier.status is OrderStatus.CANCELLED


def test_reject_needs_a_note_and_records_it(session: Session, seeded: Seeded) -> None:
    with pytest.raises(InvalidDecision, match="note"):
        review.reject(session, seeded.order_item_id, gm="Steph", note=" ")
    decision = review.reject(session, seeded.order_item_id, gm="Steph", note="not an order")
    order = session.get(Order, decision.order_ids[0])
    assert order is not None and order.status is OrderStatus.REJECTED
    assert order.reason.endswith("not an order")


def test_accepting_a_vote_counts_it(session: Session, seeded: Seeded) -> None:
    decision = review.accept_candidate(session, seeded.vote_item_id, 0, gm="Steph")
    vote = session.get(VoteEvent, decision.vote_ids[0])
    assert vote is not None and vote.counted and "gm:Steph" in vote.reason


def test_a_vote_candidate_teaches_what_was_written(session: Session, seeded: Seeded) -> None:
    item = session.get(ReviewItem, seeded.vote_item_id)
    assert item is not None
    item.candidates = [{"target": "Zoé", "kind": "vote", "written": "Zo"}, "Ann"]
    session.flush()
    entry = review.get_entry(session, item.id)
    assert [c.label for c in entry.candidates] == ["vote Zoé", "vote Ann"]
    decision = review.accept_candidate(session, item.id, 0, gm="Steph")
    assert decision.lessons == (Lesson("player", "zo", "Zoé"),)


def test_a_vote_for_a_dead_player_is_refused(session: Session, seeded: Seeded) -> None:
    with pytest.raises(InvalidDecision, match="dead, or not in the game"):
        review.accept_edit(session, seeded.vote_item_id, [OrderInput("vote", ("Dave",))], gm="S")
    with pytest.raises(InvalidDecision, match="cannot use 'heal'"):
        review.accept_edit(session, seeded.vote_item_id, [OrderInput("heal", ("Ann",))], gm="S")


@pytest.mark.drafted
def test_drafts_approve_once_and_hold(session: Session, seeded: Seeded) -> None:
    views = drafts.list_drafts(session, seeded.game_id)
    assert [v.kind.value for v in views][:2] == ["post", "pm"]
    assert views[0].phase_name == "night2"
    edited = drafts.edit_draft(session, seeded.pm_draft_id, body="Zoé is innocent.", gm="Steph")
    assert edited.edited_by == "gm:Steph" and edited.edited_at is not None
    view, moved = drafts.approve_draft(session, seeded.pm_draft_id, gm="Steph")
    assert moved and view.state is DeliveryState.APPROVED and view.approved_by == "gm:Steph"
    again, moved = drafts.approve_draft(session, seeded.pm_draft_id, gm="Steph")
    assert not moved and again.state is DeliveryState.APPROVED
    with pytest.raises(drafts.DraftError):
        drafts.edit_draft(session, seeded.pm_draft_id, body="x", gm="Steph")
    held = drafts.hold_draft(session, seeded.post_draft_id, gm="Steph")
    assert held.state is DeliveryState.HELD
    assert (
        drafts.release_draft(session, seeded.post_draft_id, gm="Steph").state is DeliveryState.DRAFT
    )


@pytest.mark.drafted
def test_a_sent_message_cannot_be_held(session: Session, seeded: Seeded) -> None:
    drafts.approve_draft(session, seeded.pm_draft_id, gm="Steph")
    from forumbot.db.models import Outbound

    row = session.get(Outbound, seeded.pm_draft_id)
    assert row is not None
    move_outbound(session, row, DeliveryState.SENDING)
    with pytest.raises(drafts.DraftError, match="no longer be held"):
        drafts.hold_draft(session, seeded.pm_draft_id, gm="Steph")
