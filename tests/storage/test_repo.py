"""What storage promises: raw input is kept as fetched, once; outbound messages go forward only."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.enums import DeliveryState, OutboundKind, PhaseKind, Visibility
from forumbot.db.models import Game, Outbound, Phase, RawPM, RawPost
from forumbot.db.repo import (
    DeliveryStateError,
    IncomingPM,
    IncomingPost,
    append_events,
    draft_outbound,
    get_or_create_forum,
    move_outbound,
    post_revisions,
    store_pm,
    store_post,
)

T0 = datetime(2026, 3, 1, 21, 0, tzinfo=UTC)


@pytest.fixture
def session(empty_db_url: str) -> Iterator[Session]:
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    factory: sessionmaker[Session] = make_session_factory(engine)
    with factory() as session:
        yield session
    engine.dispose()


def _post(body: str) -> IncomingPost:
    return IncomingPost(
        topic_id="10", post_id="501", author_name="Zoé", posted_at=T0, body_html=body
    )


def test_a_post_fetched_twice_is_stored_once(session: Session) -> None:
    forum = get_or_create_forum(session, "phpbb", "https://b.example/")
    _, first = store_post(session, forum.id, _post("<b>$Bob</b>"))
    _, again = store_post(session, forum.id, _post("<b>$Bob</b>"))
    assert (first, again) == (True, False)
    assert session.scalar(select(func.count()).select_from(RawPost)) == 1


def test_an_edited_post_keeps_both_versions(session: Session) -> None:
    forum = get_or_create_forum(session, "phpbb", "https://b.example/")
    store_post(session, forum.id, _post("<b>$Bob</b>"))
    _, new = store_post(session, forum.id, _post("<b>$Carl</b> (edited)"))
    assert new
    bodies = [row.body_html for row in post_revisions(session, forum.id, "501")]
    assert bodies == ["<b>$Bob</b>", "<b>$Carl</b> (edited)"]


def test_a_pm_is_stored_once_with_every_recipient(session: Session) -> None:
    forum = get_or_create_forum(session, "smf", "https://s.example/")
    pm = IncomingPM(
        pm_id="77",
        sender_name="Bob",
        sent_at=T0,
        body_html="I hand my actions to Ann for N2",
        recipients=({"name": "GM"}, {"name": "Ann"}),
    )
    row, new = store_pm(session, forum.id, "gm-bot", pm)
    _, again = store_pm(session, forum.id, "gm-bot", pm)
    assert new and not again
    assert [r["name"] for r in row.recipients] == ["GM", "Ann"]
    assert session.scalar(select(func.count()).select_from(RawPM)) == 1


def _game(session: Session) -> Game:
    forum = get_or_create_forum(session, "smf", "https://s.example/")
    game = Game(name="g", forum=forum, topic_id="1", topic_url="u", ruleset="failheap", seed=1)
    session.add(game)
    session.flush()
    return game


def test_drafting_the_same_message_twice_makes_one_row(session: Session) -> None:
    game = _game(session)
    kwargs = {"game_id": game.id, "key": "g:n1:post", "kind": OutboundKind.POST, "body": "Day 1"}
    row, new = draft_outbound(session, **kwargs)
    again, new_again = draft_outbound(session, **{**kwargs, "body": "changed"})
    assert new and not new_again
    assert again.id == row.id and again.body == "Day 1"
    assert session.scalar(select(func.count()).select_from(Outbound)) == 1


def test_delivery_only_moves_forward(session: Session) -> None:
    game = _game(session)
    row, _ = draft_outbound(
        session, game_id=game.id, key="k", kind=OutboundKind.PM, body="x", recipients=["Ann"]
    )
    with pytest.raises(DeliveryStateError, match="draft; it cannot become sending"):
        move_outbound(session, row, DeliveryState.SENDING)  # not approved yet
    move_outbound(session, row, DeliveryState.APPROVED, by="GM")
    move_outbound(session, row, DeliveryState.SENDING)
    move_outbound(session, row, DeliveryState.SENT, forum_message_id="9001")
    assert (row.state, row.forum_message_id, row.attempts) == (DeliveryState.SENT, "9001", 1)
    with pytest.raises(DeliveryStateError):
        move_outbound(session, row, DeliveryState.SENDING)  # sent is final: never twice


def test_events_are_appended_in_order_and_secret_by_default(session: Session) -> None:
    game = _game(session)
    phase = Phase(game=game, sequence=1, name="night1", kind=PhaseKind.NIGHT, number=1)
    session.add(phase)
    session.flush()
    first = append_events(
        session,
        game_id=game.id,
        phase_id=phase.id,
        events=[{"kind": "killed", "visibility": "public", "data": {"player": "Ann"}}],
    )
    second = append_events(
        session, game_id=game.id, phase_id=phase.id, events=[{"kind": "rng_draw"}]
    )
    assert [e.seq for e in first + second] == [0, 1]
    assert second[0].visibility is Visibility.GM
