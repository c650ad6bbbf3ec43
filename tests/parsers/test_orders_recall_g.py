"""Issue 11, English recall classes after blind round F: clear orders that were queued for a
reading the sentence does not have, each with twins that must stay queued. None of these
texts is a corpus sentence."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.orders.history import Handoff
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str,
           history: History = History()) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase="night2",
                                  history=history)  # fmt: skip


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


FH = {"Wynne": "vigilante", "Corwin": "doctor", "Maud": "villager", "Osric": "godfather",
      "Tamsin": "mafioso", "Elspeth": "villager"}  # fmt: skip
DCTP = {"Ines": "chianti", "Otto": "vodka", "Bea": "conan", "Ugo": "megure", "Rex": "kujou",
        "Kit": "heiji", "Lor": "mitsuhiko"}  # fmt: skip


# --- "no more waiting": an inflected doubt word after a refusing word is a decision -------


def test_done_waiting_is_no_doubt() -> None:
    for text in (
        "Shoot Maud tonight. Enough evidence, no more waiting.",
        "shoot Maud. not waiting any longer",
        "Shooting Maud tonight, done waiting on her claim.",
    ):
        result = _parse("failheap", FH, text, "Wynne")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["shoot Maud"]


def test_waiting_and_the_written_doubt_words_stay_queued() -> None:
    # twins: the doubt word as written after a refusing word ("no wait", "not kidding"), and
    # the inflected one without a refusing word
    for text in (
        "Shoot Maud tonight. No wait.",
        "Shoot Maud tonight. Still waiting on her claim though.",
        "Shoot Maud tonight. not kidding",
    ):
        result = _parse("failheap", FH, text, "Wynne")
        assert result.status is not Status.ACCEPTED, text


# --- "Hi GM. Investigations tonight:" then numbered claims: the header after a greeting ----


def test_a_numbered_header_after_a_greeting_on_its_line() -> None:
    text = "Hey GM, Kit here, sorry for the late PM! My investigations:\n1) Otto kills Rex\n"
    text += "2) Ines kills Bea\n"
    result = _parse("dctp", DCTP, text, "Kit")
    assert result.status is Status.ACCEPTED, result.reason
    assert _orders(result) == ["investigate Otto>kill>Rex Ines>kill>Bea"]


def test_a_header_after_a_greeting_with_a_doubt_stays_queued() -> None:
    # twins: an unsure greeting sentence, and a doubt after the list
    for text in (
        "Hey GM, Kit here. My investigations:\n1) Otto kills Rex\n2) Ines kills Bea?\n",
        "Hey GM. My investigations:\n1) Otto kills Rex\n2) Ines kills Bea\nor maybe not, idk",
    ):
        result = _parse("dctp", DCTP, text, "Kit")
        assert result.status is not Status.ACCEPTED, text


# --- "he voted with X the whole day": a stretch of time is no phase of an order -----------


def test_a_remark_about_the_whole_day_is_chat() -> None:
    for text in (
        "Interrogate Rex tonight. He voted with Lor the whole day.",
        "interrogate Rex pls. He defended Lor all day",
    ):
        result = _parse("dctp", DCTP, text, "Bea")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["interrogate Rex"]


def test_a_name_with_a_phase_after_the_order_stays_queued() -> None:
    for text in (
        "Interrogate Rex tonight. He voted with Lor yesterday, Lor next night.",
        "Interrogate Rex tonight. Lor the whole night 3.",
        "Interrogate Rex tonight. Or Lor all day.",
    ):
        result = _parse("dctp", DCTP, text, "Bea")
        assert result.status is not Status.ACCEPTED, text


# --- "heal maud pls xx Cor": a sign-off closing the PM's line is the sender's signature ----


def test_a_signoff_closing_the_line_is_a_signature() -> None:
    for text in (
        "maud -> heal pls, she got piled on today xx Corwin",
        "heal maud tonight pls, thanks Corwin",
        "Heal Maud tonight ~Corwin",
    ):
        result = _parse("failheap", FH, text, "Corwin")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["heal Maud"]


def test_a_signoff_with_another_players_name_stays_queued() -> None:
    # twins: the name after the sign-off is another player's; an order and a name joined
    for text in (
        "heal maud pls xx Elspeth",
        "heal Maud tonight, thanks Tamsin",
        "heal Maud and Elspeth",
    ):
        result = _parse("failheap", FH, text, "Corwin")
        assert result.status is not Status.ACCEPTED, text


# --- a line wrapped after "and then": one sentence telling what a player did ---------------


def test_a_wrapped_remark_going_on_after_and_then_is_chat() -> None:
    for text in (
        "Interrogate Rex tonight. He defended Lor all morning and then\nflipped at the end.",
        "interrogate Rex pls. He voted with Lor and then\nswitched five minutes before the end",
    ):
        result = _parse("dctp", DCTP, text, "Bea")
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result) == ["interrogate Rex"]


def test_a_wrapped_line_going_on_with_a_player_or_an_order_stays_queued() -> None:
    # twins: after "and then" another player, an order word, a phase
    for text in (
        "Interrogate Rex tonight. He voted with Lor and then\nKit too.",
        "Interrogate Rex tonight. He voted with Lor and then\ninterrogate Kit.",
        "Interrogate Rex tonight. He voted with Lor and then\nnight 3 Kit.",
        "Interrogate Rex tonight and\nKit.",
    ):
        result = _parse("dctp", DCTP, text, "Bea")
        assert result.status is not Status.ACCEPTED, text


# --- "Tessa's (she handed me her night): …" and the delegate's signature after it ----------

HANDED = {"Ugo": {"role": "megure", "aliases": ["Ugs"]}, "Tessa": "takagi", "Bart": "vodka",
          "Cosmo": "chianti", "Lia": "ran"}  # fmt: skip
GIVEN = History(handoffs=(Handoff("Tessa", "Ugo", ("night2",)),))


def test_a_possessive_header_opens_the_givers_part_and_the_signature_is_the_senders() -> None:
    for text in (
        "Mine: house search on Bart.\nTessa's (she handed me her night, check her PM): stake"
        " out Cosmo.\nthanks ~Ugs",
        "House search on Bart tonight.\nTessa's: stake out Cosmo.\n- Ugo",
        "House search on Bart tonight.\nTessa's orders: stake out Cosmo.",
    ):
        result = _parse("dctp", HANDED, text, "Ugo", GIVEN)
        assert result.status is Status.ACCEPTED, (text, result.reason)
        assert _orders(result)[-1] == "stake_out Cosmo as=Tessa", _orders(result)


def test_a_possessive_header_with_a_doubt_or_another_players_name_after_stays_queued() -> None:
    for text, history in (
        ("House search on Bart.\nTessa's (maybe she handed me her night?): stake out Cosmo.",
         GIVEN),
        ("House search on Bart.\nTessa's: stake out Cosmo.\nthanks ~Lia", GIVEN),
        ("House search on Bart.\nTessa's: stake out Cosmo.\nLia", GIVEN),
        ("House search on Bart.\nTessa's: stake out Cosmo.", History()),
    ):  # fmt: skip
        result = _parse("dctp", HANDED, text, "Ugo", history)
        assert result.status is not Status.ACCEPTED, text
