"""Issue 11, English classes of practice rounds P4-P6 (engineer "orders3", cycle 2): new
texts, not the corpus's, each with a twin on the other side. Through the bench's runner, as a
player of the practice rounds' games (``fixtures/orders/setups/practice*_en.yaml``)."""

from __future__ import annotations

import pytest

from tests.parsers.blind_games import read_as

DCTP6 = ("dctp", "practice6_dctp_en")  # Harcourt is Anokata, Thackeray Gin, Caradoc Chianti


def _dctp6(phase: str, actor: str, text: str) -> tuple[str, tuple[str, ...]]:
    return read_as(*DCTP6, phase, actor, text)


# --- Anokata is the BO leader from the start ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Caradoc kills Perdita tonight. My call as leader.", "order_kill Caradoc Perdita"),
        ("Orders from the top: Caradoc takes out Dulcie.", "order_kill Caradoc Dulcie"),
    ],
)
def test_anokata_gives_the_kill_order_as_leader(text: str, order: str) -> None:
    assert _dctp6("night3", "Harcourt", text) == ("accepted", (order,))


def test_a_member_who_is_not_leader_still_has_the_kill_order_queued() -> None:
    status, _ = _dctp6("night3", "Thackeray", "Caradoc kills Perdita tonight. My call as leader.")
    assert status == "ambiguous"


# --- a title over a list: each item its own order -----------------------------------------


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("Three things, GM:\n- vote Minerva\n- the suitcase goes to Caradoc tonight\n"
         "- APTX: Perdita = Haibara",
         ("vote Minerva", "hand_suitcase Caradoc", "aptx Perdita haibara")),
        ("My actions today:\n- APTX: Dulcie = Ayumi\n- suitcase goes to Thackeray tonight",
         ("aptx Dulcie ayumi", "hand_suitcase Thackeray")),
    ],
)  # fmt: skip
def test_each_item_under_a_list_title_is_its_own_order(text: str, orders: tuple[str, ...]) -> None:
    assert _dctp6("day2", "Harcourt", text) == ("accepted", orders)


def test_an_undecided_item_under_a_list_title_is_still_queued() -> None:
    text = "Two things for today:\n- vote Minerva\n- the suitcase goes to Caradoc or Thackeray"
    assert _dctp6("day2", "Harcourt", text)[0] == "ambiguous"


def test_a_counted_ability_header_still_joins_its_claims() -> None:
    text = "Investigate 2:\n1) Caradoc kills Minerva\n2) Tybalt discombobulates Perdita"
    status, orders = _dctp6("night3", "Rafferty", text)
    assert status == "accepted" and len(orders) == 1 and orders[0].startswith("investigate")


# --- "instead" after the new target, then a remark: a correction -------------------------

FH6 = ("failheap", "practice6_fh_en")  # Sibyl is the Courtesan (block)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Block Lemuel tonight. no wait, block Zephyrine instead, she's been redirecting "
         "everyone's attention all day.", "block Zephyrine"),
        ("Block Lemuel. Block Hobart instead, he never posts anything useful.", "block Hobart"),
    ],
)  # fmt: skip
def test_instead_then_a_remark_corrects_the_order(text: str, order: str) -> None:
    assert read_as(*FH6, "night3", "Sibyl", text) == ("accepted", (order,))


@pytest.mark.parametrize(
    "text",
    [
        "Block Lemuel. Block Zephyrine instead, or maybe Lemuel after all.",
        "Block Lemuel. Block Zephyrine, she's been redirecting everyone.",
        "Block Lemuel. Block Zephyrine instead, not sure though.",
    ],
)
def test_two_blocks_without_a_clear_correction_stay_queued(text: str) -> None:
    assert read_as(*FH6, "night3", "Sibyl", text)[0] == "ambiguous"
