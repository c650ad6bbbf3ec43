"""Russian forum mafia (seed 004) hooks: the moves data cannot say, as hook effects.

``EFFECTS`` maps the ``handler`` named by each ability of ``ru_mafia.yaml`` to its effect;
``STEP_END`` settles what a step leaves for later (stake hunts, item uses waiting for their
step, the watchers once every hostile move is known, deaths from poison, the morning).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from resolver.hooks.ru_mafia import attacks, clans, items, moves, observe, penalties
from resolver.hooks.ru_mafia.day import (
    adjust_votes,
    after_deaths,
    check_win,
    day_start,
    on_lynch,
    record_ties,
    vote_extras,
)
from resolver.hooks.ru_mafia.morning import morning, poison_deaths
from resolver.hookspecs import HookView
from resolver.model.catalogue import Effect
from resolver.model.state import Primitive
from resolver.work import Action, Work

__all__ = [
    "EFFECTS",
    "STEP_END",
    "adjust_votes",
    "after_deaths",
    "check_win",
    "grants",
    "on_game_start",
    "on_lynch",
    "vote_extras",
]

EFFECTS: dict[str, Callable[[Action, Work], None]] = {
    "attack": attacks.attack_move,
    "silver_shot": attacks.silver_shot,
    "absorb": attacks.absorb,
    "stake_hunt": attacks.stake_hunt,
    "clonidine": attacks.clonidine,
    "horseman": attacks.horseman,
    "search": moves.search,
    "block": moves.block,
    "lose_vote": moves.lose_vote,
    "vote_plan": moves.vote_plan,
    "suggest_target": moves.suggest_target,
    "heal": moves.heal,
    "stomach_pump": moves.stomach_pump,
    "bless": moves.bless,
    "guard": moves.guard,
    "trip": moves.trip,
    "charge": moves.charge,
    "stay_home": moves.stay_home,
    "make_item": moves.make_item,
    "share_result": moves.share_result,
    "blood_test": observe.blood_test,
    "interrogate": observe.interrogate,
    "confess": observe.confess,
    "shadow": observe.shadow,
    "executioner": observe.executioner,
    "villager_watch": observe.villager_watch,
    "check_sin": observe.check_sin,
    "check_jailed": observe.check_jailed,
    "release_jailed": observe.release_jailed,
    "reanimate": observe.reanimate,
    "recruit": clans.recruit,
    "answer_recruitment": clans.answer_recruitment,
    "use_item": items.use_item,
    "gift": items.gift,
    "penalty": penalties.penalty,
}
"""Handler name (``effect_params.handler``) → the move's effect."""


def _after(*steps: Callable[[Work], None]) -> Callable[[Work], None]:
    def run(work: Work) -> None:
        items.run_deferred(work)
        for step in steps:
            step(work)

    return run


STEP_END: dict[str, Callable[[Work], None]] = {
    "diplomas": _after(),
    "vodka": _after(),
    "cards": _after(),
    "rebel_shot": _after(),
    "mafia_shot": _after(),
    "cops_shot": _after(),
    "stake_hunt": _after(attacks.settle_stakes),
    "headless_horseman": _after(observe.settle_watches),
    "poison_deaths": _after(poison_deaths),
    "reanimator": _after(morning),
    "day_start": day_start,
    "vote": record_ties,
}
"""Step → what settles after its actions."""


def on_game_start(view: HookView) -> Sequence[Primitive]:
    """Roles stay secret on death (п.16); the cops know each other; each Villager gets a
    random gift from the Fairy's list (option villager_gifts)."""
    out = [
        Primitive(Effect.STATUS, None, (n,), {"status": "role_secret"}, "role_secret")
        for n in view.names()
    ]
    cops = [n for n in view.names() if "cops_clan" in view.role(n).tags]
    for cop in cops:
        others = [c for c in cops if c != cop]
        if others:
            out.append(
                Primitive(
                    Effect.NOTIFY, None, (cop,), {"message": "cops", "members": others}, "cops"
                )
            )
    if view.option("villager_gifts") == "random":
        gifts = list(view.ruleset.abilities["gift"].effect_params.get("gift_list", ()))
        for n in view.names():
            if view.role(n).id == "villager":
                item = view.draw(f"villager_gift:{n}", gifts)
                out.append(
                    Primitive(Effect.ITEM, None, (n,), {"item": item, "delta": 1}, "villager_gift")
                )
    return out


def grants(view: HookView) -> Mapping[str, tuple[str, ...]]:
    """The host's penalties are recorded for the penalised player (no role has them, so
    no player's PM can give one)."""
    return {n: ("host_penalty",) for n in view.names()}
