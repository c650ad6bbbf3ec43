"""Issue 11, blind round B's wrong accepts, each as a class: a name near two players, a
team's choice made elsewhere, a faction kill whose holder lives, a status condition, an
order for another phase in the same PM, a mayor's successor in a will."""

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


def _candidates(result: ParseResult) -> set[str]:
    return {o.render() for c in result.candidates for o in c.orders}


def test_a_name_near_two_players_queues_with_both_as_candidates() -> None:
    # "remie": one typo from Rémi, and Rémy sounds the same
    fr = {"Zoé": "shinra", "Rémi": "villager", "Rémy": "villager", "Léa": "blue_square"}
    sounds = _parse("durarara", fr, "je sauve remie cette nuit", "Zoé", "night2")
    assert sounds.status is Status.AMBIGUOUS
    assert "Rémi" in sounds.reason and "Rémy" in sounds.reason
    # "lind": the start of Linda, one letter from Lina
    en = {"Ann": "sheriff", "Lina": "villager", "Linda": "villager", "Vito": "godfather"}
    prefix = _parse("failheap", en, "check lind", "Ann", "night2")
    assert prefix.status is Status.AMBIGUOUS and "Lina" in prefix.reason
    ru = {"Маша": "doctor", "Мира": "villager", "Мирон": "villager", "Лиса": "mafia_boss"}
    assert _parse("ru_mafia", ru, "лечу Миро", "Маша", "night2").status is Status.AMBIGUOUS
    # written past the shorter name, or spelt in full: one player only
    assert _parse("failheap", en, "check Linda", "Ann", "night2").status is Status.ACCEPTED
    assert _parse("ru_mafia", ru, "лечу Мирона", "Маша", "night2").status is Status.ACCEPTED


def test_the_den_s_victim_sent_by_pm_goes_to_the_gm_with_the_reading() -> None:
    players = {"Léa": "blue_square", "Kévin": "blue_square", "Tom": "saki", "Zoé": "shinra"}
    den = _parse("durarara", players, "ce soir on dévore Tom", "Kévin", "night3")
    assert den.status is Status.AMBIGUOUS and "den" in den.reason
    assert "wolf_kill Tom" in _candidates(den)  # the GM accepts it once the den agrees


def test_a_mafia_kill_is_the_godfather_s_while_he_lives() -> None:
    players = {"Nick": "mafioso", "Vito": "godfather", "Carl": "vigilante", "Ann": "sheriff"}
    member = _parse("failheap", players, "hit Carl tonight", "Nick", "night3")
    assert member.status is Status.AMBIGUOUS and "Vito" in member.reason
    assert _parse("failheap", players, "hit Carl tonight", "Vito", "night3").orders
    dead_gf = {**players, "Vito": {"role": "godfather", "alive": False}}
    alone = _parse("failheap", dead_gf, "hit Carl tonight", "Nick", "night3")
    assert [o.render() for o in alone.orders] == ["mafia_kill Carl"]
    assert alone.status is Status.ACCEPTED


def test_an_ability_needing_a_status_is_checked_when_the_roster_tracks_it() -> None:
    text = "Analyze what my night 1 interrogation really said"
    sober = {"Ubel": {"role": "kogoro", "statuses": ["sober"]}, "Quince": "gin"}
    assert _parse("dctp", sober, text, "Ubel", "day2").status is Status.ACCEPTED
    drunk = {"Ubel": {"role": "kogoro", "statuses": ["drunk"]}, "Quince": "gin"}
    refused = _parse("dctp", drunk, text, "Ubel", "day2")
    assert refused.status is Status.REJECTED and "sober" in (refused.rule or "")
    untracked = {"Ubel": "kogoro", "Quince": "gin"}  # neither drunk nor sober shown
    assert _parse("dctp", untracked, text, "Ubel", "day2").status is Status.AMBIGUOUS


MAYOR = {"Noé": {"role": "villager", "statuses": ["mayor"]}, "Hugo": "izaya", "Manon": "bacula"}


def test_a_mayor_s_will_naming_a_successor_is_the_successor_order() -> None:
    text = "Mon testament, au cas où : si je meurs, je désigne Hugo comme successeur."
    named = _parse("durarara", MAYOR, text, "Noé", "night2")
    assert [o.render() for o in named.orders] == ["name_successor Hugo"]
    assert named.status is Status.ACCEPTED
    mixed = "Testament : mon successeur sera Manon. Je sais que Hugo ment."
    assert _parse("durarara", MAYOR, mixed, "Noé", "night2").status is Status.AMBIGUOUS
    plain = _parse("durarara", MAYOR, "Testament : Hugo ment, votez contre lui.", "Noé", "night2")
    assert [o.ability for o in plain.orders] == ["will"]


def test_an_order_for_another_phase_makes_the_pm_queue_even_after_a_cancel() -> None:
    players = {"Zoé": "shinra", "Tom": "saki", "Hugo": "izaya", "Léa": "blue_square"}
    both = "Pour la nuit 4 : je sauve Tom. Ce soir je ne fais rien."
    ahead = _parse("durarara", players, both, "Zoé", "night2")
    assert ahead.status is Status.AMBIGUOUS and "night4" in ahead.reason
    later = _parse("durarara", players, "je sauve Tom la nuit prochaine", "Zoé", "night2")
    assert later.status is Status.AMBIGUOUS
    ru = {"Маша": "doctor", "Кот": "sheriff", "Лиса": "mafia_boss"}
    text = "Завтра ночью лечу Кота. Сегодня ничего не делаю."
    assert _parse("ru_mafia", ru, text, "Маша", "night2").status is Status.AMBIGUOUS
    fixed = _parse("durarara", players, "Je sauve Tom. Non en fait je sauve Hugo.", "Zoé", "night2")
    assert [o.render() for o in fixed.orders] == ["save Hugo"]  # a correction still corrects


def test_ignite_counts_a_douse_the_history_shows_though_the_roster_does_not() -> None:
    players = {"Pyro": "arsonist", "Bob": "doctor", "Ann": "sheriff"}
    doused = History(orders=(PastOrder("night1", "Pyro", "douse", ("Bob",)),))
    assert _parse("failheap", players, "ignite", "Pyro", "night2", doused).orders
    blocked = History(orders=(PastOrder("night1", "Pyro", "douse", ("Bob",), result="blocked"),))
    refused = _parse("failheap", players, "ignite", "Pyro", "night2", blocked)
    assert refused.status is Status.REJECTED


def test_orders_passed_on_for_another_player_go_to_the_gm_not_refused() -> None:
    players = {"Ann": "sheriff", "Bob": "doctor", "Carl": "vigilante", "Vito": "godfather"}
    passed = _parse("failheap", players, "On behalf of Bob: heal Carl tonight", "Ann", "night3")
    assert passed.status is Status.AMBIGUOUS
    ru = {"Кот": "sheriff", "Маша": "doctor", "Лиса": "mafia_boss"}
    relayed = _parse("ru_mafia", ru, "Передаю от Маши: лечу Лису", "Кот", "night2")
    assert relayed.status is Status.AMBIGUOUS


def test_a_team_s_sender_writing_on_behalf_of_the_team_is_not_forwarding() -> None:
    players = {"Vito": "godfather", "Nick": "mafioso", "Carl": "vigilante", "Ann": "sheriff"}
    for text in (
        "Mafia kill: Carl\n(sent on behalf of the team)",
        "hit Carl, au nom de la famille",
    ):
        result = _parse("failheap", players, text, "Vito", "night3")
        assert [o.render() for o in result.orders] == ["mafia_kill Carl"], text
        assert result.status is Status.ACCEPTED, text
    forwarded = _parse("failheap", players, "On behalf of Nick: hit Carl", "Vito", "night3")
    assert forwarded.status is Status.AMBIGUOUS


def test_final_answers_correct_and_a_joke_withdraws_in_three_languages() -> None:
    en = {"Bob": "doctor", "Ann": "sheriff", "Carl": "vigilante", "Vito": "godfather"}
    real = _parse("failheap", en, "heal Carl lol jk. For real tho: heal Ann.", "Bob", "night3")
    assert [o.render() for o in real.orders] == ["heal Ann"]
    assert _parse("failheap", en, "heal Ann jk", "Bob", "night3").status is Status.AMBIGUOUS
    ru = {"Маша": "doctor", "Кот": "sheriff", "Лиса": "mafia_boss"}
    final = _parse("ru_mafia", ru, "Лечу Кота. Нет, стоп. Итог: лечу Лису.", "Маша", "night2")
    assert [o.render() for o in final.orders] == ["heal Лиса"]
    assert _parse("ru_mafia", ru, "лечу Кота, шучу", "Маша", "night2").status is Status.AMBIGUOUS
    fr = {"Zoé": "shinra", "Tom": "saki", "Léa": "blue_square"}
    assert _parse("durarara", fr, "je sauve Tom, je rigole", "Zoé", "night3").orders == ()
