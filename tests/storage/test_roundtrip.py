"""Every model survives a write and a read in a new session, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session, sessionmaker

from forumbot.db import make_engine, make_session_factory, upgrade
from forumbot.db.enums import (
    DeliveryState,
    OrderStatus,
    OutboundKind,
    PhaseKind,
    ReviewKind,
    Visibility,
    VoteKind,
)
from forumbot.db.models import (
    ALL_MODELS,
    Forum,
    Game,
    LearnedMapping,
    Order,
    Outbound,
    Phase,
    PhaseEvent,
    Player,
    RawPM,
    RawPost,
    ReviewItem,
    RosterChange,
    VoteEvent,
)

T0 = datetime(2026, 3, 1, 21, 0, tzinfo=UTC)
MOSCOW = timezone(timedelta(hours=3))


@pytest.fixture
def sessions(empty_db_url: str) -> Iterator[sessionmaker[Session]]:
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    yield make_session_factory(engine)
    engine.dispose()


def _one_of_each(session: Session) -> dict[type, int]:
    forum = Forum(engine="smf", base_url="https://forum.example/", name="Example")
    game = Game(
        name="Дюрарара LG 3",
        forum=forum,
        topic_id="1234",
        topic_url="https://forum.example/index.php?topic=1234.0",
        ruleset="durarara",
        seed=2**40,
        gm_name="Kleene",
        settings={"schedule": {"timezone": "Europe/Paris"}},
    )
    ann = Player(game=game, slot=1, display_name="Аня", aliases=["Anya"], role="sheriff")
    bob = Player(game=game, slot=2, display_name="Bob", faction="mafia", statuses=["doused"])
    phase = Phase(
        game=game,
        sequence=1,
        name="day1",
        kind=PhaseKind.DAY,
        number=1,
        starts_at=T0,
        deadline=T0.astimezone(MOSCOW) + timedelta(hours=48),
        inner_deadlines={"orders": "19:00"},
    )
    session.add_all([forum, game, ann, bob, phase])
    session.flush()
    post = RawPost(
        forum_id=forum.id,
        topic_id="1234",
        post_id="98765",
        author_user_id="7",
        author_name="Аня",
        posted_at=T0,
        body_html="<b>$Bob</b> 😀",
        body_sha256="0" * 64,
    )
    pm = RawPM(
        forum_id=forum.id,
        account="forumbot",
        pm_id="55",
        sender_name="Bob",
        recipients=[{"user_id": "1", "name": "GM"}, {"user_id": "7", "name": "Аня"}],
        sent_at=T0,
        subject="N1",
        body_html="лечу Машу",
    )
    session.add_all([post, pm])
    session.flush()
    rows = [
        VoteEvent(
            game_id=game.id,
            phase_id=phase.id,
            raw_post_id=post.id,
            voter_id=ann.id,
            target_id=bob.id,
            kind=VoteKind.VOTE,
            cast_at=T0,
        ),
        Order(
            game_id=game.id,
            phase_id=phase.id,
            player_id=bob.id,
            raw_pm_id=pm.id,
            ability="protect",
            targets=["Аня"],
            params={"phase": "night1"},
            status=OrderStatus.ACCEPTED,
            confidence=0.97,
            reason="protect Аня",
            received_at=T0,
        ),
        ReviewItem(
            game_id=game.id,
            phase_id=phase.id,
            kind=ReviewKind.ORDER,
            raw_pm_id=pm.id,
            reason="two players called Ma…",
            candidates=[{"ability": "protect", "targets": ["Маша"]}],
        ),
        LearnedMapping(game_id=game.id, kind="player", text="машу", value="Маша", created_by="GM"),
        Outbound(
            game_id=game.id,
            kind=OutboundKind.PM,
            idempotency_key="g1:night1:result:Bob",
            recipients=["Bob"],
            body="You protected Аня.",
        ),
        PhaseEvent(
            game_id=game.id,
            phase_id=phase.id,
            seq=0,
            kind="protected",
            visibility=Visibility.PRIVATE,
            recipients=["Bob"],
            data={"target": "Аня"},
        ),
        RosterChange(
            game_id=game.id,
            phase_id=phase.id,
            kind="modkill",
            player_id=ann.id,
            at=T0.astimezone(MOSCOW),
            by="gm:Стеф",
            note="ушла",
            data={"role": "doctor", "revealed": True},
        ),
    ]
    session.add_all(rows)
    session.commit()
    every = [forum, game, ann, phase, post, pm, *rows]
    return {type(row): row.id for row in every}


def test_every_model_round_trips(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        ids = _one_of_each(session)
    assert set(ids) == set(ALL_MODELS)

    with sessions() as session:
        game = session.get(Game, ids[Game])
        assert game is not None
        assert game.name == "Дюрарара LG 3"
        assert game.seed == 2**40
        assert [p.display_name for p in game.players] == ["Аня", "Bob"]
        assert game.players[1].statuses == ["doused"]
        phase = session.get(Phase, ids[Phase])
        assert phase is not None
        # Written in Moscow time, read back as the same instant in aware UTC.
        assert phase.deadline == T0 + timedelta(hours=48)
        assert phase.deadline.tzinfo is not None
        pm = session.get(RawPM, ids[RawPM])
        assert pm is not None and pm.recipients[1]["name"] == "Аня"
        post = session.get(RawPost, ids[RawPost])
        assert post is not None and post.body_html == "<b>$Bob</b> 😀"
        order = session.get(Order, ids[Order])
        assert order is not None and order.targets == ["Аня"] and order.confidence == 0.97
        assert order.status is OrderStatus.ACCEPTED
        vote = session.get(VoteEvent, ids[VoteEvent])
        assert vote is not None and vote.kind is VoteKind.VOTE and vote.counted
        item = session.get(ReviewItem, ids[ReviewItem])
        assert item is not None and item.candidates[0]["targets"] == ["Маша"]
        outbound = session.get(Outbound, ids[Outbound])
        assert outbound is not None and outbound.state is DeliveryState.DRAFT
        event = session.get(PhaseEvent, ids[PhaseEvent])
        assert event is not None and event.visibility is Visibility.PRIVATE
        mapping = session.get(LearnedMapping, ids[LearnedMapping])
        assert mapping is not None and mapping.value == "Маша"
        change = session.get(RosterChange, ids[RosterChange])
        assert change is not None and change.at == T0 and change.at.tzinfo is not None
        assert (change.by, change.note, change.data["revealed"]) == ("gm:Стеф", "ушла", True)


def test_naive_datetimes_are_refused(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        forum = Forum(engine="phpbb", base_url="https://b.example/", name="b")
        session.add(forum)
        session.flush()
        session.add(
            RawPost(
                forum_id=forum.id,
                topic_id="1",
                post_id="1",
                author_name="x",
                posted_at=datetime(2026, 1, 1, 12, 0),  # no time zone: which one?
                body_html="",
                body_sha256="",
            )
        )
        with pytest.raises(StatementError, match="naive datetime"):
            session.flush()


def test_a_player_name_is_unique_within_a_game(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        _one_of_each(session)
        game = session.scalars(select(Game)).one()
        session.add(Player(game=game, slot=3, display_name="Bob"))
        with pytest.raises(IntegrityError):
            session.flush()


def test_a_forum_row_names_an_engine_of_the_registry() -> None:
    # forums.engine is checked against forum_adapters.ENGINES (plus the local forum), so an
    # engine is listed once: its registry entry.
    from forum_adapters import ENGINES

    assert Forum(engine="file", base_url="x", name="x").engine == "file"
    for name in ENGINES:
        assert Forum(engine=name, base_url="x", name="x").engine == name
    with pytest.raises(ValueError, match="unknown forum engine 'vbulletin'"):
        Forum(engine="vbulletin", base_url="x", name="x")
