"""Issue 11: the ruleset's limits on an order, checked from the game state and its history,
and the PM-level rules that send a PM to the GM instead of accepting part of it."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import Handoff, History, OrderParser, ParseResult, PastOrder, Status
from parsers.orders.parse import MAX_PM_BYTES
from parsers.roster import Roster, roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str, phase: str,
           history: History | None = History()) -> ParseResult:  # fmt: skip
    roster: Roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=history)


FAILHEAP = {"Pyro": "arsonist", "Bob": "doctor", "Ann": "sheriff", "Dave": "bodyguard"}


def test_ignite_needs_someone_doused_and_without_state_the_gm_decides() -> None:
    refused = _parse("failheap", FAILHEAP, "ignite", "Pyro", "night3")
    assert refused.status is Status.REJECTED and "doused" in (refused.rule or "")
    unknown = _parse("failheap", FAILHEAP, "ignite", "Pyro", "night3", history=None)
    assert unknown.status is Status.AMBIGUOUS
    doused = {**FAILHEAP, "Dave": {"role": "bodyguard", "statuses": ["doused"]}}
    assert _parse("failheap", doused, "ignite", "Pyro", "night3").status is Status.ACCEPTED


def test_douse_then_ignite_is_two_actions_for_the_gm() -> None:
    doused = {**FAILHEAP, "Dave": {"role": "bodyguard", "statuses": ["doused"]}}
    result = _parse("failheap", doused, "douse Ann then ignite", "Pyro", "night3")
    assert result.status is Status.AMBIGUOUS
    assert {c.render() for c in result.candidates} == {"douse Ann", "ignite"}


DCTP = {"Gin": "gin", "Callid": "anokata", "Akonyl": "vermouth", "Conia": "megure"}


def test_slander_takes_at_most_one_bo_member() -> None:
    result = _parse("dctp", DCTP, "Slander Callid and Akonyl", "Gin", "night3")
    assert result.status is Status.REJECTED and "BO" in (result.rule or "")
    assert _parse("dctp", DCTP, "Slander Conia", "Gin", "night3").status is Status.ACCEPTED


def test_special_investigate_is_about_a_past_night() -> None:
    players = {**DCTP, "pofa": "bourbon", "CTU": "ran"}
    now = _parse("dctp", players, "SI: 'Akonyl kills CTU on night 3'", "pofa", "night3")
    assert now.status is Status.REJECTED
    # Bourbon's SI is his killing action: on a night the leader gives him the kill
    his = History(orders=(PastOrder("night3", "Callid", "order_kill", ("pofa", "CTU")),))
    text = "SI: 'Akonyl kills CTU on night 2'"
    assert _parse("dctp", players, text, "pofa", "night3", his).status is Status.ACCEPTED


DURARARA = {"Chloé": "cupid", "Hugo": "izaya", "Manon": "bacula", "Léa": "blue_square"}


def test_lovers_are_made_on_the_first_night_and_a_wolf_s_pm_goes_to_the_gm() -> None:
    late = _parse("durarara", DURARARA, "Je lie Hugo et Manon", "Chloé", "night2")
    assert late.status is Status.REJECTED
    first = _parse("durarara", DURARARA, "Je lie Hugo et Manon", "Chloé", "night1")
    assert first.status is Status.ACCEPTED
    den = _parse("durarara", DURARARA, "On mange Hugo", "Léa", "night2")  # chosen in the den
    assert den.status is Status.AMBIGUOUS
    assert {o.render() for c in den.candidates for o in c.orders} == {"wolf_kill Hugo"}


RU = {"Лиса": "mafia_boss", "Ганс": "mafioso", "Маша": "doctor", "Кот": "sheriff"}


def test_the_clan_head_sends_the_clan_moves_unless_he_handed_them_over() -> None:
    own = _parse("ru_mafia", RU, "стреляю в Кота", "Ганс", "night3")
    assert own.status is Status.REJECTED and "Лиса" in (own.rule or "")
    handed = History(handoffs=(Handoff("Лиса", "Ганс", ("night3",)),))
    ok = _parse("ru_mafia", RU, "стреляю в Кота", "Ганс", "night3", history=handed)
    assert ok.status is Status.ACCEPTED
    performer = _parse("ru_mafia", RU, "Ганс — стреляет в Машу", "Лиса", "night3")
    assert [(o.render(), o.performer) for o in performer.orders] == [("shoot Маша by=Ганс", "Ганс")]
    handed_over = _parse("ru_mafia", RU, "Ганс — стреляет в Машу", "Лиса", "night3",
                         history=handed)  # fmt: skip
    assert handed_over.status is Status.AMBIGUOUS  # Лиса handed her actions to Ганс


def test_no_heal_of_the_same_player_two_nights_running() -> None:
    history = History(orders=(PastOrder("night2", "Маша", "heal", ("Кот",)),))
    again = _parse("ru_mafia", RU, "лечу Кота", "Маша", "night3", history=history)
    assert again.status is Status.REJECTED
    other = _parse("ru_mafia", RU, "лечу Лису", "Маша", "night3", history=history)
    assert other.status is Status.ACCEPTED
    unknown = _parse("ru_mafia", RU, "лечу Кота", "Маша", "night3", history=None)
    assert unknown.status is Status.AMBIGUOUS and "history" in unknown.reason


def test_corrections_read_forward_and_open_choices_queue() -> None:
    result = _parse("failheap", FAILHEAP, "Protect Dave. Actually, make that Ann.", "Bob", "night3")
    assert [o.render() for o in result.orders] == ["heal Ann"]
    for text in ("heal Dave or the other one? your call, GM", "heal Dave. no wait. Ann?",
                 "heal Dave (up to you)"):  # fmt: skip
        assert _parse("failheap", FAILHEAP, text, "Bob", "night3").status is Status.AMBIGUOUS


def test_a_question_and_a_foreign_line_send_the_pm_to_the_gm() -> None:
    asked = _parse("failheap", FAILHEAP, "no action from me; also, can I vote by PM?", "Bob", "n3")
    assert asked.status is Status.AMBIGUOUS and asked.questions
    foreign = _parse("failheap", FAILHEAP, "check Dave\nheal Bob", "Ann", "night3")
    assert foreign.status is Status.AMBIGUOUS
    assert [c.render() for c in foreign.candidates] == ["check Dave"]


def test_a_pm_over_64_kb_is_queued_unread() -> None:
    text = "heal Dave\n" + "bla " * (MAX_PM_BYTES // 4)
    result = _parse("failheap", FAILHEAP, text, "Bob", "night3")
    assert result.status is Status.AMBIGUOUS and "too long" in result.reason


def test_uses_are_counted_from_the_history_when_not_given() -> None:
    """Shinra saves once a game (seed 003): a second save is refused from the history."""
    players = {"Zoé": "shinra", "Hugo": "izaya", "Manon": "bacula"}
    saved = History(orders=(PastOrder("night1", "Zoé", "save", ("Hugo",)),))
    again = _parse("durarara", players, "je sauve Manon", "Zoé", "night2", history=saved)
    assert again.status is Status.REJECTED and "1" in (again.rule or "")
    first = _parse("durarara", players, "je sauve Manon", "Zoé", "night2")
    assert first.status is Status.ACCEPTED


def test_a_revealed_mayor_cannot_be_healed_or_guarded() -> None:
    """Seed 002: a revealed Mayor 'cannot be protected' (the status's unprotectable kinds);
    found by blind round A (bA-fh03), accepted before."""
    players = {**FAILHEAP, "Mo": {"role": "mayor", "statuses": ["revealed"]}}
    healed = _parse("failheap", players, "Healing Mo tonight", "Bob", "night4")
    assert healed.status is Status.REJECTED and "revealed Mayor" in (healed.rule or "")
    guarded = _parse("failheap", players, "guard Mo", "Dave", "night4")
    assert guarded.status is Status.REJECTED
    hidden = {**FAILHEAP, "Mo": "mayor"}  # not revealed: a heal like any other
    assert _parse("failheap", hidden, "heal Mo", "Bob", "night4").status is Status.ACCEPTED


def test_a_word_joined_to_the_target_by_and_is_never_dropped() -> None:
    """Blind round A (bA-dr06): "je charme toto et lulu" was accepted as one charm, the
    second name (a short form of Lulu_92) silently dropped. It goes to the GM."""
    players = {"Anaïs": "saika", "Toto": "villager", "Lulu_92": "villager"}
    joined = _parse("durarara", players, "je charme toto et lulu cette nuit", "Anaïs", "night2")
    assert joined.status is Status.AMBIGUOUS and "lulu" in joined.reason
    thanks = _parse("durarara", players, "je charme toto cette nuit et merci", "Anaïs", "night2")
    assert thanks.status is Status.ACCEPTED
    english = _parse("failheap", FAILHEAP, "heal Ann and gwen please", "Bob", "night2")
    assert english.status is Status.AMBIGUOUS


THREE_LOVERS = {
    "Élodie": {"role": "ripper", "statuses": ["lover"]},
    "Manon": {"role": "bacula", "statuses": ["lover"]},
    "Léa": {"role": "blue_square", "statuses": ["lover"]},
    "Kévin": {"role": "blue_square"},
    "Lucas": {"role": "taro"},
}
COUPLE = {**THREE_LOVERS, "Léa": {"role": "blue_square"}}  # Élodie and Manon
BLUE_COUPLE = {
    **COUPLE,
    "Élodie": {"role": "ripper"},
    "Léa": {"role": "blue_square", "statuses": ["lover"]},
}  # Léa and Manon; fmt: skip


def _durarara(option: str, players: Mapping[str, object], text: str, actor: str) -> ParseResult:
    ruleset = load_ruleset("durarara", options={"charm_own_lover": option})
    roster: Roster = roster_from_data({"players": players})
    return OrderParser(ruleset).parse(text, roster=roster, actor=actor, phase="night2",
                                      history=History())  # fmt: skip


def test_a_charm_on_one_s_lover_follows_the_charm_own_lover_option() -> None:
    """durarara's ``charm_own_lover``: allowed (default) stands, refused refuses, gm queues;
    a charm on someone else is never touched."""
    text = "je charme Manon cette nuit"
    assert _durarara("allowed", COUPLE, text, "Élodie").status is Status.ACCEPTED
    refused = _durarara("refused", COUPLE, text, "Élodie")
    assert refused.status is Status.REJECTED and "lover" in (refused.rule or "")
    assert _durarara("gm", COUPLE, text, "Élodie").status is Status.AMBIGUOUS
    other = _durarara("refused", COUPLE, "je charme Lucas cette nuit", "Élodie")
    assert other.status is Status.ACCEPTED
    unsure = _durarara("refused", THREE_LOVERS, text, "Élodie")  # three lovers: which pair?
    assert unsure.status is Status.AMBIGUOUS


def test_lovers_may_not_harm_each_other() -> None:
    """An ability tagged ``harms`` (the Blue Squares' victim) on one's lover is refused."""
    harmed = _durarara("allowed", BLUE_COUPLE, "On mange Manon", "Léa")
    assert harmed.status is Status.REJECTED and "lover" in (harmed.rule or ""), harmed.reason
    other = _durarara("allowed", BLUE_COUPLE, "On mange Lucas", "Léa")
    assert other.status is Status.AMBIGUOUS and other.rule is None  # the den's to choose
