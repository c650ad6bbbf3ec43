"""The BO's night kill: who performs it, the sniping styles, protections and their penalties.

Seed 000: "The Leader has the ultimate right to choose a Night kill target and will give the
order. No one can overwrite the Leader's kill order. Other players can also send in the kill
order, in case the Leader does not ... The priority of the orders will be decided by the BO
ranking." Protections: "Bone Breaker > Watch protection > Protect > Heal > First Aid";
Lovey-Dovey protects "against all things that a normal protect would protect against".
"""

from __future__ import annotations

from collections.abc import Sequence

from resolver.hooks.dctp.common import (
    AWAY,
    INJURED,
    JAILED,
    attack,
    bo,
    done,
    fail,
    gm_note,
    has,
    is_player,
    note,
    rank,
    status,
)
from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.catalogue import Effect
from resolver.model.state import Primitive

SNIPES = ("headshot", "quickshot", "longshot", "snipe")
KILLS = ("kill", "bribe", *SNIPES)
UNSTOPPABLE = ("quickshot", "bribe")  # 'the sniper's kill still happens' when tricked/arrested
PRECEDENCE = ("bone", "lovey", "watch", "protect", "heal", "first_aid", "snipe_guard")
HEALS = ("heal", "first_aid")
LONGSHOT_INJURY_ORDER = (("protect",), ("heal",), ("first_aid",))


def leader(view: HookView) -> str | None:
    """The BO Leader (arrested leaders keep the right to give orders)."""
    for name in view.names():
        if view.has_status(name, "leader"):
            return name
    return None


def chosen_kill(view: HookView) -> tuple[int | None, str, str, str] | None:
    """The night's one BO kill: (executing order, killer, victim, ordered ability).

    The Leader's latest kill order wins; else the highest-ranked BO member's own kill order.
    """
    boss = leader(view)
    orders = view.accepted()
    for index, actor, aid, targets in reversed(orders):
        if aid == "order_kill" and actor == boss and len(targets) == 2:
            return index, targets[0], targets[1], "kill"
    own = [
        (rank(view, actor), index or 0, actor, aid, targets)
        for index, actor, aid, targets in orders
        if aid in KILLS and targets and bo(view, actor)
    ]
    if not own:
        return None
    _, index, actor, aid, targets = min(own, key=lambda o: (o[0], -o[1]))
    return index, actor, targets[0], aid


def style_of(view: HookView, killer: str, ordered: str) -> str:
    """'Snipers will always use Headshot when they are able to'; injured: a plain kill."""
    if has(view, killer, *INJURED):
        return "kill"
    if ordered in SNIPES or ordered == "bribe":
        return ordered
    for snipe in SNIPES:
        if snipe in view.role(killer).abilities:
            return snipe
    return "kill"


def kill(view: HookView, action: ActionView) -> Handled:
    """A BO member's own kill order (Kill, a snipe or Bribe)."""
    chosen = chosen_kill(view)
    if chosen is None or chosen[0] != action.index:
        return fail("another kill was chosen (the Leader's order or a higher rank)")
    return perform(
        view, action.actor, action.targets[0], style_of(view, action.actor, action.ability.id)
    )


def order_kill(view: HookView, action: ActionView) -> Handled:
    """The Leader's kill order: 'They may force any member of the BO to kill anyone else'."""
    if not view.has_status(action.actor, "leader"):
        return fail("only the Leader gives kill orders")
    killer, victim = action.targets[0], action.targets[1]
    if not is_player(view, killer) or not bo(view, killer):
        return fail("the killer must be a BO member")
    chosen = chosen_kill(view)
    if chosen is None or chosen[0] != action.index:
        return fail("a later kill order replaces it")
    return perform(view, killer, victim, style_of(view, killer, "kill"))


def perform(view: HookView, killer: str, victim: str, style: str) -> Handled:
    """Carry out the kill: the killer's state, then the victim's protections."""
    if not view.alive(killer) or view.dying(killer):
        return fail("the killer is dead")
    stopped = view.blocked(killer) or has(view, killer, *JAILED)
    if stopped and style not in UNSTOPPABLE:
        return fail("the killer was discombobulated or arrested")
    if not is_player(view, victim) or not view.alive(victim):
        return fail("no living victim")
    turn = _rotation(view, killer)
    if turn is not None and turn.outcome != "done":
        return turn
    extra: list[Primitive] = list(turn.primitives) if turn is not None else []
    if stopped:
        extra.append(note([killer], "kill_despite_hindrance"))
    if has(view, victim, *JAILED, *AWAY):
        return done(*extra, note([killer], "kill_failed", target=victim))
    return done(*extra, *_against(view, killer, victim, style))


def rotation_breach(view: HookView, killer: str) -> list[str]:
    """'Each mafia member must attempt a Night murder before any mafia member gets a second
    turn to kill (unless exceptions apply)': the free BO members (alive, not in jail, in
    Japan) who have killed fewer times than ``killer``; empty when the turn is his."""
    counts = {n: 0 for n in view.names() if bo(view, n)}
    for e in view.ledger():
        if e.phase == view.phase or e.outcome != "done":
            continue
        who = e.targets[0] if e.ability == "order_kill" and e.targets else e.actor
        if (e.ability in KILLS or e.ability == "order_kill") and who in counts:
            counts[who] += 1
    mine = counts.get(killer, 0)
    return [n for n, c in counts.items() if c < mine and not has(view, n, *JAILED, *AWAY)]


def _rotation(view: HookView, killer: str) -> Handled | None:
    """Option ``night_kill_required``: ``rotation`` refuses a kill out of turn (the GM
    grants an exception by switching the option for the game), ``rotation_note`` only
    flags it to the GM, ``free`` ignores the rule."""
    rule = view.option("night_kill_required")
    waiting = rotation_breach(view, killer) if rule in ("rotation", "rotation_note") else []
    if not waiting:
        return None
    flagged = gm_note("kill_rotation", killer=killer, waiting=waiting, refused=rule == "rotation")
    if rule == "rotation_note":
        return done(flagged)
    why = f"kill rotation: {killer} killed before while {', '.join(waiting)} has not"
    return fail(why, flagged, note([killer], "kill_rotation_refused", waiting=len(waiting)))


def _against(view: HookView, killer: str, victim: str, style: str) -> list[Primitive]:
    prots = sorted(
        view.protections(victim),
        key=lambda p: PRECEDENCE.index(p[0]) if p[0] in PRECEDENCE else len(PRECEDENCE),
    )
    if style == "longshot":
        return _longshot(view, killer, victim, prots)
    for kind, by in prots:
        if style in ("headshot", "quickshot", "snipe") and kind in HEALS:
            continue  # 'Headshot will bypass healing (Heal or First Aid)'
        only_snipes = view.option("snipe_guard") == "protects_from_snipes"
        if kind == "snipe_guard" and style not in SNIPES and only_snipes:
            continue
        return _saved(view, killer, victim, style, kind, by)
    return _dies(view, killer, victim, style)


def _saved(
    view: HookView, killer: str, victim: str, style: str, kind: str, by: str
) -> list[Primitive]:
    out = [note([killer], "target_protected", target=victim)]
    if kind == "lovey":  # 'the protector does not die/become injured/travel/etc'
        return [*out, note([victim], "saved"), *_lovey_cooldown(view, victim, by)]
    if kind == "watch":
        out.append(note([victim], "saved_by_watch"))
        if style in ("headshot", "snipe"):  # 'the watch will be destroyed'
            out += _shatter_watch(view, victim)
        return out
    if kind == "protect":
        if style in ("headshot", "snipe"):  # 'the protector will be killed instead'
            return [*out, attack(killer, by, style, ("protection",)), note([victim], "saved")]
        if style == "quickshot":  # 'the protector acts as if they protected the target'
            return [*out, note([victim, by], "saved_no_identity"), *_penalty(view, by)]
        return [
            *out,
            note([victim, by], "saved_attacker_seen", attacker=killer),
            *_penalty(view, by),
        ]
    if kind == "bone":
        return [*out, note([victim], "saved"), *injure(view, by, killer)]
    return [*out, note([victim], "saved_healed"), note([by], "healed_from_attack", target=victim)]


def _lovey_cooldown(view: HookView, victim: str, by: str) -> list[Primitive]:
    """'If it successfully hinders a lynching, killing, sniping, or poisoning, the lovers lose
    this ability for 2 phases'."""
    return [status(None, n, "lovey_cooldown", 3) for n in (victim, by)]


def _shatter_watch(view: HookView, holder: str) -> list[Primitive]:
    lenders = [
        e.actor
        for e in view.ledger()
        if e.ability == "tranquilizer_watch" and e.targets[:1] == (holder,)
    ]
    return [status(None, lenders[-1], "watch_shattered")] if lenders else []


def _penalty(view: HookView, protector: str) -> list[Primitive]:
    """Ran: temporarily injured 3 phases and no more protecting; Makoto flies out of Japan;
    Anokata protecting through Chameleon: no penalty (the seed names Ran's and Makoto's)."""
    abilities = view.role(protector).abilities
    if "protect" not in abilities and "chameleon" in abilities:
        return []
    if "travel" in abilities:  # Makoto
        return [status(None, protector, "on_plane", 2), status(None, protector, "abroad")]
    return [
        status(None, protector, "temporarily_injured", 3),
        status(None, protector, "ever_injured"),
        status(None, protector, "protect_lost"),
    ]


def _longshot(
    view: HookView, killer: str, victim: str, prots: Sequence[tuple[str, str]]
) -> list[Primitive]:
    """'Longshot will bypass both healing ... and Protect ...'; one protector gets injured."""
    out = _dies(view, killer, victim, "longshot")
    for kinds in LONGSHOT_INJURY_ORDER:
        who = [by for kind, by in prots if kind in kinds]
        if who:
            pick = who[0] if len(who) == 1 else view.draw(f"longshot_injury:{victim}", who)
            out += [status(killer, pick, "injured", view.option("injury_length")),
                    status(None, pick, "ever_injured")]  # fmt: skip
            break
    return out


def _dies(view: HookView, killer: str, victim: str, style: str) -> list[Primitive]:
    out = [attack(killer, victim, style, ("protection",))]
    if "vengeance" in view.role(victim).abilities and not view.has_status(victim, "frightened"):
        out += injure(view, victim, killer)  # 'he will injure his attacker before he dies'
    if "erase_body" in view.role(killer).abilities and view.uses(killer, "erase_body") == 0:
        out.append(  # 'When Pisco successfully kills someone, his Erase Body is recharged'
            Primitive(Effect.COUNTER, None, (killer,), {"ability": "erase_body", "set": 1})
        )
    return out


def injure(view: HookView, source: str, target: str) -> list[Primitive]:
    """Injure a player for the option's length and remember it (Insult to Injury)."""
    return [
        status(source, target, "injured", view.option("injury_length")),
        status(None, target, "ever_injured"),
    ]
