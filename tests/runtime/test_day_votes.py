"""The Day's votes through the runtime: posts ingested from the (local) forum, the count,
the GM's decisions remembered, look-alike accounts, and a lynch that is never guessed."""

from __future__ import annotations

from sqlalchemy import select

from forumbot.db.enums import PhaseStatus, ReviewKind, ReviewState
from forumbot.db.models import Outbound, Phase, ReviewItem
from forumbot.localforum import LocalForum
from forumbot.services import cycle, drafts, review, status
from forumbot.services.phases import controls, daycount


def _phase(rt, name):
    with rt.sessions() as session:
        return session.scalar(select(Phase).where(Phase.name == name))


def _to_day1(world, clock) -> None:
    rt, game_id = world["rt"], world["game_id"]
    cycle(rt, game_id)
    controls.end_now(rt, game_id)  # a quiet night 1
    for _ in range(3):
        cycle(rt, game_id)
    with rt.sessions.begin() as session:
        for row in session.scalars(select(Outbound).where(Outbound.state == "draft")):
            drafts.approve_draft(session, row.id, gm="Steph")
    for _ in range(2):
        cycle(rt, game_id)
    assert _phase(rt, "day1").status is PhaseStatus.OPEN


def test_a_look_alike_account_never_votes_as_the_player(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())
    forum.add_post("\u0410nn", "<b>$Bob</b>", clock.now())  # Cyrillic А: another account
    forum.add_post("Carl\u200b", "<b>$Bob</b>", clock.now())
    cycle(rt, game_id)
    count = daycount.tally(rt, game_id)
    assert count.votes == {"Zed": ("Ann",)}
    assert [q.kind for q in count.result.queue] == ["lookalike_account", "lookalike_account"]


def test_the_gms_reading_of_a_name_is_remembered_for_the_game(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>vote: Zedd the Great</b>", clock.now())
    cycle(rt, game_id)
    with rt.sessions() as session:
        item = session.scalar(select(ReviewItem).where(ReviewItem.kind == ReviewKind.VOTE))
        assert item is not None and item.state is ReviewState.OPEN
        item_id = item.id
    with rt.sessions.begin() as session:
        vote = review.OrderInput(ability="vote", targets=("Zed",))
        lesson = review.Lesson("player", "Zedd the Great", "Zed")
        review.accept_edit(session, item_id, (vote,), gm="Steph", lessons=(lesson,))
    assert daycount.tally(rt, game_id).votes == {"Zed": ("Ann",)}
    forum.add_post("Bob", "<b>vote: zedd the great</b>", clock.now())  # the same name later
    cycle(rt, game_id)
    count = daycount.tally(rt, game_id)
    assert count.votes == {"Zed": ("Ann", "Bob")}
    assert count.result.queue == ()


def test_an_undecided_lynch_holds_the_day_for_the_gm(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())
    forum.add_post("Bob", "<b>$Zorro</b>", clock.now())  # could be on Zed: 2-1 or 1-1
    forum.add_post("Carl", "<b>$Dan</b>", clock.now())
    cycle(rt, game_id)
    controls.end_now(rt, game_id)
    for _ in range(2):
        cycle(rt, game_id)
    day = _phase(rt, "day1")
    assert day.status is PhaseStatus.FROZEN  # not resolved: the lynch waits for the GM
    with rt.sessions() as session:
        alerts = session.scalars(
            select(ReviewItem).where(ReviewItem.kind == ReviewKind.ALERT)
        ).all()
        assert any("the lynch is undecided" in a.reason for a in alerts)


def test_status_shows_the_live_count_and_the_time_left(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())
    forum.add_post("Bob", "<b>$Zed</b>", clock.now())
    cycle(rt, game_id)
    info = status.status(rt, game_id)
    assert info["phase"] == "day1" and info["time_left"] != "0"
    assert info["votes"] == ["Zed (2): Ann, Bob"]
    assert info["not_voting"] == ["Carl", "Dan", "Zed"]
    assert info["decision"].startswith("undecided: The Day is open")


def test_a_newer_vote_count_replaces_the_unapproved_one_and_none_after_the_day(world, clock):
    from datetime import timedelta

    from forumbot.db.models import Game

    rt, game_id = world["rt"], world["game_id"]
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        text = game.settings["game_yaml"].replace(
            "poll_interval: 2m", "poll_interval: 2m, vote_count_every: 6h"
        )
        game.settings = {**game.settings, "game_yaml": text}
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())

    def counts(state: str) -> list[str]:
        with rt.sessions() as session:
            rows = session.scalars(
                select(Outbound).where(
                    Outbound.idempotency_key.contains(":votecount:"), Outbound.state == state
                )
            )
            return [r.body for r in rows]

    clock.advance(timedelta(hours=6, minutes=1))
    cycle(rt, game_id)
    assert len(counts("draft")) == 1
    forum.add_post("Bob", "<b>$Zed</b>", clock.now())
    clock.advance(timedelta(hours=6))
    cycle(rt, game_id)
    drafts_now = counts("draft")
    assert len(drafts_now) == 1 and "Bob" in drafts_now[0]  # the newer count only
    assert len(counts("held")) == 1
    controls.end_now(rt, game_id)
    cycle(rt, game_id)
    assert counts("draft") == []  # the Day ended: its count is not posted


def test_posts_voting_in_another_syntax_alert_the_gm_once(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    with rt.sessions.begin() as session:
        from forumbot.db.models import Game

        game = session.get_one(Game, game_id)
        text = game.settings["game_yaml"].replace(
            "votes: {syntax: [dollar_bold, bold_vote]}", "votes: {syntax: [dollar_bold]}"
        )
        game.settings = {**game.settings, "game_yaml": text}
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    for voter, target in [("Ann", "Zed"), ("Bob", "Zed"), ("Carl", "Ann")]:
        forum.add_post(voter, f"<b>vote: {target}</b>", clock.now())
    cycle(rt, game_id)
    cycle(rt, game_id)
    with rt.sessions() as session:
        alerts = session.scalars(
            select(ReviewItem).where(ReviewItem.problem_key == "day1:vote-syntax")
        ).all()
    assert len(alerts) == 1
    assert "no vote found in the game's vote syntax (dollar_bold)" in alerts[0].reason
    assert "bold_vote (3 posts)" in alerts[0].reason


def test_the_hosts_own_vote_count_decides_a_name_the_counter_queued(world, clock):
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>vote: Zedd the Great</b>", clock.now())
    cycle(rt, game_id)
    assert daycount.tally(rt, game_id).result.pending == ("Ann",)
    count_post = "<b>Vote count</b><br>Zed (1): Ann<br>Not voting (4): Bob, Carl, Dan, Zed"
    forum.add_post("Steph", count_post, clock.now())  # the GM counted it for Zed
    cycle(rt, game_id)
    count = daycount.tally(rt, game_id)
    assert count.votes == {"Zed": ("Ann",)}
    assert count.result.queue == () and count.result.pending == ()
    assert any("counts Ann's 'Zedd the Great' for Zed" in n for n in count.result.notes)
