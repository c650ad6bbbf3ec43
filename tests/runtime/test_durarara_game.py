"""A whole Durarara game (seed 003, 12 players) on the real SMF adapter over loopback HTTP.

Day 0's mayor election to the village's win: French PMs for votes and orders, read by the
real order parser and vote counter; the wolves' 19:00 deadline and its reminder on the
runtime's phase clock in Paris time; the resolver and the French templates are the real ones.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from forumbot import jobs
from forumbot.clock import FakeClock
from forumbot.db import upgrade
from forumbot.db.enums import GameStatus, OrderStatus, ReviewKind, ReviewState
from forumbot.db.models import Game, Order, Player, ReviewItem
from forumbot.services import games, review
from tests.runtime.smf_forum import SMFTestForum
from tests.runtime.test_game_http import http_runtime

ROLES = {
    "Horada": "blue_square", "Izumii": "blue_square", "Celty": "celty", "Shinra": "shinra",
    "Tom": "tom", "Saki": "saki", "Mikado": "taro", "Masaomi": "bacula", "Simon": "cupid",
    "Erika": "villager", "Walker": "villager", "Kyohei": "villager",
}  # fmt: skip
GAME = """
name: ikebukuro
forum: {{url: "{url}?topic=5.0", engine: smf}}
credentials: {{username: ModBot, password_env: UNUSED}}
gm: GameMaster
ruleset: durarara
seed: 11
players:
{players}
schedule:
  timezone: Europe/Paris
  first_phase: day0
  start: 2026-12-01 22:00
  day: {{length: 48h, starts: "22:00"}}
  night: {{length: 24h, starts: "22:00"}}
publishing: {{mode: auto, receipts: true, poll_interval: 2m}}
"""


def paris(day: int, hour: int, minute: int = 0) -> datetime:
    """A December 2026 moment given in Paris time (UTC+1)."""
    return datetime(2026, 12, day, hour - 1, minute, 30, tzinfo=UTC)


@pytest.fixture
def forum():
    with SMFTestForum(FakeClock(paris(1, 13))) as forum:
        yield forum


class Game12:
    """The running game: its forum, clock and scheduler, and what players see."""

    def __init__(self, forum: SMFTestForum, tmp_path, extra: str = "", roles=None) -> None:
        self.forum, self.clock = forum, forum.clock
        forum.add_post("GameMaster", "<b>Loup-Garou Durarara</b> : la partie commence au Jour 0.")
        roles = roles or ROLES
        players = "\n".join(f"  - {{name: {n}, role: {r}}}" for n, r in roles.items())
        game_file = tmp_path / "game.yaml"
        text = GAME.format(url=forum.base_url, players=players) + extra
        game_file.write_text(text, encoding="utf-8")
        url = f"sqlite:///{tmp_path / 'fb.sqlite3'}"
        upgrade(url)
        self.rt = http_runtime(url, forum, self.clock, "w1")
        self.game_id = games.register(self.rt, game_file)
        games.start(self.rt, self.game_id)
        self.scheduler = jobs.make_scheduler(self.rt, manual=True)
        self.scheduler.start()
        jobs.add_sync_job(self.scheduler, self.rt)

    def at(self, moment: datetime, cycles: int = 3) -> None:
        """Move the clock to ``moment`` and let the worker run a few cycles."""
        self.clock.set(moment)
        for _ in range(cycles):
            self.clock.advance(timedelta(minutes=1))
            self.scheduler.run_due()

    def pm(self, sender: str, body: str) -> None:
        self.forum.add_pm(sender, "MP", body)

    def post(self, author: str, body: str) -> None:
        self.forum.add_post(author, body)

    def gm_accepts(self, *names: str, accept: bool = True) -> None:
        """The GM reads the den ("les Carrés Bleus désignent leur victime directement dans
        l'Antre") and accepts the wolves' queued PMs as they were read (or rejects them)."""
        with self.rt.sessions.begin() as s:
            ids = set(s.scalars(select(Player.id).where(Player.display_name.in_(names))))
            open_items = select(ReviewItem).where(
                ReviewItem.kind == ReviewKind.ORDER, ReviewItem.state == ReviewState.OPEN
            )
            items = s.scalars(open_items).all()
            for item in items:
                if item.player_id in ids and accept:
                    review.accept_candidate(s, item.id, 0, gm="GameMaster", now=self.clock.now())
                elif item.player_id in ids:
                    review.reject(s, item.id, gm="GameMaster", note="après 19:00")

    def bot_posts(self) -> list[str]:
        return [html.unescape(p["body"]) for p in self.forum.data.posts if p["author"] == "ModBot"]

    def pms_to(self, name: str) -> list[str]:
        return [html.unescape(pm["body"]) for pm in self.forum.data.sent if pm["to"] == name]

    def orders(self, name: str) -> list[tuple[str | None, list[str], OrderStatus]]:
        with self.rt.sessions() as s:
            pid = s.scalar(select(Player.id).where(Player.display_name == name))
            rows = s.scalars(select(Order).where(Order.player_id == pid).order_by(Order.id))
            return [(o.ability, list(o.targets), o.status) for o in rows]


def test_a_durarara_game_from_the_mayor_election_to_the_village_win(forum, tmp_path):
    g = Game12(forum, tmp_path)
    g.at(paris(1, 22))  # Jour 0 opens at 22:00 Paris
    # Day 0: everyone takes part in the thread; the election is by PM, relative majority.
    for name in ROLES:
        g.post(name, "Bonjour Ikebukuro !")
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado"):
        g.pm(voter, "Vote : Simon")
    for voter in ("Horada", "Izumii", "Erika"):
        g.pm(voter, "Vote : Celty")
    g.at(paris(2, 12))
    g.pm("Erika", "Vote : Simon")  # changed: the last PM before the deadline counts
    g.at(paris(2, 14))
    assert any(b.startswith("Reçu") for b in g.pms_to("Celty"))
    g.at(paris(3, 22, 1))  # the 48 h Day 0 ends at 22:00 two days later
    g.pm("Horada", "Vote : Celty")  # after the deadline: not counted
    g.at(paris(3, 22, 10))
    day0 = g.bot_posts()[-1]
    assert "Fin de la phase : Jour 0" in day0
    assert "[b]Simon[/b] est élu(e) maire" in day0 and "exécuté" not in day0
    assert "Simon (6)" in day0 and "Celty (2) : Horada, Izumii" in day0

    # Night 1: one victim for the wolves, chosen in the den before 19:00; Cupid links two
    # lovers; Shinra saves the victim between 19:00 and 22:00.
    g.pm("Simon", "Je lie Walker et Kyohei")
    g.pm("Horada", "Je tue Erika")
    g.at(paris(4, 10))
    g.gm_accepts("Horada")
    g.at(paris(4, 16, 5))  # 3 h before the wolves' 19:00: Izumii has not chosen
    assert any("Rappel" in b and "19:00" in b for b in g.pms_to("Izumii"))
    assert any(pm["subject"] == "ikebukuro: vos ordres" for pm in g.forum.data.sent)
    assert not any("Rappel" in b for b in g.pms_to("Horada"))
    g.pm("Izumii", "je tue Erika")
    g.at(paris(4, 18, 50))
    g.gm_accepts("Izumii")  # the den's choice, read by the GM before 19:00
    assert not any("Carrés Bleus ont choisi" in b for b in g.pms_to("Shinra"))
    g.at(paris(4, 19, 30))
    # From 19:00 Shinra knows the wolves' choice (option shinra_learns_victim) and decides.
    assert any("les Carrés Bleus ont choisi [b]Erika[/b]" in b for b in g.pms_to("Shinra"))
    assert not any("Carrés Bleus ont choisi" in b for b in g.pms_to("Celty"))
    g.pm("Izumii", "Non, je tue Tom")  # after the wolves' deadline
    g.pm("Shinra", "Je sauve Erika")
    g.at(paris(4, 20))
    # After the wolves' 19:00 the order is late: kept for the GM, never applied.
    assert g.orders("Izumii")[-1][2] is OrderStatus.LATE
    assert any(b.startswith("Reçu après la date limite") for b in g.pms_to("Izumii"))
    g.at(paris(4, 22, 10))
    night1 = g.bot_posts()[-1]
    assert "Fin de la phase : Nuit 1" in night1 and "Il ne s'est rien passé" in night1
    assert any("amoureux" in b and "Kyohei" in b for b in g.pms_to("Walker"))
    assert any("sauvé" in b for b in g.pms_to("Erika"))

    # Day 1: a 5-5 tie; the mayor's tie-break (sent during the day) decides; Simon, who
    # does not vote, counts against himself, and so does Kyohei, whose PM vote does not count
    # because he never took part in the day (with it Celty would lead 6-5).
    for name in ROLES:
        if name != "Kyohei":
            g.post(name, "Je participe.")
    g.pm("Kyohei", "vote : Celty")
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado"):
        g.pm(voter, "vote : Horada")
    for voter in ("Horada", "Izumii", "Masaomi", "Erika", "Walker"):
        g.pm(voter, "vote : Celty")
    g.pm("Simon", "Je tranche : Horada")
    g.at(paris(5, 12))
    g.at(paris(6, 22, 10))
    day1 = g.bot_posts()[-1]
    assert "Horada" in day1 and "exécuté(e) par le village" in day1 and "Carré Bleu" in day1
    assert "Celty (5)" in day1 and "Kyohei (1) : Kyohei" in day1

    # Night 2: Celty's death power on the last Blue Square; the wolf's victim dies too.
    g.pm("Izumii", "je tue Tom")
    g.at(paris(7, 12))
    g.gm_accepts("Izumii")
    g.at(paris(7, 20))  # Celty decides between 19:00 and 22:00
    g.pm("Celty", "j'utilise mon pouvoir de mort sur Izumii")
    g.at(paris(7, 22, 10))
    with g.rt.sessions() as s:
        assert s.get(Game, g.game_id).status is GameStatus.FINISHED
    final = g.bot_posts()[-1]
    assert (
        "Izumii" in final
        and "Tom" in final
        and "La partie est terminée ! Vainqueurs : Villageois" in final
    )
    sent = g.forum.data.sent
    assert not [pm for pm in sent if "needs you" in pm["subject"]]  # the GM was never needed
    assert not any(("Received" in pm["body"] or "reminder" in pm["body"]) for pm in sent
                   if pm["to"] != "GameMaster")  # fmt: skip
    g.scheduler.shutdown()


def test_the_mayors_hours_tie_break_after_the_day_and_a_dead_mayors_successor(forum, tmp_path):
    g = Game12(forum, tmp_path)
    g.at(paris(1, 22))
    for name in ROLES:
        g.post(name, "Présent.")
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado"):
        g.pm(voter, "Vote : Simon")
    g.at(paris(3, 22, 10))
    assert "[b]Simon[/b] est élu(e) maire" in g.bot_posts()[-1]
    g.at(paris(4, 22, 10))  # a quiet Night 1

    # Day 1 ends tied 5-5 and the mayor has not chosen: the day waits for him, 10 h at most.
    for name in ROLES:
        g.post(name, "Je participe.")
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado"):
        g.pm(voter, "vote : Horada")
    for voter in ("Horada", "Izumii", "Masaomi", "Erika", "Walker"):
        g.pm(voter, "vote : Celty")
    g.at(paris(6, 22, 10))
    assert "Jour 1" not in g.bot_posts()[-1]  # not resolved yet
    (notice,) = [b for b in g.pms_to("Simon") if "Égalité" in b]
    assert "Celty" in notice and "Horada" in notice and "07/12 à 08:00" in notice
    g.at(paris(7, 1))
    g.pm("Simon", "Je tranche : Horada")  # 3 h after the deadline, within his 10 h
    g.at(paris(7, 1, 5))
    day1 = g.bot_posts()[-1]
    assert "Fin de la phase : Jour 1" in day1 and "Horada" in day1 and "exécuté" in day1

    # Night 2 (it began at the day's deadline, 22:00 on the 6th): the wolf kills the mayor,
    # who left no testament and is told he has 10 h.
    g.pm("Izumii", "je tue Simon")
    g.at(paris(7, 2))
    g.gm_accepts("Izumii")
    g.at(paris(7, 22, 10))
    assert "Simon" in g.bot_posts()[-1]
    assert any("10 heures pour désigner votre successeur" in b for b in g.pms_to("Simon"))

    # Day 2: the dead mayor names Celty within his 10 h; a later choice is too late.
    for name in ROLES:
        if name not in ("Simon", "Horada"):
            g.post(name, "Présent.")
    g.pm("Simon", "Je désigne Celty comme successeur")
    g.at(paris(7, 23))
    g.at(paris(8, 9))  # past his 10 h (08:00)
    g.pm("Simon", "Successeur : Tom")
    g.at(paris(8, 9, 10))
    assert g.orders("Simon")[-2:] == [
        ("name_successor", ["Celty"], OrderStatus.ACCEPTED),
        ("name_successor", ["Tom"], OrderStatus.LATE),
    ]
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado", "Erika"):
        g.pm(voter, "vote : Izumii")
    g.at(paris(9, 22, 10))
    everything = "\n".join(g.bot_posts()[-2:])
    assert "[b]Simon[/b] désigne [b]Celty[/b] pour lui succéder" in everything
    assert "Izumii" in everything and "Vainqueurs : Villageois" in everything
    g.scheduler.shutdown()


def test_a_mayor_who_does_not_break_the_tie_within_10_hours_kills_nobody(forum, tmp_path):
    g = Game12(forum, tmp_path)
    g.at(paris(1, 22))
    for name in ROLES:
        g.post(name, "Présent.")
    for voter in ("Celty", "Shinra", "Tom"):
        g.pm(voter, "Vote : Simon")
    g.at(paris(3, 22, 10))
    g.at(paris(4, 22, 10))
    for name in ROLES:
        g.post(name, "Je participe.")
    for voter in ("Celty", "Shinra", "Tom", "Saki", "Mikado"):
        g.pm(voter, "vote : Horada")
    for voter in ("Horada", "Izumii", "Masaomi", "Erika", "Walker"):
        g.pm(voter, "vote : Celty")
    g.at(paris(6, 22, 10))
    g.at(paris(7, 7, 50))  # 9 h 50 after the deadline: still waiting for the mayor
    assert "Jour 1" not in g.bot_posts()[-1]
    g.at(paris(7, 8, 5))  # "S'il ne le fait pas, personne ne meurt."
    day1 = g.bot_posts()[-1]
    assert "Fin de la phase : Jour 1" in day1 and "Personne n'a été exécuté" in day1
    g.scheduler.shutdown()
