"""The phase clock with the GM: an unclear order holds its phase until the GM decides it."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from forumbot.db.enums import OrderStatus, PhaseStatus, ReviewKind
from forumbot.db.models import Order, Phase, ReviewItem
from forumbot.localforum import LocalForum
from forumbot.services import cycle, games, review, status
from forumbot.services.phases import clock as phase_clock
from forumbot.services.phases import controls, daycount


def _phase(rt, name):
    with rt.sessions() as session:
        return session.scalar(select(Phase).where(Phase.name == name))


def test_an_unclear_order_waits_for_the_gm_then_counts(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    # The parser is unsure of an order asked as a question: it queues "heal Ann" as a reading.
    LocalForum(world["forum_dir"], "Bob", clock=clock).add_pm("Bob", "N1", "heal ann?", clock.now())
    cycle(rt, game_id)
    clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))  # the night's deadline
    phase_clock.tick(rt, game_id)
    assert _phase(rt, "night1").status is PhaseStatus.FROZEN  # not resolved on a guess
    with rt.sessions() as session:
        alerts = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT))
        assert "unclear order(s) need your decision" in next(iter(alerts)).reason
        item = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.ORDER)).one()
    with rt.sessions.begin() as session:
        review.accept_candidate(session, item.id, 0, gm="Steph")
    cycle(rt, game_id)
    assert _phase(rt, "night1").status is PhaseStatus.RESOLVED
    told = [pm["body"] for pm in LocalForum(world["forum_dir"], "ModBot").state.sent
            if pm["to"] == ["Bob"]]  # fmt: skip
    assert told[-1] == "The GM read your PM: heal Ann, Night 1."
    with rt.sessions() as session:
        decided = session.scalars(select(Order).where(Order.status == OrderStatus.ACCEPTED)).one()
        assert (decided.ability, decided.targets, decided.decided_by) == (
            "heal",
            ["Ann"],
            "gm:Steph",
        )
    assert status.status(rt, game_id)["phase_status"] == "resolved"


def test_a_game_that_votes_by_pm(tmp_path, clock):
    from forumbot.db import upgrade
    from forumbot.db.enums import GameStatus
    from forumbot.db.models import Game
    from forumbot.localforum import ForumState, save_state
    from tests.runtime.conftest import GAME, make_runtime

    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5))
    path = tmp_path / "game.yaml"
    path.write_text(
        GAME.replace("MODE", "auto").replace(
            "votes: {syntax: [dollar_bold, bold_vote]}",
            "votes: {channel: pm, syntax: [plain_vote]}",
        )
    )
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, path)
    games.start(rt, game_id)
    players = LocalForum(tmp_path / "forum", "Players", clock=clock)
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    assert _phase(rt, "day1").status is PhaseStatus.OPEN
    for voter in ("Ann", "Bob", "Carl"):
        players.add_pm(voter, "vote", "vote: Zed", clock.now())
    cycle(rt, game_id)
    tally = daycount.tally(rt, game_id)
    assert dict(tally.votes) == {"Zed": ("Ann", "Bob", "Carl")}
    controls.end_now(rt, game_id)
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions() as session:
        assert session.get(Game, game_id).status is GameStatus.FINISHED


def test_an_edited_vote_in_an_older_post_counts_at_the_deadline(auto_world, clock):
    from datetime import timedelta

    from forumbot.db.enums import GameStatus
    from forumbot.db.models import Game

    rt, game_id = auto_world["rt"], auto_world["game_id"]
    players = LocalForum(auto_world["forum_dir"], "Players", clock=clock)
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    players.add_post("Ann", "<b>$Zed</b>", clock.now())
    players.add_post("Bob", "<b>$Dan</b>", clock.now())
    carl = players.add_post("Carl", "<b>$Dan</b>", clock.now())
    players.add_post("Dan", "I am town.", clock.now())
    cycle(rt, game_id)  # read: Dan 2, Zed 1
    clock.advance(timedelta(hours=1))
    players.edit_post(carl["post_id"], "<b>$Zed</b>", clock.now())  # polling will not see it
    cycle(rt, game_id)
    controls.end_now(rt, game_id)
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions() as session:  # the final read saw the edit: Zed 2, Dan 1
        assert session.get(Game, game_id).status is GameStatus.FINISHED


def test_the_gm_redoes_a_resolved_phase_before_anything_is_sent(world, clock):
    from click.testing import CliRunner

    from forumbot.cli import main
    from forumbot.db.enums import DeliveryState, PlayerStatus
    from forumbot.db.models import Outbound, Player
    from forumbot.services import drafts

    rt, game_id = world["rt"], world["game_id"]
    LocalForum(world["forum_dir"], "Zed", clock=clock).add_pm("Zed", "N1", "kill Carl", clock.now())
    cycle(rt, game_id)
    clock.set(datetime(2026, 12, 2, 21, 0, 30, tzinfo=UTC))
    cycle(rt, game_id)
    assert _phase(rt, "night1").status is PhaseStatus.RESOLVED
    with rt.sessions.begin() as session:  # the GM changes his mind about Zed's order
        order = session.scalars(select(Order).where(Order.status == OrderStatus.ACCEPTED)).one()
        order.status = OrderStatus.SUPERSEDED
        session.add(Order(game_id=game_id, phase_id=order.phase_id, player_id=order.player_id,
                          ability="mafia_kill", targets=["Dan"], status=OrderStatus.ACCEPTED,
                          decided_by="gm:Steph", received_at=order.received_at))  # fmt: skip
    result = CliRunner().invoke(main, ["phase", "redo", "test-village", "--database", world["url"]])
    assert result.exit_code == 0, result.output
    cycle(rt, game_id)
    with rt.sessions.begin() as session:
        status = {p.display_name: p.status for p in session.scalars(select(Player))}
        assert status["Carl"] is PlayerStatus.ALIVE and status["Dan"] is PlayerStatus.DEAD
        rows = session.scalars(select(Outbound).where(Outbound.kind == "post")).all()
        assert [r.state for r in rows] == [DeliveryState.HELD, DeliveryState.DRAFT]
        assert "Dan" in rows[1].body and "Carl" not in rows[1].body
        for row in session.scalars(select(Outbound).where(Outbound.state == DeliveryState.DRAFT)):
            drafts.approve_draft(session, row.id, gm="Steph")
    cycle(rt, game_id)
    cycle(rt, game_id)
    assert _phase(rt, "night1").status is PhaseStatus.PUBLISHED
    assert _phase(rt, "day1").status is PhaseStatus.OPEN
    posts = LocalForum(world["forum_dir"], "ModBot").state.posts
    assert len(posts) == 1 and "Dan" in posts[0]["body_html"]


def test_a_doubtful_vote_goes_to_the_gm_and_the_count_follows_the_decision(world, clock):

    rt, game_id = world["rt"], world["game_id"]
    players = LocalForum(world["forum_dir"], "Players", clock=clock)
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions.begin() as session:  # approve mode: the GM lets the night post go
        from forumbot.db.models import Outbound
        from forumbot.services import drafts

        for row in session.scalars(select(Outbound).where(Outbound.state == "draft")):
            drafts.approve_draft(session, row.id, gm="Steph")
    for _ in range(2):
        cycle(rt, game_id)
    assert _phase(rt, "day1").status is PhaseStatus.OPEN
    players.add_post("Ann", "<b>$Xavier</b>", clock.now())  # nobody of that name
    players.add_post("Bob", "<b>$Zed</b>", clock.now())
    cycle(rt, game_id)
    cycle(rt, game_id)  # once only in the queue
    with rt.sessions() as session:
        items = session.scalars(select(ReviewItem).where(ReviewItem.kind == ReviewKind.VOTE)).all()
        assert len(items) == 1 and "Xavier" in items[0].reason
    assert dict(daycount.tally(rt, game_id).votes) == {"Zed": ("Bob",)}
    with rt.sessions.begin() as session:
        vote = review.OrderInput(ability="vote", targets=("Zed",))
        review.accept_edit(session, items[0].id, (vote,), gm="Steph", note="he meant Zed")
    assert dict(daycount.tally(rt, game_id).votes) == {"Zed": ("Ann", "Bob")}


def test_a_gm_decision_on_item_1_is_not_read_from_item_12s_vote(world, clock):
    """Each decided vote points at its own queue item: item 1 never picks up item 12's vote
    (a ``LIKE '% review item 1%'`` link matched item 12 too)."""
    rt, game_id = world["rt"], world["game_id"]
    players = LocalForum(world["forum_dir"], "Players", clock=clock)
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions.begin() as session:  # approve mode: the GM lets the night post go
        from forumbot.db.models import Outbound
        from forumbot.services import drafts

        for row in session.scalars(select(Outbound).where(Outbound.state == "draft")):
            drafts.approve_draft(session, row.id, gm="Steph")
    for _ in range(2):
        cycle(rt, game_id)
    assert _phase(rt, "day1").status is PhaseStatus.OPEN
    players.add_post("Ann", "<b>$Xavier</b>", clock.now())  # nobody of that name: item 1
    cycle(rt, game_id)
    for n in range(10):  # ten PMs that are no orders: items 2 to 11
        players.add_pm("Carl", f"hi {n}", "hello there, how is everyone?", clock.now())
    cycle(rt, game_id)
    players.add_post("Dan", "<b>$Yuri</b>", clock.now())  # nobody of that name: item 12
    cycle(rt, game_id)
    with rt.sessions() as session:
        votes = session.scalars(
            select(ReviewItem).where(ReviewItem.kind == ReviewKind.VOTE).order_by(ReviewItem.id)
        ).all()
        assert [(i.id, "Xavier" in i.reason or "Yuri" in i.reason) for i in votes] == [
            (1, True),
            (12, True),
        ]
    with rt.sessions.begin() as session:  # the GM decides item 12 first, then item 1
        zed = review.OrderInput(ability="vote", targets=("Zed",))
        review.accept_edit(session, 12, (zed,), gm="Steph", note="Dan meant Zed")
    with rt.sessions.begin() as session:
        bob = review.OrderInput(ability="vote", targets=("Bob",))
        review.accept_edit(session, 1, (bob,), gm="Steph", note="Ann meant Bob")
    assert dict(daycount.tally(rt, game_id).votes) == {"Bob": ("Ann",), "Zed": ("Dan",)}


def test_a_revealed_mayors_vote_counts_three_in_the_next_days_count(tmp_path, clock):
    """The vote counter sees each player's statuses from the last resolved phase: a Mayor
    revealed on day 1 (``revealed``: vote weight 3) weighs 3 on day 2's wagon."""
    from forumbot.db import upgrade
    from forumbot.localforum import ForumState, save_state
    from tests.runtime.conftest import GAME, make_runtime

    url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
    upgrade(url)
    save_state(tmp_path / "forum", ForumState(topic_id=5))
    path = tmp_path / "game.yaml"
    path.write_text(
        GAME.replace("MODE", "auto").replace(
            "{name: Carl, role: villager}", "{name: Carl, role: mayor}"
        )
    )
    rt = make_runtime(url, tmp_path / "forum", clock)
    game_id = games.register(rt, path)
    games.start(rt, game_id)
    players = LocalForum(tmp_path / "forum", "Players", clock=clock)
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    assert _phase(rt, "day1").status is PhaseStatus.OPEN
    players.add_pm("Carl", "D1", "mayor reveal", clock.now())
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # day 1 ends without a lynch; Carl is revealed
    for _ in range(3):
        cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 2
    for _ in range(3):
        cycle(rt, game_id)
    assert _phase(rt, "day2").status is PhaseStatus.OPEN
    players.add_post("Carl", "<b>$Zed</b>", clock.now())
    players.add_post("Ann", "<b>$Zed</b>", clock.now())
    cycle(rt, game_id)
    count = daycount.tally(rt, game_id)
    assert count is not None and count.votes == {"Zed": ("Carl", "Ann")}
    assert count.result.wagons[0].total == 4  # Carl's 3 and Ann's 1
