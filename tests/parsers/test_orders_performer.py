"""Orders written for another player by the one entitled to send them (issue 11, class 10):
the clan head's "Гена стреляет в Тимура" is Гена's shot, sent by the Boss (seed 004: "Ходы
отправляет Босс", "Ходы отправляются Шерифом"); anything short of that right is queued."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import Handoff, History, OrderParser, ParseResult, Status
from parsers.roster import Roster, roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(players: Mapping[str, object], text: str, actor: str, ruleset: str = "ru_mafia",
           history: History | None = History()) -> ParseResult:  # fmt: skip
    roster: Roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase="night2",
                                  history=history)  # fmt: skip


CLAN = {
    "Рома": "mafia_boss",
    "Гена": "mafioso",
    "Ника": "mafia_recruiter",
    "Лев": "sheriff",
    "Ян": "investigator",
    "Оля": "doctor",
    "Тимур": "villager",
    "Дина": "villager",
    "Соня": "maniac",
}
LATIN = {"Rick": "mafia_boss", "Gus": "mafioso", "Lou": "sheriff", "Ivo": "investigator",
         "Tim": "villager", "Mel": "villager"}  # fmt: skip


def _read(result: ParseResult) -> list[tuple[str, str | None]]:
    return [(o.render(), o.performer) for o in result.orders]


def test_the_boss_sends_a_members_shot_and_recruitment() -> None:
    shot = _parse(CLAN, "Гена стреляет в Тимура", "Рома")
    assert shot.status is Status.ACCEPTED
    assert _read(shot) == [("shoot Тимур by=Гена", "Гена")]
    both = _parse(CLAN, "Сегодня так: Гена стреляет в Соню, Ника вербует Дину.", "Рома")
    assert _read(both) == [("shoot Соня by=Гена", "Гена"), ("mafia_recruit Дина by=Ника", "Ника")]
    dash = _parse(CLAN, "Ника — вербует Тимура", "Рома")
    assert _read(dash) == [("mafia_recruit Тимур by=Ника", "Ника")]


def test_the_sheriff_sends_the_cops_moves_and_his_own() -> None:
    result = _parse(CLAN, "Ян допрашивает Гену, а я стреляю в Соню", "Лев")
    assert result.status is Status.ACCEPTED
    assert _read(result) == [("interrogate Гена by=Ян", "Ян"), ("cop_shoot Соня", None)]


def test_an_english_clan_move_for_a_member() -> None:
    result = _parse(LATIN, "Gus: shoot Tim", "Rick")
    assert _read(result) == [("shoot Tim by=Gus", "Gus")]
    assert _parse(LATIN, "Gus: shoot Tim", "Mel").status is Status.AMBIGUOUS  # not the head


def test_a_french_clan_move_for_a_member() -> None:
    assert _read(_parse(LATIN, "Ivo interroge Gus", "Lou")) == [("interrogate Gus by=Ivo", "Ivo")]
    assert _parse(LATIN, "Gus tire sur Tim", "Ivo").status is Status.AMBIGUOUS  # not the head


def test_the_json_names_the_performer() -> None:
    order = _parse(CLAN, "Гена стреляет в Тимура", "Рома").as_json()["orders"][0]
    assert order["performer"] == "Гена" and order["ability"] == "shoot"


def test_a_performer_who_may_not_act_is_queued() -> None:
    jailed = {**CLAN, "Гена": {"role": "mafioso", "statuses": ["jailed"]}}
    assert "jailed" in _parse(jailed, "Гена стреляет в Тимура", "Рома").reason
    dead = {**CLAN, "Гена": {"role": "mafioso", "alive": False}}
    assert _parse(dead, "Гена стреляет в Тимура", "Рома").status is Status.AMBIGUOUS
    assert _parse(CLAN, "Гена лечит Тимура", "Рома").status is Status.AMBIGUOUS  # no heal


def test_only_the_clan_head_sends_for_a_member() -> None:
    for text, actor in (
        ("Гена стреляет в Тимура", "Ника"),  # a member, not the Boss
        ("Гена стреляет в Тимура", "Оля"),  # a villager's PM
        ("Ян стреляет в Гену", "Рома"),  # a performer of another team
        ("Оля лечит Тимура", "Рома"),  # a player of no clan
    ):
        result = _parse(CLAN, text, actor)
        assert result.status is Status.AMBIGUOUS, (text, actor, result.reason)
        assert not result.orders
    handed = History(handoffs=(Handoff("Рома", "Гена", ("night2",)),))
    gave_away = _parse(CLAN, "Гена стреляет в Тимура", "Рома", history=handed)
    assert gave_away.status is Status.AMBIGUOUS


def test_reports_and_doubts_about_a_members_move_are_queued() -> None:
    for text in (
        "Гена стрелял в Тимура прошлой ночью.",  # what he did
        "Гена стреляет в Тимура?",
        "Гена стреляет в Тимура или в Дину",
        "Гена, наверное, стреляет в Тимура",
        "Гена стреляет в Тимура, Гена травит Дину",  # one member, two moves
        "Гена, стреляй в Тимура",  # spoken to Гена
    ):
        assert _parse(CLAN, text, "Рома").status is Status.AMBIGUOUS, text
    for text in ("Gus shot Tim", "Gus killed Tim last night"):
        assert _parse(LATIN, text, "Rick").status is Status.AMBIGUOUS, text


def test_a_ruleset_that_says_nobody_sends_for_others_queues() -> None:
    players = {"Vito": "godfather", "Nick": "mafioso", "Ann": "sheriff", "Bob": "doctor"}
    result = _parse(players, "Nick: kill Ann", "Vito", ruleset="failheap")
    assert result.status is Status.AMBIGUOUS and not result.orders


BO = {"Gwen": {"role": "anokata", "statuses": ["leader"]}, "Rex": "gin", "Ula": "vermouth",
      "Pia": "conan", "Ned": "ran", "Oz": "megure"}  # fmt: skip


def test_the_bo_leader_s_kill_order_names_its_killer() -> None:
    for text in ("Rex kills Pia", "Rex: kill Pia tonight", "Tonight Rex kills Pia."):
        result = _parse(BO, text, "Gwen", ruleset="dctp")
        assert _read(result) == [("order_kill Rex Pia", None)], text


def test_a_kill_order_the_leader_may_not_give_is_queued() -> None:
    for text, actor in (
        ("Rex kills Pia", "Ula"),  # not the leader
        ("Ned kills Pia", "Gwen"),  # not of the BO
        ("Rex killed Pia", "Gwen"),  # what he did
        ("Rex kills Pia or Oz", "Gwen"),
    ):
        result = _parse(BO, text, actor, ruleset="dctp")
        assert result.status is not Status.ACCEPTED, (text, actor, result.reason)
    jailed = {**BO, "Rex": {"role": "gin", "statuses": ["arrested"]}}
    assert _parse(jailed, "Rex kills Pia", "Gwen", ruleset="dctp").status is Status.AMBIGUOUS


def test_with_the_boss_out_the_only_free_mafioso_sends_the_clan_s_moves() -> None:
    """Seed 004: "В случае смерти/посадки Босса ... Ходы отправляет самый ранний по времени
    Рядовой" (ru_mafia's ``orders_by_next: mafioso``)."""
    out = {**CLAN, "Рома": {"role": "mafia_boss", "statuses": ["jailed"]}}
    sent = _parse(out, "Ника вербует Тимура", "Гена")
    assert _read(sent) == [("mafia_recruit Тимур by=Ника", "Ника")]
    assert _parse(out, "вербую Тимура", "Ника").status is Status.AMBIGUOUS  # Гена sends
    assert _parse(CLAN, "Ника вербует Тимура", "Гена").status is Status.AMBIGUOUS  # Рома does
    two = {**out, "Лёша": "mafioso"}  # which Mafioso is the earliest is not known
    assert _parse(two, "Ника вербует Тимура", "Гена").status is Status.AMBIGUOUS
    assert _parse(two, "вербую Тимура", "Ника").status is Status.AMBIGUOUS


def test_a_role_named_as_the_performer_is_its_one_holder_on_the_sender_s_side() -> None:
    assert _read(_parse(CLAN, "Вербовщик вербует Дину", "Рома")) == [
        ("mafia_recruit Дина by=Ника", "Ника")
    ]
    assert _read(_parse(LATIN, "our mafioso shoots Tim", "Rick")) == [("shoot Tim by=Gus", "Gus")]
    jailed = {**CLAN, "Гена": {"role": "mafioso", "statuses": ["jailed"]}}
    assert _parse(jailed, "Рядовой стреляет в Тимура", "Рома").status is Status.AMBIGUOUS
    two = {**CLAN, "Лёша": "mafioso"}  # which Mafioso?
    assert _parse(two, "Рядовой стреляет в Тимура", "Рома").status is Status.AMBIGUOUS
    assert _parse(CLAN, "Следователь допрашивает Гену", "Рома").status is Status.AMBIGUOUS


DCTP = {"Vin": "vodka", "Kim": "korn", "Moe": "megure", "Ray": "ran", "Abe": "araide"}


def test_a_delegate_writes_the_giver_s_orders_under_a_header() -> None:
    """Seed 000, "Handing off Actions": the giver's actions handed to the delegate for the
    night (the history), "For Vin: …" in the delegate's PM is Vin's order."""
    handed = History(handoffs=(Handoff("Vin", "Kim", ("night2",)),))
    text = "Vin gave me his actions for tonight. For Vin: discombobulate Moe"
    result = _parse(DCTP, text, "Kim", ruleset="dctp", history=handed)
    assert [o.render() for o in result.orders] == ["discombobulate Moe as=Vin"]
    assert result.as_json()["orders"][0]["for_player"] == "Vin"
    both = _parse(DCTP, "stake out Ray\nAs Vin:\ndiscombobulate Abe", "Kim", ruleset="dctp",
                  history=handed)  # fmt: skip
    assert [o.render() for o in both.orders] == ["stake_out Ray", "discombobulate Abe as=Vin"]


def test_orders_for_a_giver_without_a_hand_off_for_the_phase_are_queued() -> None:
    later = History(handoffs=(Handoff("Vin", "Kim", ("night3",)),))
    text = "For Vin: discombobulate Moe"
    assert _parse(DCTP, text, "Kim", ruleset="dctp", history=later).status is Status.AMBIGUOUS
    assert _parse(DCTP, text, "Kim", ruleset="dctp").status is not Status.ACCEPTED  # none
    handed = History(handoffs=(Handoff("Vin", "Kim", ("night2",)),))
    unsure = _parse(DCTP, "For Vin: discombobulate Moe or Ray", "Kim", ruleset="dctp",
                    history=handed)  # fmt: skip
    assert unsure.status is Status.AMBIGUOUS
    chat = _parse(DCTP, "Vin handed me his actions, Ray is lying. For Vin: discombobulate Moe",
                  "Kim", ruleset="dctp", history=handed)  # fmt: skip
    assert chat.status is Status.AMBIGUOUS  # a line about Ray was not read
