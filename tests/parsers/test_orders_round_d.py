"""Issue 11, blind round D's wrong accepts, each as a class: a PM branching on a condition
only the GM can settle ("if X, A; if not, B"), and a negated remark that someone else has
the action ("not my kill tonight, boss has it") read as a cancel."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from parsers.orders import History, OrderParser, ParseResult, Status
from parsers.roster import roster_from_data
from resolver.ruleset import load_ruleset


@functools.cache
def _parser(name: str) -> OrderParser:
    return OrderParser(load_ruleset(name))


def _parse(ruleset: str, players: Mapping[str, object], text: str, actor: str,
           phase: str = "night3") -> ParseResult:  # fmt: skip
    roster = roster_from_data({"players": players})
    return _parser(ruleset).parse(text, roster=roster, actor=actor, phase=phase, history=History())


def _rendered(result: ParseResult) -> list[str]:
    return [o.render() for o in result.orders]


RU = {"Уна": "nurse", "Глеб": "villager", "Вера": "doctor", "Лев": "mafia_boss"}
DCTP = {"Ines": "chianti", "Otto": "kujou", "Bea": "conan", "Ugo": "megure", "Rex": "vodka",
        "Lou": "gin", "Pim": "ran"}  # fmt: skip


def test_a_pm_branching_on_what_only_the_gm_knows_queues() -> None:
    for text in (
        "Если меня ночью отравили — промываю себе желудок. Если нет — на карантин Глеба.",
        "Если Лев ходил ко мне — промываю желудок себе. Иначе запираю на карантин Глеба.",
    ):
        branched = _parse("ru_mafia", RU, text, "Уна")
        assert branched.status is Status.AMBIGUOUS, text
    # twin: the order alone stays accepted
    alone = _parse("ru_mafia", RU, "Запираю на карантин Глеба.", "Уна")
    assert alone.status is Status.ACCEPTED and _rendered(alone) == ["quarantine Глеб"]


def test_a_branch_in_english_and_french_queues() -> None:
    english = "Discombobulate Bea if Lou kept the kill. Otherwise kill Pim."
    branched = _parse("dctp", DCTP, english, "Rex")
    assert branched.status is Status.AMBIGUOUS and "condition" in branched.reason
    text = "Si on m'a tiré dessus - je me soigne. Sinon - je soigne Max."
    french = _parse("failheap", FH, text, "Ada")
    assert french.status is Status.AMBIGUOUS and "condition" in french.reason
    # twins: the orders without the branch; a condition with no other branch is no branch
    plain = _parse("dctp", DCTP, "Discombobulate Bea tonight.", "Rex")
    assert plain.status is Status.ACCEPTED and _rendered(plain) == ["discombobulate Bea"]
    soigne = _parse("failheap", FH, "Je soigne Max.", "Ada")
    assert soigne.status is Status.ACCEPTED and _rendered(soigne) == ["heal Max"]
    aside = _parse("failheap", FH, "Heal Max. If you need anything else, ask.", "Ada")
    assert aside.status is Status.ACCEPTED and _rendered(aside) == ["heal Max"]


FH = {"Ada": "doctor", "Max": "villager", "Vito": "godfather", "Kim": "framer"}


def test_someone_else_s_kill_is_no_cancel() -> None:
    for text in ("Not my kill this time, someone else is doing it. Discombobulate Bea.",):
        remark = _parse("dctp", DCTP, text, "Rex")
        assert remark.status is Status.ACCEPTED, text
        assert _rendered(remark) == ["discombobulate Bea"], text
    for text in (
        "Ce soir je ne tue pas, c'est pas moi qui tue. Frame Max.",
        "no kill from me tonight, the kill is not mine. Frame Max.",
    ):
        framed = _parse("failheap", FH, text, "Kim")
        assert framed.status is Status.ACCEPTED and _rendered(framed) == ["frame Max"], text
    # next to a kill of the sender's it may take the kill back: the GM reads it
    undo = _parse("dctp", DCTP, "Kill Pim. Not my kill tonight after all, the boss has it.", "Rex")
    assert undo.status is Status.AMBIGUOUS
    # twins: a plain "no kill tonight" and "cancel my kill" stay cancels
    for text in ("No kill tonight. Discombobulate Bea.", "Cancel my kill. Discombobulate Bea."):
        cancel = _parse("dctp", DCTP, text, "Rex")
        assert cancel.status is Status.ACCEPTED and _rendered(cancel)[0] == "cancel kill", text
    plain = _parse("failheap", FH, "Ce soir je ne tue pas. Frame Max.", "Kim")
    assert plain.status is Status.ACCEPTED
    assert _rendered(plain) == ["cancel mafia_kill", "frame Max"]


def test_someone_else_s_kill_after_the_sender_s_own_kill_order_queues() -> None:
    """The remark may take back a kill the sender gave in an earlier PM this night: the GM
    reads it; with no earlier kill it is a remark, and with no history known it queues."""
    from parsers.orders import PastOrder

    roster = roster_from_data({"players": DCTP})
    text = "Not my kill this time, someone else is doing it. Discombobulate Bea."
    earlier = History(orders=(PastOrder("night3", "Rex", "kill", ("Pim",)),))
    undo = _parser("dctp").parse(text, roster=roster, actor="Rex", phase="night3", history=earlier)
    assert undo.status is Status.AMBIGUOUS, undo.reason
    last_night = History(orders=(PastOrder("night2", "Rex", "kill", ("Pim",)),))
    remark = _parser("dctp").parse(text, roster=roster, actor="Rex", phase="night3",
                                   history=last_night)  # fmt: skip
    assert remark.status is Status.ACCEPTED and _rendered(remark) == ["discombobulate Bea"]
    unknown = _parser("dctp").parse(text, roster=roster, actor="Rex", phase="night3")
    assert unknown.status is Status.AMBIGUOUS


def test_or_maybe_is_an_alternative_not_a_correction() -> None:
    """ "Heal X, or maybe Y" leaves the choice open (issue 11, class 4): the GM reads it; it was
    taken as a correction to Y and accepted. "or rather" / "ou plutôt" still correct."""
    for text in ("Heal Max, or maybe Kim.", "Heal Max or maybe Kim, she's probably the target",
                 "Je soigne Max, ou bien Kim."):  # fmt: skip
        open_choice = _parse("failheap", FH, text, "Ada")
        assert open_choice.status is Status.AMBIGUOUS, (text, _rendered(open_choice))
    for text in ("Heal Max, or rather Kim.", "Je soigne Max, ou plutôt Kim."):
        corrected = _parse("failheap", FH, text, "Ada")
        assert corrected.status is Status.ACCEPTED and _rendered(corrected) == ["heal Kim"], text
