"""The GM page's vote count is the runtime's own: posts read from the forum by the runtime,
counted like the vote-count post and the lynch (no rows inserted by hand)."""

from __future__ import annotations

from sqlalchemy import select

from forumbot.db.models import Phase
from forumbot.localforum import LocalForum
from forumbot.services import cycle
from forumbot.web import create_app
from tests.runtime.conftest import clock, world  # noqa: F401  (fixtures)
from tests.runtime.test_day_votes import _to_day1
from tests.web.conftest import TOKEN, csrf_of


def test_the_phase_page_shows_the_runtimes_count_decision_and_chart(world, clock):  # noqa: F811
    rt, game_id = world["rt"], world["game_id"]
    _to_day1(world, clock)
    forum = LocalForum(world["forum_dir"], "Players", clock=clock)
    forum.add_post("Ann", "<b>$Zed</b>", clock.now())
    forum.add_post("Bob", "<b>$Zed</b>", clock.now())
    forum.add_post("Carl", "<b>$Ann</b>", clock.now())
    forum.add_post("Carl", "<s>$Ann</s> <b>$Zed</b>", clock.now())
    forum.add_post("Dan", "<b>$Zorro</b>", clock.now())
    cycle(rt, game_id)
    with rt.sessions() as session:
        day1 = session.scalar(select(Phase).where(Phase.name == "day1")).id
    client = create_app(rt.sessions, token=TOKEN, now=clock.now).test_client()
    client.get("/login")
    client.post("/login", data={"token": TOKEN, "name": "Steph", "csrf_token": csrf_of(client)})
    page = client.get(f"/games/{game_id}/phase/{day1}").data.decode()
    assert "<b>Zed</b> (3): Ann, Bob, Carl" in page
    assert "Waiting for your decision (1): Dan" in page
    assert "Decision: undecided" in page and "The Day is open" in page
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="wagons"' in page
    assert "No counted votes" not in page
