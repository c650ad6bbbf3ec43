"""Focused tests of the order parser: names, look-alikes, learned mappings, rules, phases."""

from __future__ import annotations

import functools

import pytest

from parsers.orders import History, Learned, OrderParser, ParseResult, Status
from parsers.orders.text import content_lines, strip_markup
from parsers.roster import Roster, roster_from_data
from resolver.ruleset import load_ruleset

PLAYERS = {
    "Ann": "sheriff",
    "Anna": "cab_driver",
    "Annabelle": "villager",
    "Bob": "doctor",
    "Carl": "vigilante",
    "Doctor": "godfather",
    "Kill": "villager",
    "Сара": "consigliere",
    "Dave": "bodyguard",
}


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


@functools.cache
def _roster() -> Roster:
    data = [{"name": n, "role": r} for n, r in PLAYERS.items()]
    data.append({"name": "Mona", "role": "villager", "alive": False})
    return roster_from_data({"players": data})


def parse(text: str, actor: str = "Bob", phase: str = "night2", **kw: object) -> ParseResult:
    return _parser("failheap").parse(text, roster=_roster(), actor=actor, phase=phase, **kw)  # type: ignore[arg-type]


def orders(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


@pytest.mark.parametrize(
    ("text", "target"),
    [("heal Ann", "Ann"), ("heal Anna", "Anna"), ("heal annabelle", "Annabelle"),
     ("heal Annab", "Annabelle"), ("HEAL ANNA", "Anna")],
)  # fmt: skip
def test_names_that_are_prefixes_of_each_other(text: str, target: str) -> None:
    result = parse(text)
    assert result.status is Status.ACCEPTED
    assert orders(result) == [f"heal {target}"]


def test_a_short_prefix_of_several_names_is_for_the_gm() -> None:
    result = parse("heal An")
    assert result.status is Status.AMBIGUOUS
    assert result.candidates


@pytest.mark.parametrize(
    ("actor", "text", "want"),
    [("Bob", "heal Kill", "heal Kill"), ("Ann", "check Doctor", "check Doctor"),
     ("Carl", "kill Kill", "shoot Kill"), ("Doctor", "nk: kill", "mafia_kill Kill")],
)  # fmt: skip
def test_players_named_like_roles_or_abilities(actor: str, text: str, want: str) -> None:
    result = parse(text, actor=actor)
    assert result.status is Status.ACCEPTED, result.reason
    assert orders(result) == [want]


@pytest.mark.parametrize("text", ["check the Doctor", "check the doctor", "check doctor"])
def test_a_name_written_as_its_role_word_is_queued(text: str) -> None:
    """The player "Doctor" or the doctor's role? Written as a role is, the GM decides."""
    result = parse(text, actor="Ann")
    assert result.status is Status.AMBIGUOUS
    assert "names a player and a role" in result.reason
    assert [c.render() for c in result.candidates][:1] == ["check Doctor"]


@pytest.mark.parametrize("written", ["Сара", "Capa", "САРА", "C\u0430pa"])
def test_cyrillic_and_latin_look_alikes(written: str) -> None:
    result = parse(f"heal {written}")
    assert orders(result) == ["heal Сара"]


def test_zero_width_characters_are_ignored() -> None:
    assert orders(parse("heal A\u200bnna")) == ["heal Anna"]


def test_a_rule_is_named_when_an_order_is_rejected() -> None:
    result = parse("protect myself")
    assert result.status is Status.REJECTED
    assert result.rule == "Bob may not heal themselves"
    assert parse("heal Mona").rule == "Mona is dead"
    assert "night1" in (parse("shoot Ann", actor="Carl", phase="night1").rule or "")
    assert parse("shoot Ann", actor="Carl", uses_left={"shoot": 0}).status is Status.REJECTED


def test_learned_nickname_and_misspelling() -> None:
    assert parse("heal Bobo", actor="Dave").status is not Status.ACCEPTED
    assert parse("protecc Ann").status is Status.AMBIGUOUS
    learned = Learned(names={"Bobo": "Bob"}, abilities={"protecc": "heal"})
    assert orders(parse("guard Bobo", actor="Dave", learned=learned)) == ["guard Bob"]
    assert orders(parse("protecc Ann", learned=learned)) == ["heal Ann"]


def test_two_orders_where_one_is_allowed_go_to_the_gm_with_both_readings() -> None:
    result = parse("heal Ann\nheal Carl")
    assert result.status is Status.AMBIGUOUS
    assert {c.render() for c in result.candidates} == {"heal Ann", "heal Carl"}


def test_a_correction_replaces_the_earlier_order_and_cancel() -> None:
    result = parse("heal Ann. Actually, heal Carl.")
    assert orders(result) == ["heal Carl"]
    assert [o.render() for o in result.superseded] == ["heal Ann"]
    assert orders(parse("heal Ann. Actually, no action tonight.")) == ["cancel"]


def test_questions_are_not_orders() -> None:
    result = parse("can I heal myself two nights in a row?")
    assert result.status is Status.AMBIGUOUS
    assert result.questions
    assert not result.orders


def test_an_order_with_a_question_goes_to_the_gm_with_the_order_as_candidate() -> None:
    result = parse("heal Ann. Is the sheriff alive?")
    assert result.status is Status.AMBIGUOUS
    assert [c.render() for c in result.candidates] == ["heal Ann"]
    assert result.questions == ("Is the sheriff alive?",)


def test_quotes_and_signatures_are_ignored() -> None:
    text = "[quote author=Bob]heal Carl[/quote]\nheal Ann\n--\nBob, heal me maybe"
    assert orders(parse(text)) == ["heal Ann"]
    html = "<p>heal <b>Ann</b></p><blockquote>heal Carl</blockquote>"
    assert orders(parse(html)) == ["heal Ann"]
    assert content_lines(strip_markup("> quoted\nmine")) == ["mine"]


def test_unknown_sender_and_result_json_shape() -> None:
    assert parse("heal Ann", actor="Zed").status is Status.REJECTED
    data = parse("heal Ann").as_json()
    assert data["status"] == "accepted"
    assert data["orders"][0] == {
        "kind": "order",
        "ability": "heal",
        "targets": ["Ann"],
        "params": {},
        "phase": "night2",
        "text": "heal Ann",
        "guesses": [],
        "performer": None,
        "for_player": None,
    }
    assert {"reason", "confidence", "candidates", "rule", "questions"} <= data.keys()


DCTP_ROSTER = {"Conia": "megure", "Akonyl": "vermouth", "CTU": "ran", "Callid": "anokata"}


def _dctp(text: str, actor: str, phase: str, **kw: object) -> ParseResult:
    roster = roster_from_data({"players": DCTP_ROSTER})
    return _parser("dctp").parse(text, roster=roster, actor=actor, phase=phase, **kw)  # type: ignore[arg-type]


def test_arrest_with_crime_victim_and_phase() -> None:
    result = _dctp("Arrest Akonyl for Killing CTU on Night 1", "Conia", "night2")
    assert orders(result) == ["arrest Akonyl kill:CTU:night1 phase=night1"]
    crime = result.as_json()["orders"][0]["targets"][1]
    assert crime == {"crime": "kill", "victim": "CTU", "phase": "night1"}


def test_quoted_claims_and_aptx_role() -> None:
    result = _dctp("investigate 'Akonyl kills CTU'", "Conia", "night2")
    assert result.as_json()["orders"][0]["targets"][0]["verb"] == "kill"
    assert orders(_dctp("APTX: Akonyl = Shinichi", "Callid", "day2")) == ["aptx Akonyl shinichi"]


def test_every_listed_claim_is_kept_up_to_the_senders_investigate_count() -> None:
    """Megure has "Investigate 3": three unquoted claims are three claims, never just the first."""
    text = "inv: Akonyl disguised as Conan, Callid protects CTU, CTU kills Akonyl"
    result = _dctp(text, "Conia", "night2")
    assert result.status is Status.ACCEPTED
    claims = result.as_json()["orders"][0]["targets"]
    assert [(c["subject"], c["verb"]) for c in claims] == [
        ("Akonyl", "disguise"),
        ("Callid", "protect"),
        ("CTU", "kill"),
    ]


def test_more_claims_than_the_sender_may_investigate_go_to_the_gm() -> None:
    """Gin investigates one claim a night: a list of four is the GM's to place."""
    roster = roster_from_data({"players": {**DCTP_ROSTER, "Kleene": "gin"}})
    text = (
        "investigate 'Akonyl kills CTU', 'Callid protects CTU', 'CTU kills Akonyl', "
        "'Conia frames CTU'"
    )
    result = _parser("dctp").parse(text, roster=roster, actor="Kleene", phase="night2")
    assert result.status is Status.AMBIGUOUS
    assert "4 claims given" in result.reason


def test_a_claim_with_its_phase_after_a_comma_stays_one_claim() -> None:
    result = _dctp("investigate Akonyl kills CTU, Night 2", "Conia", "night2")
    assert result.status is Status.ACCEPTED
    assert len(result.as_json()["orders"][0]["targets"]) == 1


def test_handoff_counts_only_when_the_delegate_got_the_pm() -> None:
    text = "I hand over my actions to Akonyl for Night 2"
    ok = _dctp(text, "Callid", "day2", recipients=["GM", "Akonyl"])
    assert orders(ok) == ["handoff Akonyl phases=night2"]
    assert _dctp(text, "Callid", "day2", recipients=["GM"]).status is Status.REJECTED
    assert _dctp(text, "Callid", "day2").status is Status.AMBIGUOUS


def test_multi_recipient_orders_do_not_count_in_dctp() -> None:
    result = _dctp("protect Conia", "CTU", "night2", recipients=["GM", "Conia"])
    assert result.status is Status.REJECTED


def test_russian_case_endings_and_french_accents() -> None:
    ru = roster_from_data({"players": {"Маша": "doctor", "Кот": "sheriff", "Олег": "vampire"}})
    parser = _parser("ru_mafia")
    heal = parser.parse("лечу Кота", roster=ru, actor="Маша", phase="night2", history=History())
    assert orders(heal) == ["heal Кот"]
    result = parser.parse("слежу за Олегом", roster=ru, actor="Кот", phase="night2")
    assert result.status is not Status.ACCEPTED  # the sheriff does not shadow
    fr = roster_from_data({"players": {"Zoé": "shinra", "Kévin": "blue_square"}})
    result = _parser("durarara").parse(
        "je protège Kevin cette nuit", roster=fr, actor="Zoé", phase="night2"
    )
    assert orders(result) == ["save Kévin"]


def test_a_gm_decision_teaches_the_game() -> None:
    """Confirming a queued reading teaches its guessed words (Learned.taught_by)."""
    first = parse("heal Carll")
    assert first.status is Status.AMBIGUOUS
    chosen = first.candidates[0].orders[-1]
    assert chosen.render() == "heal Carl"
    learned = Learned.taught_by(chosen)
    assert learned.names == {"Carll": "Carl"}
    assert orders(parse("heal Carll", learned=learned)) == ["heal Carl"]
    word = Learned.taught_by(parse("protecc Ann").candidates[0].orders[-1])
    assert word.abilities == {"protecc": "heal"}
    both = learned.merged(word)
    assert orders(parse("protecc Carll", learned=both)) == ["heal Carl"]


def test_a_name_alone_offers_the_likely_orders_but_a_signature_does_not() -> None:
    result = parse("Carl")
    assert result.status is Status.AMBIGUOUS
    assert [c.render() for c in result.candidates] == ["heal Carl"]
    assert orders(parse("heal Ann\n- Bob")) == ["heal Ann"]
