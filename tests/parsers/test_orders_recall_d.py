"""Issue 11, recall classes after blind round C (English and French): clear orders that were
queued for a reading the sentence does not have, each with twins that must stay queued or
refused. None of these texts is a corpus sentence."""

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


FAILHEAP = {"Maelle": "doctor", "Gaston": "arsonist", "Odile": "sheriff", "Rufus": "vigilante",
            "Sidonie": "villager", "Tibo": "mafioso"}  # fmt: skip
DCTP = {"Ines": "chianti", "Otto": "kujou", "Bea": "conan", "Ugo": "megure", "Rex": "vodka"}


# --- A word of one language's grammar is not another language's one-word order word --------


def test_a_french_preposition_is_not_an_english_order_word() -> None:
    # Failheap's English douse words include "pour"; in French it is "for"
    for text, want in (
        ("Je soigne Sidonie. Elle m'a défendu toute la journée, je fais ça pour elle.",
         ["heal Sidonie"]),
        ("Cette nuit je protège Odile, pour une fois qu'elle se montre.", ["heal Odile"]),
    ):  # fmt: skip
        result = _parse("failheap", FAILHEAP, text, "Maelle", "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == want, result.reason


def test_the_english_word_still_reads_in_english_and_for_its_own_role() -> None:
    # twins: the arsonist's English "pour" stays his douse order
    english = _parse("failheap", FAILHEAP, "Pour gas on Rufus tonight.", "Gaston", "night2")
    assert english.status is Status.ACCEPTED and _orders(english) == ["douse Rufus"]
    # a French sentence with a French douse word is read as such
    french = _parse("failheap", FAILHEAP, "J'asperge Rufus cette nuit.", "Gaston", "night2")
    assert french.status is Status.ACCEPTED and _orders(french) == ["douse Rufus"]
    # another role's English order word in an English sentence still sends the PM to the GM
    other = _parse("failheap", FAILHEAP, "Heal Sidonie. And pour gas on Rufus.", "Maelle", "night2")
    assert other.status is not Status.ACCEPTED


def test_a_french_si_is_no_special_investigation() -> None:
    # DCTP's "SI" (Special Investigate) is French "if": a French conditional stays a condition
    text = "Si Bea est lynchée, alors je vote Ugo."
    result = _parse("dctp", DCTP, text, "Otto", "day2")
    assert "special_investigate" not in {o.ability for c in result.candidates for o in c.orders}
    assert result.status is not Status.ACCEPTED  # a condition on the vote: the GM reads it


# --- A misspelt name with no rival reading is that player ------------------------------------

TYPOS = {"Maelle": "doctor", "Leontine": "villager", "Berangere": "sheriff", "Tibo": "mafioso",
         "Maurus": "villager", "Marius": {"role": "villager", "alive": False},
         "Ferdinand": {"role": "villager", "alive": False}}  # fmt: skip


def test_a_misspelt_name_of_one_living_player_is_read() -> None:
    for text, want in (("heal Leontnie tonight", "heal Leontine"),
                       ("Je protège Berangre cette nuit.", "heal Berangere")):  # fmt: skip
        result = _parse("failheap", TYPOS, text, "Maelle", "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], result.reason
        assert result.orders[0].guesses  # the GM still sees what was guessed


def test_a_misspelt_name_with_a_rival_stays_with_the_gm() -> None:
    for text in (
        "heal Marus",  # one edit from the living Maurus and from the dead Marius
        "heal Ferdinad",  # the only near name is a dead player's
        "heal Tbio",  # four letters: too short to guess
        "heal Leontinne Berangre",  # two names where the order takes one
    ):
        result = _parse("failheap", TYPOS, text, "Maelle", "night2")
        assert result.status is not Status.ACCEPTED, text


def test_a_misspelt_name_as_near_to_a_word_stays_with_the_gm() -> None:
    players = {"Ninon": "villager", "Perrine": "villager", "Gaspard": "villager"}
    # "Perinne" is two edits from Perrine and from "personne" (nobody): two readings
    result = _parse("durarara", players, "Mon vote va à Perinne.", "Ninon", "day2")
    assert result.status is not Status.ACCEPTED
    # twin: one edit from Gaspard, no word as near
    near = _parse("durarara", players, "Mon vote va à Gaspar.", "Ninon", "day2")
    assert near.status is Status.ACCEPTED and _orders(near) == ["vote Gaspard"], near.reason


# --- Someone described in the player's reasoning, after a complete order ------------------

ROLES = {"Maelle": "doctor", "Odile": "sheriff", "Rufus": "bodyguard", "Sidonie": "villager",
         "Tibo": "mafioso", "Wanda": "witch", "Calix": "vigilante", "Pia": "villager"}  # fmt: skip


def test_a_described_person_in_the_reasoning_is_no_vague_target() -> None:
    for actor, text, want in (
        ("Rufus", "Guard Sidonie tonight, I'm sure somebody will go after her.", "guard Sidonie"),
        ("Maelle", "Je soigne Odile, je pense que quelqu'un va l'attaquer.", "heal Odile"),
        ("Wanda", "Control Calix and make him shoot Pia instead of whoever he chose.",
         "control Calix Pia"),
    ):  # fmt: skip
        result = _parse("failheap", ROLES, text, actor, "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], result.reason


def test_a_described_target_still_queues() -> None:
    for actor, text in (
        ("Maelle", "Heal Odile or someone else, your pick."),  # an alternative
        ("Maelle", "Heal whoever the sheriff checked, I trust her."),  # no player named
        ("Rufus", "Guard Sidonie and someone else too."),  # a second, described target
        ("Wanda", "Control Calix, make him shoot whoever."),  # the new target is described
    ):
        result = _parse("failheap", ROLES, text, actor, "night2")
        assert result.status is not Status.ACCEPTED, text


# --- A role named in the player's chat is not that role's order ---------------------------

AMNESIAC = {"Liam": "amnesiac", "Corin": {"role": "paranoid", "alive": False}, "Hank": "paranoid",
            "Odile": "sheriff", "Jules": "framer", "Carl": "vigilante"}  # fmt: skip


def test_a_role_word_in_chat_is_not_another_role_s_order() -> None:
    text = "Remember Corin. Paranoid seems like a fun role to play."
    result = _parse("failheap", AMNESIAC, text, "Liam", "night3")
    assert result.status is Status.ACCEPTED and _orders(result) == ["remember Corin"], result.reason
    # twins: the paranoid's own word stays his order; another role's order word stays queued
    own = _parse("failheap", AMNESIAC, "Paranoid tonight.", "Hank", "night3")
    assert own.status is Status.ACCEPTED and _orders(own) == ["alert"], own.reason
    other = _parse("failheap", AMNESIAC, "Remember Corin. Also stay on alert.", "Liam", "night3")
    assert other.status is not Status.ACCEPTED


def test_a_doubt_about_a_remark_after_the_order_is_not_about_the_order() -> None:
    text = "frame odile tonight, she's the cop I think"
    result = _parse("failheap", AMNESIAC, text, "Jules", "night3")
    assert result.status is Status.ACCEPTED and _orders(result) == ["frame Odile"], result.reason
    # twins: a doubt right after the order is about it
    for doubt in ("frame odile tonight, I think", "frame odile I guess"):
        assert _parse("failheap", AMNESIAC, doubt, "Jules", "night3").status is not Status.ACCEPTED


# --- A correction with a remark about the player it drops ---------------------------------

VOTERS = {"Otto": "kujou", "Bea": "conan", "Ugo": "megure", "Rex": "vodka", "Ines": "chianti"}


def test_a_correction_with_a_remark_on_the_dropped_target_is_read() -> None:
    for text, want in (
        ("vote ugo\nhmm no, changed my mind, Ugo has been helpful all day. vote Rex.", "vote Rex"),
        ("Je vote Ugo.\nEnfin non, Ugo a été utile aujourd'hui. Je vote Rex.", "vote Rex"),
    ):
        result = _parse("dctp", VOTERS, text, "Otto", "day2")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], result.reason


def test_a_correction_with_a_remark_stays_queued_when_it_could_change_the_order() -> None:
    for text in (
        "vote ugo\nhmm no, changed my mind, Ugo has been helpful all day.",  # no new vote
        "vote ugo\nhmm no, changed my mind, Bea has been quiet. vote Rex.",  # a third player
        "vote ugo\nno wait, Ugo might be fine? vote Rex.",  # a question
    ):
        result = _parse("dctp", VOTERS, text, "Otto", "day2")
        assert result.status is not Status.ACCEPTED, text


# --- A mayor's will written after other words, with a short header ------------------------

MAYOR = {"Noemie": {"role": "villager", "statuses": ["mayor"]}, "Basile": "villager",
         "Clarisse": "villager", "Gaspard": "villager"}  # fmt: skip


def test_a_will_in_a_clause_with_a_header_is_read() -> None:
    text = ("Je vote Basile.\nAu passage, mon testament de maire : si je meurs, "
            "je désigne Clarisse comme successeur.")  # fmt: skip
    result = _parse("durarara", MAYOR, text, "Noemie", "day2")
    assert result.status is Status.ACCEPTED, result.reason
    assert _orders(result) == ["vote Basile", "name_successor Clarisse"]


def test_a_will_mentioned_in_passing_stays_no_order() -> None:
    for text in (
        "Je vote Basile, mon testament est sur le forum.",  # no header: a mention
        "Je vote Basile.\nAu passage, mon testament pour Gaspard : il sait quoi faire.",
    ):
        result = _parse("durarara", MAYOR, text, "Noemie", "day2")
        assert "name_successor" not in {o.ability for o in result.orders}, text


# --- "tell me if": what to report, not a doubt --------------------------------------------


def test_an_if_after_a_request_for_the_result_is_no_hedge() -> None:
    for text in (
        "Check Tibo and tell me if he is mafia.",
        "Je vérifie Tibo, dis-moi si c'est un mafieux.",
    ):
        result = _parse("failheap", FAILHEAP, text, "Odile", "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == ["check Tibo"], result.reason


def test_an_if_elsewhere_still_hedges() -> None:
    for text in ("Check Tibo if you think it's worth it.", "Check Tibo, if I can."):
        result = _parse("failheap", FAILHEAP, text, "Odile", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- An add-on "on that vote": the vote's player ------------------------------------------


def test_an_add_on_on_that_vote_takes_the_vote_s_player() -> None:
    examined = History(orders=(PastOrder("night1", "Otto", "cross_examine", ("Bea",)),))
    text = "Voting Bea today and I'm putting Voice of Accusation on that vote."
    result = _parse("dctp", DCTP, text, "Otto", "day2", examined)
    assert result.status is Status.ACCEPTED, result.reason
    assert _orders(result) == ["vote Bea", "voice_of_accusation Bea"]


def test_an_add_on_on_that_vote_still_follows_the_rules() -> None:
    text = "Voting Bea today and I'm putting Voice of Accusation on that vote."
    # Bea was never cross-examined: the rule still queues it; no history at all: queued too
    other = History(orders=(PastOrder("night1", "Otto", "cross_examine", ("Ugo",)),))
    for history in (other, None):
        result = _parse("dctp", DCTP, text, "Otto", "day2", history)
        assert result.status is not Status.ACCEPTED
    # two players voted for in the sentence: which one is "that vote"?
    both = History(orders=(PastOrder("night1", "Otto", "cross_examine", ("Bea",)),
                           PastOrder("day1", "Otto", "cross_examine", ("Ugo",))))  # fmt: skip
    two = "Voting Bea or Ugo and I'm putting Voice of Accusation on that vote."
    assert _parse("dctp", DCTP, two, "Otto", "day2", both).status is not Status.ACCEPTED


# --- "Investigate 5, using three of them:": the count and its remark are no claim ---------


def test_a_counted_header_with_a_remark_reads_its_claims() -> None:
    text = "Investigate 5, using two of them:\n1. Ugo kills Rex\n2. Rex protects Ines\nThanks!"
    result = _parse("dctp", DCTP, text, "Bea", "night3")
    assert result.status is Status.ACCEPTED, result.reason
    assert [o.ability for o in result.orders] == ["investigate"]
    claims = [t.value for o in result.orders for t in o.targets]
    assert len(claims) == 2


def test_a_counted_header_with_a_name_or_an_unread_claim_stays_queued() -> None:
    for text in (
        "Investigate 5, using Ugo's tip:\n1. Ugo kills Rex\n2. Rex protects Ines",
        "Investigate 5, using two of them:\n1. Ugo kills Rex or Ines\n2. Rex protects Ines",
    ):
        result = _parse("dctp", DCTP, text, "Bea", "night3")
        assert result.status is not Status.ACCEPTED, text


# --- What someone else did, told in the past, is no order ---------------------------------


def test_what_someone_did_in_the_past_is_no_order() -> None:
    for text in ("Heal Odile tonight. Tibo seems shady to me, he voted oddly.",
                 "Je soigne Odile. Il a voté n'importe comment hier."):  # fmt: skip
        result = _parse("failheap", FAILHEAP, text, "Maelle", "night2")
        assert result.status is Status.ACCEPTED, result.reason
        assert _orders(result) == ["heal Odile"]


def test_an_order_word_not_told_in_the_past_still_counts() -> None:
    for text in (
        "Heal Odile tonight, and he shoots Tibo.",  # another role's order, present
        "Heal Odile tonight. I voted Tibo, count it.",
    ):  # the sender's own vote
        result = _parse("failheap", FAILHEAP, text, "Maelle", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- An order phrase with the player's name inside it -------------------------------------

SAIKA = {"Sasha": "saika", "Hugo": "ripper", "Lina": "villager", "Marc": "villager"}


def test_a_phrase_with_the_name_inside_is_that_order() -> None:
    for ruleset, players, actor, text, want in (
        (
            "durarara",
            SAIKA,
            "Sasha",
            "Cette nuit je rends Hugo simple villageois.",
            "cure_ripper Hugo",
        ),
        ("durarara", SAIKA, "Sasha", "Bon, je rends Hugo villageois.", "cure_ripper Hugo"),
    ):
        result = _parse(ruleset, players, text, actor, "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], result.reason


def test_a_phrase_with_the_name_inside_and_more_stays_queued() -> None:
    for ruleset, players, actor, text in (
        ("durarara", SAIKA, "Sasha", "Je rends Hugo simple villageois ou Lina."),
        ("durarara", SAIKA, "Sasha", "Je rends Hugo simple villageois, peut-être."),
        ("durarara", SAIKA, "Sasha", "Je ne rends pas Hugo villageois."),
        ("dctp", DCTP, "Ines", "Stake him out tonight."),
        ("dctp", DCTP, "Ines", "Stake Ugo out, and observe Bea."),
    ):
        result = _parse(ruleset, players, text, actor, "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "X sera le prochain maire": the mayor's successor named before the phrase ------------


def test_the_successor_named_before_the_phrase_is_read() -> None:
    for text in (
        "Testament : Basile sera mon successeur.",
        "Mon testament : Basile est mon successeur",
    ):
        result = _parse("durarara", MAYOR, text, "Noemie", "day2")
        assert result.status is Status.ACCEPTED and _orders(result) == ["name_successor Basile"], (
            result.reason
        )


def test_a_successor_hoped_for_or_among_two_stays_queued() -> None:
    for text in ("Testament : Basile sera mon successeur, j'espère.",
                 "Testament : Basile ou Gaspard sera mon successeur."):  # fmt: skip
        assert _parse("durarara", MAYOR, text, "Noemie", "day2").status is not Status.ACCEPTED
    # not the mayor: another role's order, for the GM
    other = _parse("durarara", MAYOR, "Basile sera le prochain maire.", "Clarisse", "day2")
    assert other.status is not Status.ACCEPTED


# --- A doubt about someone else, in the reasoning after the order -------------------------

REASONS = {"Maelle": "doctor", "Rufus": "vigilante", "Sidonie": "villager", "Tibo": "mafioso"}


def test_a_doubt_about_a_third_person_after_the_order_is_reasoning() -> None:
    for actor, text, want in (
        ("Maelle", "Heal Sidonie please. She claimed cop so she's probably the next target.",
         "heal Sidonie"),
        ("Maelle", "Je protège Sidonie. Elle a claim flic, elle est peut-être la prochaine cible.",
         "heal Sidonie"),
    ):  # fmt: skip
        result = _parse("failheap", REASONS, text, actor, "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == [want], result.reason


def test_a_doubt_of_the_sender_s_own_after_the_order_still_queues() -> None:
    for text in (
        "Shoot Tibo. He's maybe not scum, I don't know.",
        "Je tire sur Tibo. Je sais pas, il est peut-être innocent.",
        "Shoot Tibo. It's probably a mistake.",
        "Shoot Tibo. Not sure though.",
    ):
        result = _parse("failheap", REASONS, text, "Rufus", "night2")
        assert result.status is not Status.ACCEPTED, text


# --- "Let me know the result": no question to the GM --------------------------------------


def test_asking_for_the_result_is_no_question() -> None:
    for text in ("Check Tibo tonight. Let me know the result asap!",
                 "Je vérifie Tibo. Dis-moi le résultat stp."):  # fmt: skip
        result = _parse("failheap", FAILHEAP, text, "Odile", "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == ["check Tibo"], result.reason


def test_asking_for_anything_else_stays_a_question() -> None:
    for text in ("Check Tibo. Let me know if that's allowed.",
                 "Check Tibo. Let me know who to check next.",
                 "Check Tibo. Let me know the results, and if I can check twice?"):  # fmt: skip
        result = _parse("failheap", FAILHEAP, text, "Odile", "night2")
        assert result.status is not Status.ACCEPTED, text


def test_a_doubt_about_a_third_person_in_the_order_s_sentence_is_reasoning() -> None:
    for text in ("Heal Sidonie tonight, she's probably the next target.",
                 "Je protège Sidonie, elle est peut-être la prochaine cible."):  # fmt: skip
        result = _parse("failheap", REASONS, text, "Maelle", "night2")
        assert result.status is Status.ACCEPTED and _orders(result) == ["heal Sidonie"], (
            result.reason
        )
    for text in ("Heal Sidonie tonight, probably.", "Heal Sidonie, she's probably fine, not sure.",
                 "Je protège Sidonie, peut-être."):  # fmt: skip
        assert _parse("failheap", REASONS, text, "Maelle", "night2").status is not Status.ACCEPTED
