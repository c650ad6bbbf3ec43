"""Detective Conan (DCTP) hooks: every ability's handler, the conditions that gate them, the
Leader and the Black Suitcase, lovers, jail terms, and the end of the game.

Every DCTP ability is ``effect: hook`` with ``effect_params.handler`` naming a function of
``HANDLERS``. ``guarded`` applies the seed's conditions before any handler runs:

- "Abroad: ... Any actions used on him will fail ... can't ... use any ability themselves";
- "Injured: An injured player can not use any abilities ... The only exception is the nightly
  killing action from BO members ... and Revenge ... Injured players may use gadgets";
- "Suspended: ... the police will lose all Ability except for Voting";
- "Arrested: An arrested player can't use any abilities ... Any actions, except those that
  release them from prison ... will fail";
- "The Frightened player can't use their ability or vote the next day" (not Arrest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from resolver.hooks.dctp import actions, day, info, kills, police
from resolver.hooks.dctp.common import (
    AWAY,
    INJURED,
    JAILED,
    WILL,
    attack,
    block,
    bo,
    current_disguise,
    fail,
    has,
    is_player,
    item,
    lover_of,
    note,
    public,
    rank,
    status,
    unlink_all,
    unstatus,
    will_of,
)
from resolver.hooks.dctp.endgame import check_win
from resolver.hookspecs import ActionView, Handled, Handler, HookView
from resolver.model.state import LedgerEntry, Primitive

PREP_ONLY = ("amor", "friendship", "disguise")
ITEM_ABILITIES = ("suitcase_investigate", "fake_action", "bribe")
RELEASES = ("release", "lawsuit")
NOT_FRIGHTENABLE = ("arrest", "hold", "sabotage")
INJURED_MAY = ("kill", "order_kill", "revenge", *ITEM_ABILITIES)
SUSPENDED_MAY = ITEM_ABILITIES


def _actor_refusal(view: HookView, action: ActionView) -> str:
    me, aid = action.actor, action.ability.id
    if has(view, me, *AWAY) and aid != "travel":
        return "not in Japan: only Travel"
    if aid == "order_kill":  # an arrested Leader keeps the right to give orders
        return ""
    if has(view, me, *JAILED):
        return "in jail: no abilities"
    if has(view, me, *INJURED) and aid not in INJURED_MAY and not _gadget(view, action):
        return "injured: no abilities"
    if view.has_status(me, "suspended") and aid not in SUSPENDED_MAY and not _gadget(view, action):
        return "suspended: no abilities"
    frightenable = aid not in NOT_FRIGHTENABLE and aid not in info.DB_ABILITIES  # DBs: odds
    if view.kind() == "day" and view.has_status(me, "frightened") and frightenable:
        return "frightened: no day actions"
    if view.has_status(me, "clumsy") and aid in ("reinvestigate", "arrest", "detention"):
        return "only when not clumsy"
    if aid == "hold" and view.has_status(me, "hold_lost"):
        return "Hold was lost for the game"
    if aid == "house_search" and view.has_status(me, "house_search_lost"):
        return "House Search was lost for the game"
    if aid in PREP_ONLY and view.phase != "night1":
        return "a preparation-phase action (ordered for Night 1)"
    if _holding(view, me):
        return "the officer cannot use any actions while Holding a target"
    paperwork = view.has_status(me, "paperwork") or (
        view.kind() == "night" and view.has_status(me, "paperwork_night")
    )
    if paperwork and aid != "detention":
        return "the detainer is unable to perform any actions other than Detain"
    return _exclusive(view, action)


def _gadget(view: HookView, action: ActionView) -> bool:
    """An ability the player has only through a lent gadget (bow-tie)."""
    return view.items(action.actor).get("bow_tie", 0) > 0 and action.ability.id in (
        "interrogate",
        "investigate",
    )


def _holding(view: HookView, officer: str) -> bool:
    return any(
        s.id == "held" and s.source == officer for n in view.names() for s in view.statuses(n)
    )


def _exclusive(view: HookView, action: ActionView) -> str:
    """'Action A OR Action B -> Can just use one of it, not both at the same night'."""
    others = tuple(action.params.get("exclusive_with", ()))
    if not others:
        return ""
    for e in reversed(view.ledger()):  # this phase's entries are the last ones
        if e.phase != view.phase:
            break
        if e.actor == action.actor and e.ability in others:
            return f"{action.ability.id} or {e.ability}, not both"
    return ""


def _target_refusal(view: HookView, action: ActionView) -> tuple[str, tuple[Primitive, ...]]:
    if action.ability.id == "order_kill":  # its players are the killer and the victim
        return "", ()
    slots = action.ability.targets
    for value, slot in zip(action.targets, slots, strict=False):
        if slot.kind != "player" or not is_player(view, value):
            continue
        if has(view, value, *JAILED) and action.ability.id not in RELEASES:
            return "the target is in jail", ()
        if has(view, value, *AWAY) and value != action.actor:
            if "info" in action.ability.tags:
                return "", ()  # investigations of a traveller read false (the handler)
            # 'Any other actions taken on traveling travelers will discombobulate the user'
            return "the target is not in Japan", (block(value, action.actor),)
    return "", ()


def guarded(handler: Handler) -> Handler:
    """The seed's conditions on the actor and targets, then the handler."""

    def run(view: HookView, action: ActionView) -> Handled:
        refused = _actor_refusal(view, action)
        if refused:
            return fail(refused)
        refused, prims = _target_refusal(view, action)
        if refused:
            return fail(refused, *prims)
        return handler(view, action)

    run.__doc__ = handler.__doc__
    return run


_PLAIN: dict[str, Handler] = {
    "arrest": police.arrest,
    "hold": police.hold,
    "detention": police.detention,
    "release": police.release,
    "lawsuit": police.lawsuit,
    "house_search": police.house_search,
    "cross_examine": police.cross_examine,
    "kill": kills.kill,
    "order_kill": kills.order_kill,
    "investigate": info.investigate,
    "special_investigate": info.special_investigate,
    "db_investigate": info.db_investigate,
    "reinvestigate": info.reinvestigate,
    "interrogate": info.interrogate,
    "analyze": info.analyze,
    "detect": info.detect,
    "db_detect": info.db_detect,
    "identify": info.identify,
    "observe": info.observe,
    "stake_out": info.stake_out,
    "follow": info.follow,
    "pry": info.pry,
    "deduction": info.deduction,
    "spy": info.spy,
    "collect_sample": info.collect_sample,
    "experiment": info.experiment,
    "mad_science": info.mad_science,
    "research": info.research,
    "abduct": info.abduct,
    "pinch_face": info.pinch_face,
    "discombobulate": actions.discombobulate,
    "heavy_handed": actions.heavy_handed,
    "frighten": actions.frighten,
    "insult_to_injury": actions.insult_to_injury,
    "slander": actions.slander,
    "frame": actions.frame,
    "disguise": actions.disguise,
    "choose_costumes": actions.choose_costumes,
    "grab_costume": actions.grab_costume,
    "temporary_disguise": actions.temporary_disguise,
    "amor": actions.amor,
    "friendship": actions.friendship,
    "travel": actions.travel,
    "protect": actions.protect,
    "lovey_dovey": actions.lovey_dovey,
    "heal": actions.heal,
    "first_aid": actions.first_aid,
    "snipe_guard": actions.snipe_guard,
    "bone_breaking": actions.bone_breaking,
    "steal": actions.steal,
    "peek": actions.peek,
    "erase_body": actions.erase_body,
    "erase_evidence": actions.erase_evidence,
    "cloak_of_deception": actions.cloak_of_deception,
    "master_of_disguise": actions.master_of_disguise,
    "chameleon": actions.chameleon,
    "fake_action": actions.fake_action,
    "hand_suitcase": actions.hand_suitcase,
    "bow_tie": actions.bow_tie,
    "tranquilizer_watch": actions.tranquilizer_watch,
    "leader_vote": actions.leader_vote,
    "cover": actions.cover,
    "backup": actions.backup,
    "sabotage": actions.sabotage,
    "confuse": actions.confuse,
    "hinder": actions.hinder,
    "passive": actions.passive,
    "aptx": day.aptx,
    "protection_charm": day.protection_charm,
    "safeguard": day.safeguard,
    "accompany": day.accompany,
    "voice_of_reason": day.voice_of_reason,
    "voice_of_accusation": day.voice_of_accusation,
}

HANDLERS: dict[str, Handler] = {name: guarded(h) for name, h in _PLAIN.items()}
HANDLERS["will"] = actions.will  # a will is no action: no condition stops the PM
"""Handler name (``effect_params.handler``) → the guarded handler."""


def on_game_start(view: HookView) -> Sequence[Primitive]:
    """The BO's capsules; the default Leader (the highest rank); Kir's BO count; James's
    subordinates."""
    members = [n for n in view.names() if bo(view, n)]
    out = [item(n, day.CAPSULE, int(view.option("aptx_capsules"))) for n in members]
    if members and not any(view.has_status(n, "leader") for n in members):
        out.append(status(None, min(members, key=lambda n: rank(view, n)), "leader"))
    for n in view.names():
        if view.has_status(n, "noc"):
            out.append(note([n], "bo_count", count=len(members)))
        if view.has_status(n, "fbi_leader"):
            subs = [m for m in view.names() if view.role(m).id in ("jodie", "akai", "camel", "kir")]
            out.append(note([n], "subordinates", count=len(subs)))
    return out


def grants(view: HookView) -> Mapping[str, tuple[str, ...]]:
    """Lovers' Lovey-Dovey; the suitcase holder's Bribe and Fake action; the bow-tie's
    Interrogate and Investigate; every DB ability to each Detective Boy; a disguise's
    abilities; Sonoko's friend's abilities."""
    out: dict[str, tuple[str, ...]] = {}
    for name in view.names():
        extra: list[str] = [WILL]  # 'Every player can PM a "Will" to the GM'
        if lover_of(view, name):
            extra.append("lovey_dovey")
        if view.items(name).get("black_suitcase", 0) > 0:
            extra += ["bribe", "fake_action"]
        if view.items(name).get("bow_tie", 0) > 0:
            extra += ["interrogate", "investigate"]
        if view.has_status(name, "detective_boy"):  # 'they have to come to a consensus as a
            extra += list(info.DB_ABILITIES)  # group as to what ability to use'
        extra += _borrowed_roles(view, name) + _variants(view, name)
        out[name] = tuple(dict.fromkeys(extra))
    return out


def _variants(view: HookView, name: str) -> list[str]:
    """Seed 001's abilities a game switches on (``option: variant_sabotage, roles: [...]``),
    and Eri's Night 1 Interrogate (``variant_eri_interrogate``)."""
    role = view.role(name).id
    out = []
    for ability in view.ruleset.abilities.values():
        option = ability.effect_params.get("option")
        roles = ability.effect_params.get("roles", ())
        if option and str(option).startswith("variant_") and role in roles and view.option(option):
            out.append(ability.id)
    if role == "eri" and view.option("variant_eri_interrogate") and view.phase == "night1":
        out.append("interrogate")
    return out


def _borrowed_roles(view: HookView, name: str) -> list[str]:

    out: list[str] = []
    disguise = current_disguise(view, name)
    if disguise and not has(view, name, *INJURED):
        out += list(view.ruleset.roles[disguise].abilities)
    if view.role(name).id == "sonoko":
        for lk in view.links("friend"):
            if lk.a == name and view.alive(lk.b):
                barred = {"steal", "detention", "arrest", "house_search", "hold"}
                out += [a for a in view.role(lk.b).abilities if a not in barred]
    return [a for a in out if a not in ("disguise",)]


def on_phase_start(view: HookView) -> Sequence[Primitive]:
    """Night: the suitcase to its holder, tonight's costumes on, the watch protects."""
    if view.kind() != "night":
        return ()
    out: list[Primitive] = []
    for lk in view.links("costume_next"):
        out += [*actions.wear(view, lk.a, lk.b, view.phase)[:1], unlink_all(lk.a, "costume_next")]
    out += _suitcase(view)
    for name in view.names():
        if view.items(name).get("tranquilizer_watch", 0) > 0:
            out.append(Primitive("protect", name, (name,), {"kind": "watch"}, "watch"))
    return out


def _suitcase(view: HookView) -> list[Primitive]:
    """'In the case that the intended recipient is arrested, killed, or is otherwise unable to
    receive the item, the suitcase will go to the next eligible player. If nobody is sent the
    suitcase, the Leader gets it for the night.'"""
    boss = kills.leader(view)
    if boss is None:
        return []
    named = [lk.b for lk in view.links("suitcase_next")]
    eligible = [
        n
        for n in named
        if is_player(view, n) and view.alive(n) and not has(view, n, *JAILED, *AWAY)
    ]
    holder = eligible[0] if eligible else boss
    return [item(holder, "black_suitcase", 1), unlink_all(boss, "suitcase_next")] + [
        unlink_all(lk.a, "suitcase_next") for lk in view.links("suitcase_next") if lk.a != boss
    ]


def on_phase_end(view: HookView) -> Sequence[Primitive]:
    """Gadgets and the suitcase go back; temporary disguises come off; jail terms end with the
    jailer; leadership moves; Kogoro sobers; Kir's Betrayal and Sonoko's Gossip."""
    out: list[Primitive] = []
    if view.kind() == "night":
        for name in view.names(alive=None):
            for gadget in ("bow_tie", "tranquilizer_watch", "black_suitcase"):
                if view.items(name).get(gadget, 0) > 0:
                    out.append(item(name, gadget, -view.items(name)[gadget]))
            if view.role(name).id in ("yukiko", "irish"):
                out.append(unlink_all(name, "disguise"))
        betrayals = _betrayal(view)
        out += [note([kir], "betrayal", **seen) for kir, seen in betrayals.items()]
        out += _gossip(view) + info.fbi_reports(view, betrayals) + info.fbi_hint(view)
    else:
        out += day.lynch_safeguards(view)
    out += _jail_terms(view) + _leadership(view) + actions.sober_check(view)
    return out + _clumsiness(view)


def _clumsiness(view: HookView) -> list[Primitive]:
    """Option ``yamamura_clumsy_ends``: the seed never says (``gm``: the GM lifts it)."""
    if view.option("yamamura_clumsy_ends") != "after_first_death":
        return []
    if not view.names(alive=False):
        return []
    return [unstatus(n, "clumsy") for n in view.names() if view.has_status(n, "clumsy")]


def _jail_terms(view: HookView) -> list[Primitive]:
    """'The player will be released automatically ... if the detainer dies or is injured';
    'If the holding officer is killed or arrested, the held player is released'."""
    out: list[Primitive] = []
    for name in view.names():
        for s in view.statuses(name):
            jailer = s.source
            if s.id not in ("detained", "held") or not jailer or not is_player(view, jailer):
                continue
            gone = not view.alive(jailer) or view.dying(jailer) is not None
            borrowed = "detention" not in view.role(jailer).abilities  # a disguise's: 'if Irish
            # detains someone, they will be arrested at the beginning of the phase but released
            # at the end of the phase automatically'
            if s.id == "detained" and (gone or borrowed or has(view, jailer, *INJURED)):
                out += [unstatus(name, s.id), public("released")]
            if s.id == "held" and (gone or has(view, jailer, *JAILED)):
                out += [unstatus(name, s.id), public("released")]
    return out


def _leadership(view: HookView) -> list[Primitive]:
    """Elections ('50%+ of the BO vote', effective the next phase), else the next rank when
    the Leader dies."""
    members = [n for n in view.names() if bo(view, n)]
    boss = next((n for n in view.names(alive=None) if view.has_status(n, "leader")), None)
    votes: dict[str, str] = {}
    for e in view.ledger():
        if (
            e.phase == view.phase
            and e.ability == "leader_vote"
            and e.outcome == "done"
            and e.targets
        ):
            votes[e.actor] = e.targets[0]
    for candidate in dict.fromkeys(votes.values()):
        count = sum(1 for v in votes.values() if v == candidate)
        if candidate in members and count * 2 > len(members) and candidate != boss:
            out = [unstatus(boss, "leader")] if boss else []
            return [
                *out,
                status(None, candidate, "leader"),
                note(members, "new_leader", leader=candidate),
            ]
    if boss is not None and (not view.alive(boss) or view.dying(boss)) and members:
        heirs = [n for n in members if n != boss and not view.dying(n)]
        if heirs:
            heir = min(heirs, key=lambda n: rank(view, n))
            return [
                unstatus(boss, "leader"),
                status(None, heir, "leader"),
                note(heirs, "new_leader", leader=heir),
            ]
    return []


def _betrayal(view: HookView) -> dict[str, dict[str, str]]:
    """Kir learns one random BO activity of the night (named by role in seed 000); an Erase
    tells her the erased role and gives her the will ('Erase: Pisco erased someone. Will get to
    know the identity of the role that was erased and will be also given the Will')."""
    out: dict[str, dict[str, str]] = {}
    hidden = {"cover", "backup", "fake_action", "frame", "hand_suitcase", "bribe", "order_kill",
              WILL, *DISGUISING}  # fmt: skip
    for kir in view.names():
        if "betrayal" not in view.role(kir).abilities or has(view, kir, *JAILED, *AWAY, *INJURED):
            continue
        seen = [
            e for e in view.ledger()
            if e.phase == view.phase and e.outcome == "done" and is_player(view, e.actor)
            and bo(view, e.actor) and e.ability not in hidden and not _disguised_act(view, e)
        ]  # fmt: skip
        if not seen:
            continue
        e = seen[int(view.draw(f"betrayal:{kir}", [str(i) for i in range(len(seen))]))]
        named = view.role(e.actor).id if view.option("betrayal_style") == "seed000_named" else "bo"
        out[kir] = {"role": named, "ability": e.ability}
        if e.ability == "erase_body" and e.targets and is_player(view, e.targets[0]):
            out[kir]["erased"] = view.role(e.targets[0]).id
            out[kir]["will"] = will_of(view, e.targets[0]) or ""
    return out


DISGUISING = ("disguise", "choose_costumes", "temporary_disguise", "grab_costume")


def _disguised_act(view: HookView, e: LedgerEntry) -> bool:
    """'Disguised abilities: DOESN'T get to know what Irish or Vermouth did with their
    disguise': an ability the actor has only through his disguise."""
    disguise = current_disguise(view, e.actor)
    if disguise is None:
        return False
    own = view.role(e.actor).abilities
    return e.ability not in own and e.ability in view.ruleset.roles[disguise].abilities


def _gossip(view: HookView) -> list[Primitive]:
    """Once her BFF is dead, Sonoko learns one random town action of the night (role only)."""
    out: list[Primitive] = []
    for sonoko in view.names():
        friends = [lk.b for lk in view.links("friend") if lk.a == sonoko]
        if view.role(sonoko).id != "sonoko" or not friends or view.alive(friends[0]):
            continue
        seen = [
            (e.actor, e.ability)
            for e in view.ledger()
            if e.phase == view.phase and e.outcome == "done" and is_player(view, e.actor)
            and not bo(view, e.actor) and e.actor != sonoko and e.ability != WILL
        ]  # fmt: skip
        if seen:
            actor, aid = seen[
                int(view.draw(f"gossip:{sonoko}", [str(i) for i in range(len(seen))]))
            ]
            out.append(note([sonoko], "gossip", role=view.role(actor).id, ability=aid))
    return out


def after_deaths(view: HookView, deaths: Mapping[str, str]) -> Sequence[Primitive]:
    """'When one lover dies, the other dies too by suicide in the same phase. No one can heal,
    protect or prevent the death of the suicidal lover.' The dead's wills (``actions.wills``)."""
    out: list[Primitive] = actions.wills(view, tuple(deaths))
    for dead in deaths:
        lover = lover_of(view, dead)
        if lover and view.alive(lover) and view.dying(lover) is None:
            out.append(attack(None, lover, "suicide", ("immunity", "protection")))
    return out


def on_lynch(view: HookView, lynched: str, voters: tuple[str, ...]) -> Sequence[Primitive]:
    """Akai's Vengeance kills the player he voted for; a sniper's Revenge injures him; the
    notices of a decisive Voice of Accusation or Sabotage."""
    notices = day.lynch_notices(view, lynched)
    target = view.votes().get(lynched)
    if not target or not is_player(view, target) or not view.alive(target):
        return notices
    abilities = view.role(lynched).abilities
    if "vengeance" in abilities and not view.has_status(lynched, "frightened"):
        return [*notices, attack(lynched, target, "vengeance", ("protection",))]
    if "revenge" in abilities:
        return notices + kills.injure(view, lynched, target)
    return notices


adjust_tally = day.adjust_tally

__all__ = [
    "HANDLERS",
    "adjust_tally",
    "after_deaths",
    "check_win",
    "grants",
    "on_game_start",
    "on_lynch",
    "on_phase_end",
    "on_phase_start",
]
