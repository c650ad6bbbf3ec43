"""Recall classes of blind rounds A and B (issue 11), each with its safety twin: what a
careful GM reads as a clear order is accepted, what stays open still goes to the queue."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import History, OrderParser, ParseResult, PastOrder, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str, phase: str,
           history: History | None = History()) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=history)


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


DCTP = {"Kujou": "kujou", "Gin": "gin", "Akonyl": "vermouth", "Conia": "megure", "CTU": "ran"}
CROSSED = History((PastOrder("night2", "Kujou", "cross_examine", ("Gin",), result="guilty"),))


def test_a_pronoun_in_a_second_order_is_the_one_player_named_before() -> None:
    text = "Vote: Gin. And I'm using Voice of Accusation on him too."
    result = _parse("dctp", DCTP, text, "Kujou", "day3", CROSSED)
    assert result.status is Status.ACCEPTED
    assert _orders(result) == ["vote Gin", "voice_of_accusation Gin"]


def test_a_pronoun_after_two_players_named_is_for_the_gm() -> None:
    text = "vote Gin. I heard Akonyl. Voice of Accusation on him."
    two = History((*CROSSED.orders, PastOrder("night1", "Kujou", "cross_examine", ("Akonyl",))))
    result = _parse("dctp", DCTP, "vote Gin or Akonyl. Voice of Accusation on him.", "Kujou",
                    "day3", two)  # fmt: skip
    assert result.status is not Status.ACCEPTED
    assert _parse("dctp", DCTP, text, "Kujou", "day3", two).status is not Status.ACCEPTED


def test_voice_of_accusation_needs_a_cross_examination_on_record() -> None:
    never = _parse("dctp", DCTP, "vote CTU. Voice of Accusation on her.", "Kujou", "day3", CROSSED)
    assert never.status is not Status.ACCEPTED
    failed = History((PastOrder("night2", "Kujou", "cross_examine", ("Gin",), result="blocked"),))
    blocked = _parse("dctp", DCTP, "vote Gin. Voice of Accusation on him.", "Kujou", "day3", failed)
    assert blocked.status is not Status.ACCEPTED


DURARARA = {"Jean": "celty", "Celty": "villager", "Zoé": "shinra", "Shinra": "villager",
            "Noé": "villager"}  # fmt: skip


def test_the_player_written_next_to_a_role_named_player_means_the_player() -> None:
    inline = _parse("durarara", DURARARA, "je sauve shinra (la joueuse, pas moi)", "Zoé", "night2")
    assert inline.status is Status.ACCEPTED and _orders(inline) == ["save Shinra"]
    after = "Pouvoir de mort sur Celty. Oui, le joueur Celty, pas moi."
    assert _orders(_parse("durarara", DURARARA, after, "Jean", "night2")) == ["death_power Celty"]


def test_not_the_player_or_a_second_name_keeps_the_pm_for_the_gm() -> None:
    role = _parse("durarara", DURARARA, "je sauve shinra, pas le joueur", "Zoé", "night2")
    assert role.status is Status.AMBIGUOUS
    other = "Pouvoir de mort sur Celty. Le joueur Noé, pas moi."
    assert _parse("durarara", DURARARA, other, "Jean", "night2").status is Status.AMBIGUOUS
    not_him = "Pouvoir de mort sur Celty. Pas le joueur Celty."
    assert _parse("durarara", DURARARA, not_him, "Jean", "night2").status is Status.AMBIGUOUS


MAFIA = {"Doctor": "godfather", "Nick": "mafioso", "Jules": "framer", "Bob": "doctor",
         "Ann": "sheriff"}  # fmt: skip


def test_naming_the_teammate_the_rules_send_for_the_kill_changes_nothing() -> None:
    for text in ("We whack Ann tonight. Nick does the honours as usual.",
                 "On tue Ann. Nick s'en charge."):  # fmt: skip
        result = _parse("failheap", MAFIA, text, "Doctor", "night3")
        assert result.status is Status.ACCEPTED and _orders(result) == ["mafia_kill Ann"], text


def test_another_performer_or_a_question_about_it_is_for_the_gm() -> None:
    for text in ("We whack Ann tonight. Jules does the honours.",
                 "On tue Ann. Bob s'en charge.",
                 "We whack Ann tonight. Does Nick do it?"):  # fmt: skip
        assert _parse("failheap", MAFIA, text, "Doctor", "night3").status is Status.AMBIGUOUS, text


HEAPFR = {"Eve": "courtesan", "Nick": "mafioso", "Carl": "vigilante", "Ann": "sheriff"}


def test_instead_closing_a_later_order_makes_it_the_replacement() -> None:
    players = {**HEAPFR, "Ник": "doctor", "Карл": "villager"}
    for text, want in (("je bloque Nick. bon, bloque Carl plutôt.", "block Carl"),
                       ("block Nick... will he kill me? whatever, block Carl instead.",
                        "block Carl"),
                       ("блокирую Ника. Нет, Карла лучше.", "block Карл")):  # fmt: skip
        result = _parse("failheap", players, text, "Eve", "night3")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], text


def test_instead_without_a_name_before_it_or_asked_stays_with_the_gm() -> None:
    for text in ("je bloque Nick. ou Carl plutôt ?", "block Nick. Carl or Ann instead"):
        assert _parse("failheap", HEAPFR, text, "Eve", "night3").status is Status.AMBIGUOUS, text


RU = {"Зоя": "maniac", "Ефим": "doctor", "Лиса": "mafia_boss"}
FH = {"Carl": "vigilante", "Nick": "mafioso", "Bob": "doctor"}


def test_an_order_word_with_no_player_taken_back_as_a_joke_before_the_order() -> None:
    result = _parse("ru_mafia", RU, "зарежу всех ахаха шучу. Мучаю Ефима.", "Зоя", "night3")
    assert result.status is Status.ACCEPTED and _orders(result) == ["torture Ефим"]
    night = "Je sauve Noé (c'est voté entre nous, pas de souci)."
    assert _orders(_parse("durarara", DURARARA, night, "Zoé", "night2")) == ["save Noé"]


def test_a_doubt_after_the_order_about_the_senders_own_ability_is_for_the_gm() -> None:
    after = "Shoot Nick. Not sure I should shoot at all tonight though."
    assert _parse("failheap", FH, after, "Carl", "night3").status is Status.AMBIGUOUS
    unsure = "зарежу кого-нибудь, не знаю. Мучаю Ефима."  # no joke: the GM reads it
    assert _parse("ru_mafia", RU, unsure, "Зоя", "night3").status is Status.AMBIGUOUS


HEAP = {"Ann": "sheriff", "Nick": "mafioso", "Gwen": "lawyer", "Пётр": "villager"}


def test_a_correction_to_nobody_after_the_order_is_for_the_gm() -> None:
    for text in ("check Nick. no wait.", "check Nick. no.", "Je vérifie Nick. Non.",
                 "проверяю Петра. Стоп.", "check Nick. actually..."):  # fmt: skip
        assert _parse("failheap", HEAP, text, "Ann", "night3").status is Status.AMBIGUOUS, text


def test_no_changes_or_final_after_the_order_confirms_it() -> None:
    for text in ("check Nick. no changes.", "check Nick. Final.", "проверяю Петра. Итог."):
        result = _parse("failheap", HEAP, text, "Ann", "night3")
        assert result.status is Status.ACCEPTED and len(result.orders) == 1, text


def test_no_comma_a_name_corrects_and_the_same_name_again_confirms() -> None:
    corrected = _parse("failheap", HEAP, "check Nick. Non, Gwen.", "Ann", "night3")
    assert _orders(corrected) == ["check Gwen"]
    again = _parse("failheap", HEAP, "check Nick. Nick.", "Ann", "night3")
    assert again.status is Status.ACCEPTED and _orders(again) == ["check Nick"]
    other = _parse("failheap", HEAP, "check Nick. Gwen.", "Ann", "night3")
    assert other.status is Status.AMBIGUOUS


DOC = {"Bob": "doctor", "Ann": "sheriff", "Gwen": "lawyer", "Аня": "villager"}
UNDECIDED = (
    "Heal Ann... or maybe not", "Heal Ann. wait.", "Heal Ann. Or not.",
    "Heal Ann. I'll confirm later.", "Heal Ann. Might change it.", "Heal Ann. Will update later.",
    "Heal Ann for now", "Heal Ann... nah.",
    "Heal Ann. Changed my mind.", "heal Ann actually", "Je soigne Ann. Je te redis.",
    "Je soigne Ann. Quoique.", "Je soigne Ann pour l'instant", "Je soigne Ann. Laisse tomber.",
    "Je soigne Ann, enfin non", "Лечу Аню. Хотя...", "Лечу Аню. Может поменяю.",
    "Лечу Аню. Напишу позже.", "Лечу Аню, пока что.", "Лечу Аню. Забей.", "Лечу Аню, хотя нет",
    "Heal Ann i guess", "Heal Ann, I think", "Je soigne Ann je pense", "Лечу Аню, думаю",
    "Heal Ann. btw can i vote by pm",
)  # fmt: skip


def test_an_order_followed_by_a_hedge_or_a_dangling_correction_is_for_the_gm() -> None:
    for text in UNDECIDED:
        assert _parse("failheap", DOC, text, "Bob", "night3").status is Status.AMBIGUOUS, text


def test_confirmations_and_corrections_with_a_target_are_still_read() -> None:
    for text, want in (("Heal Ann, for real", "heal Ann"), ("Heal Ann, final answer", "heal Ann"),
                       ("Heal Ann, no wait, Gwen", "heal Gwen"),
                       ("Heal Ann. Gwen instead.", "heal Gwen"),
                       ("heal Ann instead of Gwen", "heal Ann"),
                       ("Heal Ann, I think she's town", "heal Ann")):  # fmt: skip
        assert _orders(_parse("failheap", DOC, text, "Bob", "night3")) == [want], text


def test_a_doubt_in_brackets_is_about_the_order_a_remark_in_brackets_is_not() -> None:
    for text in ("Heal Ann (not 100% sure)", "Je soigne Ann (pas sûr à 100%)",
                 "Лечу Аню (не уверена)"):  # fmt: skip
        assert _parse("failheap", DOC, text, "Bob", "night3").status is Status.AMBIGUOUS, text
    aside = _parse("failheap", DOC, "Heal Ann (she might get shot)", "Bob", "night3")
    assert _orders(aside) == ["heal Ann"]


MEGURE = {"Ruth": "megure", "Valkyr": "gin", "Sabre": "vodka", "Petal": "ran", "Quill": "heiji"}


def test_claims_read_to_the_end_of_the_sentence_still_carry_their_doubts() -> None:
    listed = "Investigations:\n- Valkyr kills Petal\n- Sabre kills Quill\n- not sure about the rest"
    for text in (listed, "Investigate Valkyr kills Petal, maybe Sabre kills Quill"):
        assert _parse("dctp", MEGURE, text, "Ruth", "night3").status is Status.AMBIGUOUS, text
    both = _parse("dctp", MEGURE, "Investigate: Valkyr kills Petal, Sabre kills Quill", "Ruth",
                  "night3")  # fmt: skip
    assert _orders(both) == ["investigate Valkyr>kill>Petal Sabre>kill>Quill"]


def test_a_name_before_the_order_taken_up_by_a_pronoun_is_its_target() -> None:
    assert _orders(_parse("durarara", DURARARA, "Noé, je le sauve", "Zoé", "night2")) == [
        "save Noé"
    ]
    assert _orders(_parse("failheap", DOC, "Ann, heal her please", "Bob", "night3")) == ["heal Ann"]


def test_two_names_or_a_name_in_a_remark_before_a_pronoun_stay_with_the_gm() -> None:
    for text in ("Ann, Gwen, heal her", "Ann is scum. Heal her."):
        assert _parse("failheap", DOC, text, "Bob", "night3").status is Status.AMBIGUOUS, text
    vote = _parse("durarara", DURARARA, "Noé, le vote c'est demain", "Zoé", "day1")
    assert vote.status is not Status.ACCEPTED
