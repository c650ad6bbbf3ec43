"""Night and day actions that change the game: tricks, fear, slander, disguises, protection,
theft, erasing, the Black Suitcase, Agasa's gadgets, the lovers and the prep phase."""

from __future__ import annotations

from collections.abc import Sequence

from resolver.hooks.dctp.common import (
    AWAY,
    INJURED,
    JAILED,
    block,
    bo,
    current_disguise,
    done,
    entries,
    fail,
    has,
    is_player,
    item,
    link,
    lover_of,
    note,
    parse_crime,
    protection,
    result,
    status,
    unstatus,
)
from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.catalogue import Effect, Ruleset
from resolver.model.state import Primitive

STEALABLE = ("gun", "car_keys", "headgear", "alcohol", "panties", "glasses", "school_book")
CHILD = "child"


def discombobulate(view: HookView, action: ActionView) -> Handled:
    """'People that were discombobulated will fail with their night action on the same night';
    only those who used a night action are told. 'In case the Discombobulator was
    discombobulated, they'll get the message: Your action failed' (tricks of one step too)."""
    target = action.targets[0]
    if tricked(view, action.actor):
        return fail(
            "the discombobulator was discombobulated", note([action.actor], "action_failed")
        )
    if _killers_target(view, action.actor, target):
        return fail("the trickster is the killer's target")

    def later(v: HookView) -> Sequence[Primitive]:
        acted = any(actor == target for _, actor, _, _ in v.accepted())
        return [note([target], "discombobulated")] if acted else []

    return Handled(
        "done",
        "",
        (
            block(action.actor, target),
            note([action.actor], "discombobulated_target", target=target),
        ),
        later,
    )


def _killers_target(view: HookView, trickster: str, target: str) -> bool:
    """'If the trickster is also the person the killer is targeting that night, their action
    will fail UNLESS they are tricking the person killing them.'"""
    from resolver.hooks.dctp.kills import chosen_kill

    kill = chosen_kill(view)
    return kill is not None and kill[2] == trickster and kill[1] != target


def tricked(view: HookView, name: str) -> bool:
    """Someone else discombobulates (or confuses) this player in this phase's trick step."""
    return any(
        aid in ("discombobulate", "confuse") and targets[:1] == (name,) and actor != name
        for _, actor, aid, targets in view.accepted()
    )


def heavy_handed(view: HookView, action: ActionView) -> Handled:
    """Vodka injures the target of his discombobulation (3 phases) if it succeeded."""
    hit = [
        e.targets[0]
        for e in entries(view)
        if e.actor == action.actor and e.ability == "discombobulate" and e.outcome == "done"
    ]
    if not hit:
        return fail("no successful discombobulation tonight")
    return done(status(action.actor, hit[0], "injured", 3), status(None, hit[0], "ever_injured"))


def frighten(view: HookView, action: ActionView) -> Handled:
    """'The Frightened player can't use their ability or vote the next day.'"""
    return done(status(action.actor, action.targets[0], "frightened"))


def insult_to_injury(view: HookView, action: ActionView) -> Handled:
    """Injured before: discombobulated; still injured: frightened too; never: nothing."""
    target = action.targets[0]
    if not view.has_status(target, "ever_injured"):
        return fail("the target has never been injured", note([action.actor], "nothing_happened"))
    out = [block(action.actor, target)]
    if has(view, target, *INJURED):
        out.append(status(action.actor, target, "frightened"))
    return done(*out)


def slander(view: HookView, action: ActionView) -> Handled:
    """Interrogations of the slandered tonight are inverted; at most one BO target."""
    targets = [t for t in action.targets if is_player(view, t)]
    if sum(bo(view, t) for t in targets) > 1:
        return fail("only one of the slandered may be BO")
    return done(*(status(action.actor, t, "slandered") for t in targets))


def frame(view: HookView, action: ActionView) -> Handled:
    """Blame a player for a crime tonight (the ledger keeps it; investigations and arrests of
    that crime find the framed player)."""
    if len(action.targets) < 2 or parse_crime(action.targets[1]) is None:
        return fail("needs a player and the crime")
    if bo(view, action.targets[0]) and view.option("variant_frame") == "seed000_anokata":
        return fail("Anokata blames a townsperson")
    return done()


def disguise(view: HookView, action: ActionView) -> Handled:
    """Prep (Night 1): disguise as a role not in the game (the GM's random pick otherwise)."""
    role = action.targets[0] if action.targets else ""
    refused = _disguise_refusal(view, role)
    if refused:
        return fail(refused)
    return done(*wear(view, action.actor, role, view.phase))


def _disguise_refusal(view: HookView, role: str) -> str:
    found = view.ruleset.roles.get(role)
    if found is None:
        return f"not a role: {role!r}"
    if "not_disguisable" in found.tags:
        return f"nobody can disguise as {role}"
    return ""


def wear(view: HookView, name: str, role: str, phase: str) -> list[Primitive]:
    """Put a disguise on (the crime is remembered with its phase)."""
    return [
        link(name, role, "disguise", silent=False),
        link(name, f"{role}@{phase}", "disguise_crime"),
    ]


def choose_costumes(view: HookView, action: ActionView) -> Handled:
    """Prep: keep 3 town costumes (the GM offers 5)."""
    roles = [r for r in action.targets if r in view.ruleset.roles]
    if len(roles) != len(action.targets) or any(
        view.ruleset.roles[r].faction != "town" for r in roles
    ):
        return fail("costumes are town roles")
    return done(*(link(action.actor, r, "costume") for r in roles))


def grab_costume(view: HookView, action: ActionView) -> Handled:
    """Irish names 3 roles; one, drawn for the GM, joins his costumes."""
    roles = [r for r in action.targets if r in view.ruleset.roles]
    if not roles:
        return fail("no role named")
    pick = view.draw(f"grab_costume:{action.actor}", roles)
    return done(
        link(action.actor, pick, "costume"), note([action.actor], "costume_grabbed", role=pick)
    )


def temporary_disguise(view: HookView, action: ActionView) -> Handled:
    """By day choose an unused costume, worn the next night only; each costume once."""
    role = action.targets[0] if action.targets else ""
    mine = {lk.b for lk in view.links("costume") if lk.a == action.actor}
    used = {lk.b for lk in view.links("costume_used") if lk.a == action.actor}
    if role not in mine or role in used:
        return fail("not one of her unused costumes")
    return done(
        link(action.actor, role, "costume_used"),
        link(action.actor, role, "costume_next"),
        link(action.actor, f"{role}@{view.phase}", "disguise_crime"),
    )


def amor(view: HookView, action: ActionView) -> Handled:
    """Prep: of 5 chosen players up to four become lovers, in pairs drawn at random; children
    and Friends cannot be lovers."""
    pool = [
        t
        for t in dict.fromkeys(action.targets)
        if is_player(view, t)
        and view.role(t).appears.get("observe") != CHILD
        and not view.has_status(t, "detective_boy")
        and not any(lk.a == t or lk.b == t for lk in view.links("friend"))
    ]
    out: list[Primitive] = []
    for pair in range(2):
        if len(pool) < 2:
            break
        a = view.draw(f"amor:{pair}:a", pool)
        pool.remove(a)
        b = view.draw(f"amor:{pair}:b", pool)
        pool.remove(b)
        out += [link(a, b, "lover", silent=False), link(b, a, "lover", silent=False)]
        out += [status(action.actor, a, "lover"), status(action.actor, b, "lover")]
    return done(*out) if out else fail("no two of them can be lovers")


def friendship(view: HookView, action: ActionView) -> Handled:
    """Prep: Sonoko befriends one of her list at random (not DBs, lovers or BO)."""
    pool = [
        t
        for t in dict.fromkeys(action.targets)
        if is_player(view, t)
        and not view.has_status(t, "detective_boy")
        and not bo(view, t)
        and lover_of(view, t) is None
    ]
    if not pool:
        return fail("none of them can be her friend")
    friend = view.draw(f"friendship:{action.actor}", pool)
    return done(
        link(action.actor, friend, "friend", silent=False),
        link(friend, action.actor, "friend", silent=False),
    )


def travel(view: HookView, action: ActionView) -> Handled:
    """Leave Japan (on the plane next phase, abroad after) or fly back (on the plane, then in
    Japan the phase after). 'Traveling is the last thing to happen'."""
    me = action.actor
    if view.has_status(me, "on_plane") and not _boarded_now(view, me):
        return fail("already on the plane")
    if any(actor == me and aid != "travel" for _, actor, aid, _ in view.accepted()):
        return fail("can't use an ability and travel in the same phase")
    if me in view.votes() and view.kind() == "day":
        return fail("can either Travel OR Vote during Day")
    if view.has_status(me, "abroad"):
        if view.phase == "night1":  # prep travel: 'on the plane during Night 1 ... arrive Day 1'
            return done(unstatus(me, "abroad"), status(me, me, "on_plane", 1))
        return done(unstatus(me, "abroad"), status(me, me, "on_plane", 2))
    return done(status(me, me, "on_plane", 2), status(me, me, "abroad"))


def _boarded_now(view: HookView, name: str) -> bool:
    return any(s.id == "on_plane" and s.since == view.phase for s in view.statuses(name))


def protect(view: HookView, action: ActionView) -> Handled:
    """Night: one player against the BO. Day: stops his lynching (votes not shown)."""
    target = action.targets[0]
    if view.has_status(action.actor, "protect_lost"):
        return fail("Ran can't protect anybody anymore")
    if view.kind() == "day":
        return done(status(action.actor, target, "lynch_shield"))
    return done(protection(action.actor, target, "protect"))


def lovey_dovey(view: HookView, action: ActionView) -> Handled:
    """Only the lover; against kills, snipes, lynching and APTX; once per Night/Day pair."""
    target = action.targets[0]
    if lover_of(view, action.actor) != target:
        return fail("Lovey-Dovey only protects one's lover")
    if view.has_status(action.actor, "lovey_cooldown"):
        return fail("the lovers lost this ability for 2 phases")
    number = view.phase.lstrip("nightday")
    pair = {action.actor, target}
    if any(
        e.ability == "lovey_dovey"
        and e.actor in pair
        and e.phase.lstrip("nightday") == number
        and e.phase != view.phase
        for e in view.ledger()
    ):
        return fail("you can only protect once per Day/Night")
    if view.kind() == "day":
        return done(
            status(action.actor, target, "lynch_shield"), status(action.actor, target, "lovey_day")
        )
    return done(protection(action.actor, target, "lovey"))


def heal(view: HookView, action: ActionView) -> Handled:
    """The healed player won't die if targeted by the killer (snipes bypass it)."""
    return done(protection(action.actor, action.targets[0], "heal"))


def first_aid(view: HookView, action: ActionView) -> Handled:
    """Option ``first_aid: like_heal``: a heal below Heal in precedence."""
    return done(protection(action.actor, action.targets[0], "first_aid"))


def snipe_guard(view: HookView, action: ActionView) -> Handled:
    """Option ``snipe_guard: protects_from_snipes``: Akai guards one player from snipes."""
    return done(protection(action.actor, action.targets[0], "snipe_guard"))


def bone_breaking(view: HookView, action: ActionView) -> Handled:
    """Named only: the first protection in precedence; it injures the attacker."""
    return done(protection(action.actor, action.targets[0], "bone"))


def steal(view: HookView, action: ActionView) -> Handled:
    """One item; the victim learns what, not who; Kogoro sobers when his alcohol goes; a
    peeked item is taken first."""
    target = action.targets[0]
    have = [i for i in STEALABLE if view.items(target).get(i, 0) > 0]
    wanted = action.order_params.get("item")
    peeked = [
        lk.b.partition("@")[2]
        for lk in view.links("peeked")
        if lk.a == action.actor and lk.b.startswith(f"{target}@")
    ]
    if peeked and peeked[-1] in have:
        wanted = peeked[-1]
    earlier = [
        lk.b.split("@")[1]
        for lk in view.links("stole")
        if lk.b.startswith(f"{target}@") and lk.b.endswith(f"@{view.phase}")
    ]
    if earlier:  # 'all thieves will "get the same item."' - it is gone only once
        thieves = [
            lk.a for lk in view.links("stole") if lk.b == f"{target}@{earlier[0]}@{view.phase}"
        ]
        told = [*thieves, action.actor, target]
        return done(
            link(action.actor, f"{target}@{earlier[0]}@{view.phase}", "stole"),
            note(told, "item_stolen_by_several", item=earlier[0], thieves=len(thieves) + 1),
        )
    if not have:
        return done(note([action.actor], "nothing_to_steal", target=target))
    taken = str(wanted) if wanted in have else view.draw(f"steal:{target}", have)
    out = [item(target, taken, -1), note([target], "item_stolen", item=taken),
           result(action.actor, action.ability.id, target, taken),
           link(action.actor, f"{target}@{taken}@{view.phase}", "stole")]  # fmt: skip
    if taken == "alcohol" and view.has_status(target, "drunk"):
        out += [unstatus(target, "drunk"), status(None, target, "sober")]
    return done(*out)


def peek(view: HookView, action: ActionView) -> Handled:
    """Akemi sees one more random item of her target (taken first by later steals)."""
    target = action.targets[0]
    have = [i for i in STEALABLE if view.items(target).get(i, 0) > 0]
    if not have:
        return fail("nothing to peek at")
    seen = view.draw(f"peek:{target}", have)
    return done(
        link(action.actor, f"{target}@{seen}", "peeked"),
        result(action.actor, action.ability.id, target, seen),
    )


def erase_body(view: HookView, action: ActionView) -> Handled:
    """Erase tonight's victim: role hidden, the will to Pisco; not as the last free BO."""
    target = action.targets[0]
    if not view.dying(target):
        return fail("nobody to erase: the target is not dying tonight")
    others = [
        n for n in view.names() if bo(view, n) and n != action.actor and not has(view, n, *JAILED)
    ]
    if not others:
        return fail("Erase can no longer be used if Pisco is the last BO remaining")
    from resolver.hooks.dctp.kills import chosen_kill

    chosen = chosen_kill(view)
    out = [status(action.actor, target, "erased")]
    if chosen is not None and chosen[1] == action.actor:  # his killing action: no use spent
        uses = view.uses(action.actor, "erase_body") or 0
        out.append(
            Primitive(
                Effect.COUNTER, None, (action.actor,), {"ability": "erase_body", "set": uses + 1}
            )
        )
    return done(*out)


def erase_evidence(view: HookView, action: ActionView) -> Handled:
    """Option ``erase_evidence: removes_one_crime``: the target's named (or latest) crime
    leaves no evidence for Arrest, Hold, House Search and Cross-examine."""
    if view.option("erase_evidence") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))
    return done()


def cloak_of_deception(view: HookView, action: ActionView) -> Handled:
    """Gin's actions of a night he kills read false to investigations for 2 phases."""
    return done()


def master_of_disguise(view: HookView, action: ActionView) -> Handled:
    """Through the next day, investigations/arrests about Vermouth's disguise read false."""
    if current_disguise(view, action.actor) is None:
        return fail("Vermouth is not disguised")
    return done(status(action.actor, action.actor, "master_of_disguise"))


def chameleon(view: HookView, action: ActionView) -> Handled:
    """'When Anokata performs a killing while in possession of the Black Suitcase, actions
    faked with the Black Suitcase are treated as real ... Does not apply to BS arrest': the
    faked ability's own handler runs as Anokata's (any night ability on one player:
    :func:`copyable`), and a crime done that way is his crime ('Faked Black Suitcase actions
    are not crimes ... unless Anokata uses Chameleon and commits a crime in that way')."""
    from resolver.hooks.dctp.kills import chosen_kill

    if view.items(action.actor).get("black_suitcase", 0) <= 0:
        return fail("Chameleon needs the Black Suitcase")
    chosen = chosen_kill(view)
    if chosen is None or chosen[1] != action.actor:
        return fail("Chameleon works on a night Anokata performs the killing")
    prims: list[Primitive] = []
    lates = []
    for _, actor, aid, targets in view.accepted():
        if actor != action.actor or aid != "fake_action" or len(targets) < 2:
            continue
        handled = _made_real(view, action, targets[0], targets[1])
        prims += handled.primitives
        if handled.late is not None:
            lates.append(handled.late)
    if not prims and not lates:
        return fail("no faked action Chameleon can make real")

    def later(v: HookView) -> Sequence[Primitive]:
        return [p for late in lates for p in late(v)]

    return done(*prims, late=later if lates else None)


def copyable(ruleset: Ruleset, aid: str) -> bool:
    """A faked ability Chameleon makes real: a night ability on players, not an arrest (nor
    another jail action), a killing action, a prep-phase action or one of the suitcase's."""
    found = ruleset.abilities.get(aid)
    if found is None or not found.allowed_in("night") or aid in _NOT_COPIED:
        return False
    if {"killing_action", "prep_phase"} & set(found.tags) or aid in _SUITCASE:
        return False
    kinds = [t.kind for t in found.targets]
    return len(kinds) >= 1 and all(k == "player" for k in kinds) and found.effect == "hook"


_SUITCASE = ("fake_action", "bribe", "suitcase_investigate", "chameleon", "kill", "order_kill")
# 'Does not apply to BS arrest': nor to the police's other jail actions (Calvados "can't
# cover: Arrest, House Search, Detain, Lawsuit"); Cover/Backup, the Leader vote and a lover's
# Lovey-Dovey are nobody else's to fake.
_NOT_COPIED = ("arrest", "hold", "detention", "release", "house_search", "lawsuit", "cover",
               "backup", "leader_vote", "lovey_dovey")  # fmt: skip


def _made_real(view: HookView, action: ActionView, aid: str, target: str) -> Handled:
    """Run one faked ability for real (its handler, as Anokata), remembered as his act."""
    if not copyable(view.ruleset, aid):
        return fail(f"Chameleon cannot make a faked {aid!r} real")
    found = view.ruleset.abilities[aid]
    handler = view.handler(str(found.effect_params.get("handler", "")))
    if handler is None:
        return fail(f"no handler for {aid!r}")
    inner = ActionView(None, action.actor, found, (target,), (target,), found.effect_params,
                       {}, action.actor, action.step)  # fmt: skip
    handled = handler(view, inner)
    if handled.outcome != "done":
        return Handled(handled.outcome, handled.reason, handled.primitives)
    real = link(action.actor, f"{aid}>{target}@{view.phase}", "made_real")
    return Handled(handled.outcome, handled.reason, (*handled.primitives, real), handled.late)


def fake_action(view: HookView, action: ActionView) -> Handled:
    """A faked night action: investigations see it, it has no effect and no result."""
    if len(action.targets) < 2 or not is_player(view, action.targets[1]):
        return fail("needs the faked ability and its target")
    return done()


def hand_suitcase(view: HookView, action: ActionView) -> Handled:
    """The Leader names tomorrow night's holder (the next eligible, else the Leader)."""
    if not view.has_status(action.actor, "leader"):
        return fail("only the Leader hands out the Black Suitcase")
    return done(link(action.actor, action.targets[0], "suitcase_next"))


def bow_tie(view: HookView, action: ActionView) -> Handled:
    """Lent for the next night: the holder may Interrogate or Investigate 5 as Conan."""
    return done(item(action.targets[0], "bow_tie", 1), note([action.targets[0]], "got_bow_tie"))


def tranquilizer_watch(view: HookView, action: ActionView) -> Handled:
    """Lent for the next night: the holder is protected like by Ran (shatters on Headshot)."""
    if view.has_status(action.actor, "watch_shattered"):
        return fail("the watch is destroyed")
    return done(
        item(action.targets[0], "tranquilizer_watch", 1), note([action.targets[0]], "got_watch")
    )


def leader_vote(view: HookView, action: ActionView) -> Handled:
    """A BO member's vote for a new Leader (counted at the end of the phase)."""
    if not bo(view, action.targets[0]):
        return fail("the Leader must be a BO member")
    return done()


def cover(view: HookView, action: ActionView) -> Handled:
    """Calvados uses one ability of a covered ally tonight (``params.ability``, target)."""
    ally = action.targets[0]
    if not is_player(view, ally) or not view.alive(ally) or has(view, ally, *JAILED):
        return fail("will not work on dead or already arrested allies")
    if not (bo(view, ally) or lover_of(view, action.actor) == ally):
        return fail("allies are BO members and Calvados's lover")
    return run_borrowed(view, action, set(view.role(ally).abilities))


def backup(view: HookView, action: ActionView) -> Handled:
    """Calvados performs one BO action of a member not in the game (not the same twice)."""
    role = view.ruleset.roles.get(action.targets[0] if action.targets else "")
    if role is None or role.faction != "bo":
        return fail("needs a BO role")
    if any(view.role(n).id == role.id for n in view.names(alive=None)):
        return fail("that member is (or was) in the game")
    if any(e.ability == "backup" and e.targets[:1] == (role.id,) and e.actor == action.actor
           for e in view.ledger() if e.phase != view.phase):  # fmt: skip
        return fail("may not backup the same BO member more than once")
    return run_borrowed(view, action, set(role.abilities))


def sabotage(view: HookView, action: ActionView) -> Handled:
    """Seed 001: +1 vote to the target tomorrow if he is tied for the most votes."""
    return done(status(action.actor, action.targets[0], "sabotaged"))


def confuse(view: HookView, action: ActionView) -> Handled:
    """Named only (a crime; 'ineffective' against Lovey-Dovey): the target's action fails."""
    if tricked(view, action.actor):
        return fail("the confuser was discombobulated")
    return done(block(action.actor, action.targets[0]))


def hinder(view: HookView, action: ActionView) -> Handled:
    """Named only (a crime): the hindered player cannot vote the next day."""
    return done(status(action.actor, action.targets[0], "hindered"))


def passive(view: HookView, action: ActionView) -> Handled:
    """Passive abilities (Betrayal, Gossip, Vengeance, Revenge) work by themselves."""
    return fail("a passive ability needs no order")


def sober_check(view: HookView) -> list[Primitive]:
    """Kogoro sobers the phase after Eri, Ran, Conan or Shinichi dies (not erased), or after
    the option's number of town deaths."""
    out: list[Primitive] = []
    dead_town = [n for n in view.names(alive=False) if view.faction(n) == "town"]
    trigger = [
        n
        for n in view.names(alive=False)
        if view.role(n).id in ("eri", "ran", "conan", "shinichi")
        and not view.has_status(n, "erased")
    ]
    for n in view.names():
        if view.has_status(n, "drunk") and (
            trigger or len(dead_town) >= int(view.option("kogoro_sober_after"))
        ):
            out += [unstatus(n, "drunk"), status(None, n, "sober")]
    return out


def away(view: HookView, name: str) -> bool:
    """Abroad or on the plane."""
    return has(view, name, *AWAY)


def run_borrowed(view: HookView, action: ActionView, allowed: set[str]) -> Handled:
    """Calvados's Cover/Backup: one ability of another role, used as himself."""
    aid = str(action.order_params.get("ability", ""))
    forbidden = {"kill", "arrest", "house_search", "detention", "lawsuit", "bow_tie"}
    forbidden |= {"tranquilizer_watch", "disguise", "hand_suitcase", "order_kill"}
    borrowed = view.ruleset.abilities.get(aid)
    if borrowed is None or aid not in allowed or aid in forbidden:
        return fail(f"cannot use {aid!r} through {action.ability.id}")
    target = action.order_params.get("ability_target")
    inner = ActionView(
        None,
        action.actor,
        borrowed,
        (str(target),) if target else (),
        (str(target),) if target else (),
        borrowed.effect_params,
        {},
        action.actor,
        action.step,
    )
    handler = view.handler(str(borrowed.effect_params.get("handler", "")))
    if handler is None or (borrowed.targets and not target):
        return fail("the covered ability needs a target")
    handled = handler(view, inner)
    if handled.outcome != "done":
        return handled
    # 'The covered abilities can be normally investigated ... "Calvados slanders Akonyl" will
    # get a true.'
    seen = link(action.actor, f"{aid}>{target or ''}@{view.phase}", "covered")
    return Handled(handled.outcome, handled.reason, (*handled.primitives, seen), handled.late)
