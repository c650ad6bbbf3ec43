"""Durarara (seed 003) rules on the runtime's clock, through the loopback SMF forum: a PM
vote after the deadline, Shinra's and Celty's 19:00-22:00 window, whole-day absentees
(replaced, then struck by lightning from Day 5) and a charm on the charmer's own lover.

Every PM and post is ingested from the forum as in a real game (``test_durarara_game``'s
12 players, Paris time); the receipts, posts and GM reports are the ones players see.
"""

from __future__ import annotations

from sqlalchemy import select

from forumbot.db.enums import OrderStatus, ReviewKind, ReviewState
from forumbot.db.models import ReviewItem
from tests.runtime.test_durarara_game import ROLES, Game12, forum, paris

__all__ = ["forum"]  # the fixture, shared with the whole-game tests

VILLAGE_VOTES = ("Celty", "Shinra", "Tom", "Saki", "Mikado")


def _elect_simon(g: Game12, absent: tuple[str, ...] = ()) -> None:
    """Jour 0: everyone but ``absent`` posts; Simon is elected mayor."""
    g.at(paris(1, 22))
    for name in ROLES:
        if name not in absent:
            g.post(name, "Bonjour Ikebukuro !")
    for voter in VILLAGE_VOTES:
        g.pm(voter, "Vote : Simon")


def _gm_reports(g: Game12) -> list[str]:
    return [b for b in g.pms_to("GameMaster") if "GM report" in b]


def test_a_pm_vote_after_the_deadline_is_receipted_as_not_counted(forum, tmp_path):
    g = Game12(forum, tmp_path)
    _elect_simon(g)
    g.at(paris(3, 21, 50))
    g.clock.set(paris(3, 22, 1))  # 22:01:30: the forum shows 22:01, after the 22:00 deadline
    g.pm("Horada", "Vote : Celty")
    g.at(paris(3, 22, 10))
    (receipt,) = [b for b in g.pms_to("Horada") if "Celty" in b]
    assert receipt.startswith("Reçu après la date limite de Jour 0 : vote Celty.")
    assert "ne compte pas" in receipt and "Jour 1" not in receipt
    assert g.orders("Horada")[-1] == ("vote", ["Celty"], OrderStatus.LATE)
    assert "Simon (5)" in g.bot_posts()[-1] and "Celty (" not in g.bot_posts()[-1]
    (report,) = _gm_reports(g)
    assert "Late, not counted" in report
    assert "Horada: vote Celty (Day 0, sent 03/12 22:01)" in report

    # During Night 1 no day is open: a vote PM then counts for no day either; the GM sees it
    # in the next report (Night 1's), since Jour 0's was already out.
    g.at(paris(4, 9))
    g.clock.set(paris(4, 10))
    g.pm("Izumii", "vote : Tom")
    g.at(paris(4, 10, 5))
    (night_receipt,) = [b for b in g.pms_to("Izumii") if "Tom" in b]
    assert night_receipt.startswith("Reçu après la date limite de Jour 0 : vote Tom.")
    assert "ne compte pas" in night_receipt
    g.at(paris(4, 22, 10))
    assert "Izumii: vote Tom (Day 0, sent 04/12 10:00)" in _gm_reports(g)[-1]
    g.scheduler.shutdown()


def test_shinra_and_celty_decide_between_19_and_22_in_paris_time(forum, tmp_path):
    g = Game12(forum, tmp_path)
    _elect_simon(g)
    g.at(paris(3, 22, 10))
    # Night 1 (22:00 on the 3rd to 22:00 on the 4th): the wolves choose until 19:00.
    g.pm("Horada", "Je tue Erika")
    g.pm("Izumii", "je tue Erika")
    g.at(paris(4, 10))
    g.gm_accepts("Horada", "Izumii")
    g.at(paris(4, 18))  # "Shinra et Celty ont de 19h00 à 22h00 pour décider de sauver/tuer"
    g.pm("Shinra", "Je sauve Erika")
    g.pm("Celty", "j'utilise mon pouvoir de mort sur Horada")
    g.at(paris(4, 18, 5))
    for name in ("Shinra", "Celty"):
        receipt = [b for b in g.pms_to(name) if b.startswith("Reçu")][-1]
        assert receipt.startswith("Reçu trop tôt")
        assert "à partir du 04/12 à 19:00" in receipt and "n'est pas retenu" in receipt
        assert g.orders(name)[-1][2] is OrderStatus.REJECTED
    g.at(paris(4, 19, 30))
    g.pm("Celty", "j'utilise mon pouvoir de mort sur Izumii")  # inside the window: counts
    g.at(paris(4, 19, 35))
    assert g.pms_to("Celty")[-1].startswith("Reçu : Pouvoir de mort Izumii, Nuit 1.")
    g.at(paris(4, 22, 10))
    night1 = g.bot_posts()[-1]
    # Shinra's 18:00 save was refused (he sent none in the window): Erika dies; Celty's
    # 18:00 kill on Horada was refused, her 19:30 one on Izumii stands.
    assert "Erika" in night1 and "Izumii" in night1 and "Horada" not in night1
    g.scheduler.shutdown()


def test_an_early_order_goes_to_the_gm_with_early_window_orders_gm(forum, tmp_path):
    g = Game12(forum, tmp_path, extra="options: {early_window_orders: gm}\n")
    _elect_simon(g)
    g.at(paris(3, 22, 10))
    g.at(paris(4, 18))
    g.pm("Shinra", "Je sauve Erika")
    g.at(paris(4, 18, 5))
    assert g.orders("Shinra")[-1][2] is OrderStatus.AMBIGUOUS
    with g.rt.sessions() as s:
        open_orders = select(ReviewItem).where(
            ReviewItem.kind == ReviewKind.ORDER, ReviewItem.state == ReviewState.OPEN
        )
        (item,) = s.scalars(open_orders)
        assert "before its window opened (04/12 19:00)" in item.reason
    assert any(b.startswith("Reçu. Le MJ le lira") for b in g.pms_to("Shinra"))
    g.scheduler.shutdown()


def _quiet_day(g: Game12, day: int, month_day: int, absent: tuple[str, ...]) -> None:
    """Jour ``day`` (opening on the ``month_day``th at 22:00): all post but ``absent``."""
    g.at(paris(month_day, 22, 10), cycles=12)  # catch up: the tied day before, its night
    for name in ROLES:
        if name not in absent:
            g.post(name, f"Jour {day} : je participe.")


def test_whole_day_absentees_are_replaced_then_struck_from_day_5(forum, tmp_path):
    g = Game12(forum, tmp_path)
    _elect_simon(g, absent=("Kyohei",))  # Kyohei never posts on Jour 0
    g.at(paris(3, 22, 10))
    report = _gm_reports(g)[-1]
    assert "Kyohei took no part in Jour 0 at all" in report and "Find a replacement" in report
    assert "Kyohei" not in g.bot_posts()[-1].split("maire")[-1]  # nothing public
    # Night N lasts 24 h, Day N 48 h: Jour 1 opens on the 4th, Jour 2 on the 7th... Jour 5
    # on the 16th (each tied day, everyone counting against himself, waits 10 h for the mayor).
    opens = {1: 4, 2: 7, 3: 10, 4: 13, 5: 16}
    for day, month_day in opens.items():
        _quiet_day(g, day, month_day, absent=("Walker",) if day == 5 else ())
    g.at(paris(19, 8, 10), cycles=6)  # Jour 5 ended at 22:00 on the 18th; the mayor's 10 h are over
    assert "Fin de la phase : Jour 5" in "\n".join(g.bot_posts())
    assert "Walker took no part in Jour 5 at all: struck by lightning" in _gm_reports(g)[-1]
    assert "foudroyé" not in "\n".join(g.bot_posts())  # announced in the morning only
    # Night 6: the wolves' victim and the struck Walker die in the morning, his role told,
    # although Shinra saves him.
    g.pm("Horada", "Je tue Erika")
    g.pm("Izumii", "je tue Erika")
    g.at(paris(19, 12))
    g.gm_accepts("Horada", "Izumii")
    g.at(paris(19, 20))
    g.pm("Shinra", "Je sauve Walker")
    g.at(paris(19, 22, 10))
    morning = g.bot_posts()[-1]
    assert "Fin de la phase : Nuit 6" in morning and "Erika" in morning
    assert (
        "[b]Walker[/b], absent(e) toute une journée, a été foudroyé(e) : Walker était "
        "[b]Villageois[/b]." in morning
    )
    assert not any("foudroy" in b for name in ROLES for b in g.pms_to(name))
    g.scheduler.shutdown()


SAIKA_ROLES = {**ROLES, "Erika": "saika"}  # Erika is Saika; Cupid (Simon) makes her a lover


def _lovers_then_charm(g: Game12) -> None:
    """Jour 0, then Night 1: Cupid links Saika (Erika) and Walker; Night 2 opens."""
    _elect_simon(g)
    g.at(paris(3, 22, 10))
    g.pm("Simon", "Je lie Erika et Walker")
    g.at(paris(4, 22, 10))
    assert any("amoureux" in b and "Walker" in b for b in g.pms_to("Erika"))
    for name in ROLES:
        g.post(name, "Je participe.")
    g.at(paris(6, 22, 10))  # Jour 1: a tie, the mayor has 10 h
    g.at(paris(7, 8, 10))  # Night 2 is open
    g.pm("Erika", "Je charme Walker")
    g.at(paris(7, 8, 15))


def test_a_charm_on_the_charmers_own_lover_stands_by_default(forum, tmp_path):
    # "Les amoureux ne peuvent ni voter l'un contre l'autre, ni se porter préjudice": a charm
    # is no harm (option charm_own_lover: allowed), as "la dernière non-charmée" implies.
    g = Game12(forum, tmp_path, roles=SAIKA_ROLES)
    _lovers_then_charm(g)
    assert g.orders("Erika")[-1] == ("charm", ["Walker"], OrderStatus.ACCEPTED)
    assert any(b.startswith("Reçu : Charmer Walker") for b in g.pms_to("Erika"))
    g.at(paris(7, 22, 10))
    assert any("charm" in b.casefold() for b in g.pms_to("Walker"))
    g.scheduler.shutdown()


def test_charm_own_lover_refused_is_refused_by_the_order_reader(forum, tmp_path):
    g = Game12(forum, tmp_path, extra="options: {charm_own_lover: refused}\n", roles=SAIKA_ROLES)
    _lovers_then_charm(g)
    assert g.orders("Erika")[-1][2] is OrderStatus.REJECTED  # refused: nothing is applied
    with g.rt.sessions() as s:
        reasons = [i.reason for i in s.scalars(select(ReviewItem))]
    assert any("Erika may not use Charmer on their lover Walker" in r for r in reasons)
    g.at(paris(7, 22, 10))
    assert not any("charm" in b.casefold() for b in g.pms_to("Walker"))
    g.scheduler.shutdown()


def test_charm_own_lover_gm_queues_the_order_and_the_night_waits_for_the_gm(forum, tmp_path):
    g = Game12(forum, tmp_path, extra="options: {charm_own_lover: gm}\n", roles=SAIKA_ROLES)
    _lovers_then_charm(g)
    assert g.orders("Erika")[-1][2] is OrderStatus.AMBIGUOUS
    with g.rt.sessions() as s:
        reasons = [i.reason for i in s.scalars(select(ReviewItem))]
    assert any("Charmer on Erika's lover Walker: the GM decides" in r for r in reasons)
    assert g.pms_to("Erika")[-1].startswith("Reçu. Le MJ le lira")
    g.at(paris(7, 22, 10))
    assert "Nuit 2" not in "\n".join(g.bot_posts())  # the night waits for the GM's word
    g.gm_accepts("Erika")
    g.at(paris(7, 22, 20))
    assert "Fin de la phase : Nuit 2" in g.bot_posts()[-1]
    assert any("charm" in b.casefold() for b in g.pms_to("Walker"))
    g.scheduler.shutdown()
