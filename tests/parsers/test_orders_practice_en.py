"""Issue 11, English classes of practice rounds P1-P3 (engineer "orders3"): new texts, not
the corpus's, each with a twin on the other side. Through the bench's runner, as a player of
the practice rounds' games (``fixtures/orders/setups/practice*_en.yaml``)."""

from __future__ import annotations

import pytest

from parsers.orders import OrderParser, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset
from tests.parsers.blind_games import read_as

DCTP = ("dctp", "practice1_dctp_en")
FH = ("failheap", "practice3_fh_en")


def _dctp(phase: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*DCTP, phase, actor, text)


def _fh(actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*FH, "night3", actor, text)


# --- an ability's noun in a report is no order ----------------------------------------


@pytest.mark.parametrize(
    ("actor", "text", "ability"),
    [
        ("Berenike", "Keturah's stake-out report from last night was clean. Observe Keturah.",
         "stake_out"),
        ("Darragh", "Heal Hester tonight. Bronwen's heal result says nothing, so no changes.",
         "heal"),
        ("Darragh", "Heal Hester. His heal was wasted on Zephyr last night.", "heal Zephyr"),
    ],
)  # fmt: skip
def test_an_ability_noun_in_a_report_is_no_order(actor: str, text: str, ability: str) -> None:
    status, orders = _dctp("night3", actor, text)
    assert not any(o.startswith(ability) and o != "heal Hester" for o in orders)
    assert status != "accepted" or len(orders) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Arresting Keturah for killing Evadne on night 2. Berenike's stake-out backs it up.",
        "Arrest Keturah for killing Evadne on night 2. Going on Berenike's stake-out.",
    ],
)
def test_another_player_s_ability_is_never_the_sender_s_order(text: str) -> None:
    status, orders = _dctp("night3", "Vashti", text)  # Vashti has stake-out too
    assert not any(o.startswith("stake_out") for o in orders)
    assert status != "accepted"  # the line names Berenike: the GM reads it


def test_a_report_next_to_a_clear_order_leaves_it_accepted() -> None:
    text = "Keturah's stake-out report from last night was clean. Observe Keturah."
    assert _dctp("night3", "Berenike", text) == ("accepted", ("observe Keturah",))


@pytest.mark.parametrize(
    ("actor", "text", "order"),
    [
        ("Berenike", "Stake-out on Keturah tonight.", "stake_out Keturah"),
        ("Darragh", "My heal goes on Hester.", "heal Hester"),
    ],
)
def test_the_sender_s_own_ability_noun_stays_an_order(actor: str, text: str, order: str) -> None:
    assert _dctp("night3", actor, text) == ("accepted", (order,))


# --- what others are about to do is no vote of the sender's ---------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The town is going to lynch Hester and I can't stop it.",
        "Everyone's about to vote Hester, what a mess.",
        "They are gonna lynch Hester today.",
    ],
)
def test_others_about_to_vote_is_no_vote(text: str) -> None:
    status, orders = _dctp("day2", "Zephyr", text)
    assert status != "accepted" and orders == ()


@pytest.mark.parametrize("text", ["I'm going to vote Hester.", "Vote Hester, she's about to flip."])
def test_the_sender_s_own_intent_stays_a_vote(text: str) -> None:
    assert _dctp("day2", "Zephyr", text) == ("accepted", ("vote Hester",))


# --- a short alias that begins another player's name fits two players -----------------


def test_an_alias_that_begins_another_name_queues() -> None:
    assert _fh("Yorick", "Check Ro please") == ("ambiguous", ())


def test_an_alias_no_other_name_begins_with_stays_accepted() -> None:
    assert _fh("Yorick", "Check Tris please") == ("accepted", ("role_check Tristram",))
    assert _fh("Yorick", "Check Rowena please") == ("accepted", ("role_check Rowena",))


def test_the_sender_s_own_alias_as_a_signature_is_the_sender() -> None:
    assert _fh("Rowena", "Guard Eluned tonight.\nRo") == ("accepted", ("guard Eluned",))
    assert _fh("Rowena", "Guard Ro") == ("ambiguous", ())  # Romilly or herself: the GM


def test_an_alias_rival_in_another_roster() -> None:
    players = [
        {"name": "Alistair", "role": "villager", "aliases": ["Al"]},
        {"name": "Albertine", "role": "villager"},
        {"name": "Corwin", "role": "doctor"},
        {"name": "Maud", "role": "villager"},
    ]
    parser = OrderParser(load_ruleset("failheap"))
    roster = roster_from_data({"players": players})
    result = parser.parse("heal Al", roster=roster, actor="Corwin", phase="night2")
    assert result.status is Status.AMBIGUOUS
    result = parser.parse("heal Alistair", roster=roster, actor="Corwin", phase="night2")
    assert (result.status, [o.render() for o in result.orders]) == (
        Status.ACCEPTED,
        ["heal Alistair"],
    )


# --- a cancel asked as a question is a question to the GM -----------------------------


@pytest.mark.parametrize(
    "text", ["Can I skip my action tonight?", "no heal from me tonight, is that ok?"]
)
def test_a_cancel_asked_as_a_question_queues(text: str) -> None:
    assert _fh("Fairfax", text) == ("ambiguous", ())


def test_a_plain_cancel_stays_accepted() -> None:
    assert _fh("Fairfax", "No action from me tonight.") == ("accepted", ("cancel",))


# --- a line wrapped at the editor's width goes on on the next line ---------------------


def test_an_order_phrase_wrapped_mid_sentence_is_read_whole() -> None:
    text = (
        "Evening GM, the thread was a mess today and nobody wants to talk about it, so I stake\n"
        "out Keturah tonight."
    )
    assert _dctp("night3", "Berenike", text) == ("accepted", ("stake_out Keturah",))


def test_short_lines_stay_apart() -> None:
    status, _ = _dctp("night3", "Darragh", "heal hester\nheal zephyr")
    assert status == "ambiguous"  # two heals: not one sentence


# --- an ability the sender lacks but the player who handed them their actions has -----


@pytest.mark.parametrize(
    "text", ["bow tie on Haakon today", "Eckhart's toys are mine today: bow tie goes to Valtteri"]
)
def test_an_ability_of_the_hand_off_giver_queues_not_refuses(text: str) -> None:
    # practice2_dctp_en: Eckhart (Agasa, Bow Tie) handed his day 2 actions to Renske (Ran)
    assert read_as("dctp", "practice2_dctp_en", "day2", "Renske", text) == ("ambiguous", ())


def test_an_ability_nobody_handed_over_is_still_refused() -> None:
    status, _ = read_as("dctp", "practice2_dctp_en", "day2", "Anouk", "bow tie on Haakon today")
    assert status == "rejected"


# --- a short order word that is also a grammar word, in small letters -----------------


@pytest.mark.parametrize(
    ("phase", "actor", "text", "order"),
    [
        ("day2", "Ursula", "The thread is a mess, so I vote Keturah.", "vote Keturah"),
        ("day2", "Zephyr", "so my vote is Hester", "vote Hester"),
        ("night3", "Darragh", "No strong reads at all so I'll heal Hester tonight.", "heal Hester"),
    ],
)
def test_so_before_a_clause_is_no_stake_out(phase: str, actor: str, text: str, order: str) -> None:
    assert _dctp(phase, actor, text) == ("accepted", (order,))


@pytest.mark.parametrize("text", ["SO Keturah", "so keturah tonight", "SO on Keturah"])
def test_so_before_a_player_stays_the_stake_out(text: str) -> None:
    assert _dctp("night3", "Berenike", text) == ("accepted", ("stake_out Keturah",))


# --- what an info ability should report is no condition and no described target --------


@pytest.mark.parametrize(
    "text",
    [
        "Shadow Jessamine tonight, if anyone visits her I want to know who.",
        "Tonight I shadow Jessamine - if somebody goes after her I'd like to know who",
        "Shadow Jessamine, tell me if anyone goes near her.",
    ],
)
def test_what_to_report_after_an_info_order_leaves_it_accepted(text: str) -> None:
    assert _fh("Eluned", text) == ("accepted", ("shadow Jessamine",))


@pytest.mark.parametrize(
    ("actor", "text"),
    [
        ("Eluned", "Shadow Jessamine tonight if nobody else does, I want to know who visits her."),
        ("Eluned", "Shadow Jessamine tonight, let me know if anyone else would be better."),
        ("Eluned", "Shadow Jessamine or whoever looks shady, I want to know who."),
        ("Fairfax", "Heal Jessamine, if anyone goes after her I want to know who."),
    ],
)
def test_a_real_condition_or_other_target_still_queues(actor: str, text: str) -> None:
    assert _fh(actor, text)[0] == "ambiguous"
