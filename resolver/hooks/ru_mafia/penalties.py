"""The host's penalties «+1 в лог» (п.09а late posts, п.15 avatars, п.18 a revealed role).

Each is a ``host_penalty`` order for the penalised player, applied at the day's start so
that it weighs in that day's vote log: a flag ``log:<day>:…`` counts once that day,
``log:perm:…`` every day from then on (:func:`resolver.hooks.ru_mafia.day.vote_extras`).
"""

from __future__ import annotations

from resolver.finalize import kill_dying
from resolver.hooks.ru_mafia.day import after_deaths
from resolver.hookspecs import HookView
from resolver.model.events import EventKind
from resolver.work import Action, Dying, Work


def penalty(action: Action, work: Work) -> None:
    """Apply one host penalty to its actor, the penalised player."""
    reason = str(action.order_params.get("reason", ""))
    {"late_post": _late_post, "no_avatar": _no_avatar, "role_reveal": _role_reveal}[reason](
        action, work
    )
    action.outcome = "done"


def _late_post(action: Action, work: Work) -> None:
    """п.09а: «За первое подобное нарушение выносится предупреждение ... За повторное и
    последующие ... +1 в лог на следующий день» (this day: the post followed the last)."""
    who, flags = action.actor, work.players[action.actor].flags
    if work.ruleset.option("late_posts") == "gm":
        work.gm(EventKind.NOTE, message="late_post", player=who, post=_post(action))
        return
    earlier = sum(1 for f in flags if f.startswith("late_post:"))
    flags.add(f"late_post:{work.phase.id}:{_post(action)}")
    if not earlier:
        work.tell(who, EventKind.NOTE, message="late_post_warning")
        work.gm(EventKind.NOTE, message="late_post_warning", player=who, post=_post(action))
        return
    _log(work, who, work.phase.id, f"late:{_post(action)}")


def _no_avatar(action: Action, work: Work) -> None:
    """п.15: «Наказание - несгораемые +1 в лог за каждый день»."""
    if int(work.ruleset.option("avatar_penalty")):
        _log(work, action.actor, "perm", f"avatar:{work.phase.id}")


def _role_reveal(action: Action, work: Work) -> None:
    """п.18: «+1 в лог на текущий день; перманентный +1 в лог; молния (удаление из игры)»,
    the host's choice (option role_reveal_penalty, or the order's ``penalty``)."""
    chosen = str(action.order_params.get("penalty") or work.ruleset.option("role_reveal_penalty"))
    who = action.actor
    if chosen == "log_today":
        _log(work, who, work.phase.id, f"reveal:{_post(action)}")
    elif chosen == "log_permanent":
        _log(work, who, "perm", f"reveal:{work.phase.id}")
    elif chosen == "lightning":  # out before the vote: his vote and votes on him are void
        work.dying[who] = Dying("lightning", None, "lightning")
        for prim in after_deaths(HookView(work), kill_dying(work)):
            work.apply_primitive(prim)
    else:  # role_reveal_penalty: gm, and the host named none: never guessed
        work.gm(EventKind.NOTE, message="penalty_not_named", player=who, reason="role_reveal")


def _log(work: Work, who: str, when: str, why: str) -> None:
    work.players[who].flags.add(f"log:{when}:{why}")
    work.gm(EventKind.NOTE, message="log_penalty", player=who, when=when, why=why)


def _post(action: Action) -> str:
    return str(action.order_params.get("post", action.index))
