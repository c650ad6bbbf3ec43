"""Issue 11, English and French recall classes after blind rounds D and E: clear orders that
were queued for a reading the sentence does not have, each with twins that must stay
queued. None of these texts is a corpus sentence."""

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


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str, phase: str,
           history: History = History()) -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=history)


def _orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


DCTP = {"Ines": "chianti", "Otto": "vodka", "Bea": "conan", "Ugo": "megure", "Rex": "kujou"}
FH_FR = {"Aurèle": "sheriff", "Maëlle": "doctor", "Basile": "villager", "Yvon": "godfather",
         "Tanguy": "mafioso", "Odile": "framer", "Pia": "villager"}  # fmt: skip


# --- "the kid": a noun is not the hedge "kidding" through its Snowball stem ----------------


def test_a_reason_with_the_word_kid_is_no_hedge() -> None:
    for text in (
        "discombobulate Bea tonight, the kid knows too much",
        "Discombobulate Bea pls. That kid is onto us.",
    ):
        result = _parse("dctp", DCTP, text, "Otto", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == ["discombobulate Bea"]


def test_kidding_and_hedges_stay_queued() -> None:
    # twins: the hedge itself, and the base forms of the hedges whose stems are short words
    for text in (
        "discombobulate Bea tonight, kidding",
        "discombobulate Bea, jk",
        "discombobulate Bea, I wonder",
        "discombobulate Bea, hope that's fine",
    ):
        result = _parse("dctp", DCTP, text, "Otto", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "check X, elle a défendu Y": a name in a clause telling what the target did is chat ----


def test_a_name_in_a_clause_about_what_the_target_did_is_no_second_target() -> None:
    for text in (
        "Cette nuit je check Basile stp, il a accusé Pia sans raison.",
        "check Basile, il a défendu Odile toute la journée",
        "Check Basile tonight, he defended Odile all day.",
    ):
        result = _parse("failheap", FH_FR, text, "Aurèle", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == ["check Basile"]


def test_a_second_name_that_may_be_a_target_stays_queued() -> None:
    # twins: "or", "and", a preference, a correction, a clause with no subject of its own
    for text in (
        "check Basile, il ou Pia",
        "check Basile, lui et Pia",
        "check Basile, il vaudrait mieux Pia",
        "check Basile, Pia a menti",
        "Check Basile, he or Odile, whoever.",
    ):
        result = _parse("failheap", FH_FR, text, "Aurèle", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "we hit X tonight, Y makes the visit": the teammate who carries out the team kill ------

FH = {"Vera": "godfather", "Tobin": "mafioso", "Quill": "framer", "Ada": "sheriff",
      "Bram": "doctor", "Cole": "villager", "Dina": "villager"}  # fmt: skip


def test_the_rule_performer_named_after_the_team_kill_is_the_senders_own_kill() -> None:
    for text in (
        "Tonight we whack Cole, Tobin does the hit.",
        "kill Dina - Tobin handles it",
        "On tue Cole cette nuit, Tobin s'en occupe.",
        "Hit on Dina tonight and Tobin pulls the trigger. Thanks!",
    ):
        result = _parse("failheap", FH, text, "Vera", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert len(result.orders) == 1 and result.orders[0].ability == "mafia_kill"
        assert result.orders[0].performer is None


def test_another_visitor_or_a_report_or_more_words_stay_queued() -> None:
    dead_hitman = {**FH, "Tobin": {"role": "mafioso", "alive": False}}
    cases = (
        ("Tonight we whack Cole, Quill does the hit.", FH),  # not the Mafioso
        ("Tonight we whack Cole, Tobin does the hit.", dead_hitman),  # no Mafioso alive
        ("We whack Cole tonight, Tobin did the hit.", FH),  # told as done
        ("We whack Cole tonight, Tobin does the hit or Dina.", FH),  # an alternative
        ("We whack Cole tonight, Tobin does the hit on Dina.", FH),  # another target
        ("We whack Cole tonight, Tobin or Quill makes the visit.", FH),
    )
    for text, players in cases:
        result = _parse("failheap", players, text, "Vera", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "than" is not Thad: a common word never matches a player's name by typo tolerance ------

TYPO = {"Ada": "sheriff", "Thaddeus": {"role": "vigilante", "aliases": ["Thad"]},
        "Andrea": "doctor", "Cole": "villager", "Wendell": "villager",
        "Yvon": "godfather"}  # fmt: skip


def test_a_common_word_near_a_name_is_the_word() -> None:
    for text in (
        "check Cole. Healing people is more fun than sitting around.",
        "Check Cole tonight. Shooting is less fun than waiting, really.",
    ):
        result = _parse("failheap", TYPO, text, "Ada", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == ["check Cole"]


def test_a_misspelt_name_that_is_no_word_still_counts() -> None:
    # twins: "Thadd" and "Wendel" are no words: they are typos of names and make a second
    # target (the GM's), as does the exact alias
    for text in ("check Cole, then Thadd", "check Cole and Wendel", "check Cole or Thad"):
        result = _parse("failheap", TYPO, text, "Ada", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "control X and send him at Y": the controlled player's new target ----------------------

WITCH = {"Sybil": "witch", "Rook": "vigilante", "Ada": "sheriff", "Cole": "villager",
         "Dina": "villager", "Yvon": "godfather"}  # fmt: skip


def test_a_control_with_the_new_target_sent_by_a_pronoun() -> None:
    for text, read in (
        ("Control Rook and point him at Cole.", "control Rook Cole"),
        ("control Rook tonight, have him target Dina", "control Rook Dina"),
        ("Contrôle Rook et envoie-le sur Cole.", "control Rook Cole"),
    ):
        result = _parse("failheap", WITCH, text, "Sybil", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == [read]


def test_a_control_sent_nowhere_or_to_a_choice_stays_queued() -> None:
    for text in (
        "Control Rook and send him",
        "Control Rook and point him at Cole or Dina",
        "Control Rook and send him at Cole, maybe",
    ):
        result = _parse("failheap", WITCH, text, "Sybil", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "And for Pep (she handed me her actions…): …": a hand-off header mid-PM ---------------

HANDED = {"Ugo": "megure", "Tessa": {"role": "takagi", "aliases": ["Tess"]},
          "Bart": "vodka", "Lia": "ran", "Cosmo": "chianti"}  # fmt: skip
GIVEN = History(handoffs=(Handoff("Tessa", "Ugo", ("night3",)),))


def test_a_joined_header_with_an_aside_stating_the_handoff_opens_the_givers_part() -> None:
    for text in (
        "House search on Bart tonight.\nAnd for Tess (she gave me her actions, check her PM):"
        " stake-out Cosmo.",
        "House search on Bart tonight.\nAlso for Tessa (on behalf of her, she handed me her "
        "actions) - stake out Cosmo",
    ):
        result = _parse("dctp", HANDED, text, "Ugo", "night3", GIVEN)
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result)[-1] == "stake_out Cosmo as=Tessa", _orders(result)


def test_an_aside_with_a_doubt_or_no_handoff_stays_queued() -> None:
    for text, history in (
        (
            "House search on Bart.\nAnd for Tess (not sure she handed me her actions): stake out"
            " Cosmo.",
            GIVEN,
        ),
        ("House search on Bart.\nAnd for Tess (she likes Cosmo): stake out Cosmo.", GIVEN),
        (
            "House search on Bart.\nAnd for Tess (she handed me her actions?): stake out Cosmo.",
            GIVEN,
        ),
        (
            "House search on Bart.\nAnd for Tess (she handed me her actions): stake out Cosmo.",
            History(),
        ),
    ):
        result = _parse("dctp", HANDED, text, "Ugo", "night3", history)
        assert result.status is not Status.ACCEPTED, text
