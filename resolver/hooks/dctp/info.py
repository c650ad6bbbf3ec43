"""Information abilities: investigations of claims, interrogation, detection, observation.

Seed 001 'Investigate #': "They can only Investigate the actions that are happening in the same
night ... If the target of the investigate is killed or arrested that phase, the investigate
will come back 'failed.' ... If the killing was discombobulated/tricked, then it did not happen
and will be considered false."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from resolver.hooks.dctp.common import (
    AWAY,
    INJURED,
    JAILED,
    Claim,
    bo,
    current_disguise,
    done,
    entries,
    fail,
    has,
    is_player,
    keyword,
    link,
    note,
    parse_claim,
    phase_index,
    phase_of,
    result,
    status,
    unlink_all,
)
from resolver.hooks.dctp.ledger import claim_holds, facts
from resolver.hookspecs import ActionView, Handled, HookView
from resolver.model.state import Primitive

CHILD = "child"


def _claim(action: ActionView) -> Claim | None:
    return parse_claim(action.targets[0]) if action.targets else None


def _disguise_claim(view: HookView, claim: Claim) -> bool | None:
    """'Akonyl disguised as Shinichi': True/False; None if the claim is not about a disguise."""
    if keyword(view, claim.verb) not in ("disguise", "temporary_disguise"):
        return None
    if view.has_status(claim.subject, "master_of_disguise"):
        return False  # 'all investigations ... regarding Vermouth's disguise will return false'
    return claim.object is not None and current_disguise(view, claim.subject) == claim.object


def _cloaked(view: HookView, subject: str, phase: str) -> bool:
    """Gin's Cloak of Deception: his actions of that phase read false for the next 2 phases."""
    for e in view.ledger():
        mine = e.actor == subject and e.ability == "cloak_of_deception" and e.outcome == "done"
        if mine and e.phase == phase and view.index() - view.index(phase) <= 2:
            return True
    return False


def judge(view: HookView, claim: Claim, phase: str) -> str:
    """``true``, ``false`` or ``failed`` for one claim about ``phase``."""
    if not is_player(view, claim.subject):
        return "false"
    subject = claim.subject
    gone = view.dying(subject) or has(view, subject, "arrested", "detained", "held")
    if gone and phase == view.phase:
        return "failed"
    if has(view, subject, *AWAY):
        return "false"  # 'Investigators who attempt to investigate someone traveling ... false'
    disguise = _disguise_claim(view, claim)
    if disguise is not None:
        return "true" if disguise else "false"
    if _cloaked(view, subject, phase):
        return "false"
    return "true" if claim_holds(view, claim, phase) else "false"


def investigate(view: HookView, action: ActionView) -> Handled:
    """Investigate a claim about tonight's actions (answered once the night has resolved)."""
    claim = _claim(action)
    if claim is None:
        return fail(f"not a claim: {action.targets[:1]}")
    phase = view.phase

    def later(v: HookView) -> Sequence[Primitive]:
        return [result(action.actor, action.ability.id, action.targets[0], judge(v, claim, phase))]

    return done(late=later)


def special_investigate(view: HookView, action: ActionView) -> Handled:
    """One claim about a past night or the prep phase; not a dead or arrested subject."""
    claim = _claim(action)
    if claim is None:
        return fail(f"not a claim: {action.targets[:1]}")
    when = phase_of(claim.phase or action.order_params.get("phase"))
    at = phase_index(view, when)
    if when is None or at is None:
        return fail("must specify on which Night the action happened")
    if not when.startswith("night"):
        return fail("may not investigate anything that happens during a day phase")
    if at >= view.index():
        return fail("must be from a previous night or the prep phase")
    if is_player(view, claim.subject) and (
        not view.alive(claim.subject) or has(view, claim.subject, *JAILED)
    ):
        return fail("cannot investigate a target that is dead or arrested")
    value = _judge_past(view, claim, when)
    return done(result(action.actor, action.ability.id, action.targets[0], value))


def _judge_past(view: HookView, claim: Claim, when: str) -> str:
    if keyword(view, claim.verb) in ("disguise", "temporary_disguise"):
        crimes = [
            lk.b for lk in view.links("disguise_crime") if lk.a == claim.subject
        ]  # 'Disguise (must specify disguise)'
        return "true" if f"{claim.object}@{when}" in crimes else "false"
    if _cloaked(view, claim.subject, when):
        return "false"
    return "true" if claim_holds(view, claim, when) else "false"


def db_investigate(view: HookView, action: ActionView) -> Handled:
    """DB Investigate: like Special Investigate, by day, one DB a day; not two days running."""
    refused = db_turn(view, action)
    if refused:
        return fail(refused)
    mine = [e for e in view.ledger() if e.actor == action.actor and e.ability == "db_investigate"]
    yesterday = (
        mine and mine[-1].outcome == "done" and view.index(mine[-1].phase) == view.index() - 2
    )
    others = [n for n in view.names() if n != action.actor and view.has_status(n, "detective_boy")]
    if yesterday and any(not has(view, n, *JAILED, "injured") for n in others):
        return fail("DB Investigate may not be used two day phases in a row")
    handled = special_investigate(view, action)
    return _to_all_dbs(view, action, handled)


def _to_all_dbs(view: HookView, action: ActionView, handled: Handled) -> Handled:
    """'All DBs will receive the result of that day's ability'."""
    extra = []
    for prim in handled.primitives:
        if prim.params.get("event") == "result":
            for n in view.names():
                if n != action.actor and view.has_status(n, "detective_boy"):
                    extra.append(prim.__class__(prim.effect, None, (n,), prim.params, prim.cause))
    return Handled(handled.outcome, handled.reason, (*handled.primitives, *extra), handled.late)


DB_ABILITIES = ("identify", "db_investigate", "db_detect")


def db_turn(view: HookView, action: ActionView) -> str:
    """'Each phase, only one DB may use their Day ability ... the DB with the highest rank
    will be chosen (Ayumi > Mitsuhiko > Genta)'. A frightened DB: 'If one DB is frightened by
    Tequila and only one DB has sent an action ..., the action will fail. If two DBs send in
    the same action, the action has a 50% chance of succeeding. If all three DBs send in the
    same action, then the action has a 66% chance of succeeding.'"""
    from resolver.hooks.dctp.common import rank

    mine = rank(view, action.actor)
    if view.has_status(action.actor, "frightened"):
        same = sum(
            1
            for _, actor, aid, targets in view.accepted()
            if aid == action.ability.id and targets == action.ordered and view.alive(actor)
        )
        odds = ["fails"] + ["succeeds"] * (same - 1)
        if same < 2 or view.draw(f"db_frightened:{action.actor}", odds) == "fails":
            return "frightened: the Detective Boys' action failed"
    for _, actor, aid, _targets in view.accepted():
        db = actor != action.actor and view.has_status(actor, "detective_boy")
        ranked = aid in ("identify", "db_investigate", "db_detect") and rank(view, actor) < mine
        if db and ranked and view.alive(actor):
            return "a higher-ranked Detective Boy acts today"
    return ""


def reinvestigate(view: HookView, action: ActionView) -> Handled:
    """Option ``reinvestigate: own_past_investigation``: re-ask one of his earlier
    investigations (claim with its night) and get the true answer."""
    if view.option("reinvestigate") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))
    claim = _claim(action)
    if claim is None:
        return fail(f"not a claim: {action.targets[:1]}")
    when = phase_of(claim.phase or action.order_params.get("phase"))
    asked = [
        e
        for e in view.ledger()
        if e.actor == action.actor
        and e.ability == "investigate"
        and e.phase == when
        and _same_claim(parse_claim(e.targets[0]) if e.targets else None, claim)
    ]
    if when is None or not asked:
        return fail("he did not investigate that claim that night")
    value = "true" if claim_holds(view, claim, when) else "false"
    return done(result(action.actor, action.ability.id, action.targets[0], value))


def _same_claim(asked: Claim | None, claim: Claim) -> bool:
    """The same who-did-what-to-whom (the night is matched separately)."""
    return asked is not None and (asked.subject, asked.verb, asked.object) == (
        claim.subject,
        claim.verb,
        claim.object,
    )


def appearance(view: HookView, target: str, query: str) -> str:
    """What a role sheet line shows (``interrogate``, ``observe``, ``scent``), disguise aware."""
    role = view.role(target)
    shown = role.appears.get(query, "")
    if shown == "disguise":
        disguise = current_disguise(view, target)
        if disguise is None or view.has_status(target, "injured"):
            return str(role.appears.get(f"{query}_undisguised", ""))
        return str(view.ruleset.roles[disguise].appears.get(query, ""))
    return str(shown)


def interrogate(view: HookView, action: ActionView) -> Handled:
    """BO / Not BO from the role sheet, inverted by a Slander of the night; random when drunk."""
    target = action.targets[0]
    if has(view, target, *AWAY):
        return done(result(action.actor, action.ability.id, target, "not_bo"))

    def later(v: HookView) -> Sequence[Primitive]:
        value = appearance(v, target, "interrogate") or "not_bo"
        if v.has_status(target, "slandered"):
            value = "not_bo" if value == "bo" else "bo"
        if v.has_status(action.actor, "drunk"):
            value = v.draw(f"drunk_interrogation:{action.actor}", ["bo", "not_bo"])
        return [result(action.actor, action.ability.id, target, value)]

    return done(late=later)


def analyze(view: HookView, action: ActionView) -> Handled:
    """Sober Kogoro learns the true result of his interrogation of a named night."""
    if not view.has_status(action.actor, "sober"):
        return fail("Analyze is only available when sober")
    when = phase_of(action.targets[0]) if action.targets else None
    done_there = [
        e
        for e in view.ledger()
        if e.actor == action.actor and e.ability == "interrogate" and e.phase == when
    ]
    if not done_there or not done_there[-1].targets:
        return fail("no interrogation that night")
    target = done_there[-1].targets[0]
    value = appearance(view, target, "interrogate") or "not_bo"
    return done(result(action.actor, action.ability.id, target, value, phase=when))


def detect(view: HookView, action: ActionView) -> Handled:
    """Is this character in the game? Vermouth/1412 yes; their disguised role no."""
    role = action.targets[0] if action.targets else ""
    present = any(view.role(n).id == role for n in view.names(alive=None))
    return done(result(action.actor, action.ability.id, role, "true" if present else "false"))


def db_detect(view: HookView, action: ActionView) -> Handled:
    """Genta's Detect by day (one DB a day, result to every DB)."""
    refused = db_turn(view, action)
    return fail(refused) if refused else _to_all_dbs(view, action, detect(view, action))


def identify(view: HookView, action: ActionView) -> Handled:
    """'Akonyl is Sonoko': a disguised player must be named as 1412/Vermouth, except under
    Master of Disguise (then the disguised role is True, Vermouth False)."""
    refused = db_turn(view, action)
    if refused:
        return fail(refused)
    target, role = action.targets[0], action.targets[1]
    true_role = view.role(target).id
    if view.has_status(target, "master_of_disguise"):
        true_role = current_disguise(view, target) or true_role
    value = "true" if role == true_role else "false"
    return _to_all_dbs(
        view, action, done(result(action.actor, action.ability.id, target, value, role=role))
    )


def observe(view: HookView, action: ActionView) -> Handled:
    """Age-observe: Adult/Teenager/Child (the disguise's); Anokata random, the same for all.
    Gender-Observe (seed 001, option ``observe_gender``; order parameter ``type: gender``):
    male/female, the disguise's; a role the seeds leave open ('random': Anokata) draws once a
    night for every observer; ``gm``: the GM answers."""
    target = action.targets[0]
    if action.order_params.get("type") == "gender":
        return _gender_observe(view, action, target)
    value = appearance(view, target, "observe") or "adult"
    if value == "random":
        value = view.draw(f"observe:{target}", ["adult", "teenager", CHILD])
    return done(result(action.actor, action.ability.id, target, value))


def _gender_observe(view: HookView, action: ActionView, target: str) -> Handled:
    if not view.option("observe_gender"):
        return fail("Gender-Observe is seed 001's (option observe_gender is off)")
    value = gender_of(view, target)
    seen = link(action.actor, f"{target}@{view.phase}", "gender_observed")
    if value == "gm":
        return done(seen, note([action.actor], "gm_decides", ability="gender_observe"))
    return done(seen, result(action.actor, action.ability.id, target, value, type="gender"))


def gender_of(view: HookView, target: str) -> str:
    """``male``/``female`` as Gender-Observe shows the target tonight (``gm``: unknown)."""
    disguise = current_disguise(view, target)
    role = view.role(target)
    if disguise is not None and not has(view, target, *INJURED):
        role = view.ruleset.roles[disguise]  # 'the player will learn it for the disguise'
    value = str(role.appears.get("gender", "gm"))
    if value == "random":  # 'all players will receive the same results'
        value = view.draw(f"observe_gender:{target}", ["male", "female"])
    return value


def stake_out(view: HookView, action: ActionView) -> Handled:
    """Keywords of every action on the target tonight (not his own stake-out); killed: the
    killer is noted; arrested: the stake-out fails."""
    target = action.targets[0]

    def later(v: HookView) -> Sequence[Primitive]:
        if has(v, target, *JAILED):
            return [result(action.actor, action.ability.id, target, "failed")]
        if v.dying(target):
            return [result(action.actor, action.ability.id, target, "killed")]
        seen = sorted(
            {
                keyword(v, f.ability)
                for f in facts(v)
                if f.phase == v.phase
                and target in f.targets
                and f.actor != action.actor
                and not f.blamed
                and f.ability != "frame"
            }
        )
        return [result(action.actor, action.ability.id, target, seen)]

    return done(late=later)


def follow(view: HookView, action: ActionView) -> Handled:
    """Haibara learns 'Has a scent' / 'Has no scent'; the target learns he was followed."""
    target = action.targets[0]
    value = appearance(view, target, "scent") or "no_scent"
    return done(
        result(action.actor, action.ability.id, target, value),
        note([target], "followed"),
    )


def pry(view: HookView, action: ActionView) -> Handled:
    """Option ``pry_reveals: organization``: BO and DBs show 'In an Organization'."""
    target = action.targets[0]
    if view.option("pry_reveals") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))
    inside = bo(view, target) or view.has_status(target, "detective_boy")
    value = "in_an_organization" if inside else "not_in_an_organization"
    return done(result(action.actor, action.ability.id, target, value))


def deduction(view: HookView, action: ActionView) -> Handled:
    """Option ``deduction_reveals: faction``: the target's faction, never inverted."""
    target = action.targets[0]
    if view.option("deduction_reveals") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))
    return done(result(action.actor, action.ability.id, target, view.faction(target)))


def spy(view: HookView, action: ActionView) -> Handled:
    """Option ``spy_reveals: visits``: whom the target visited tonight."""
    target = action.targets[0]
    if view.option("spy_reveals") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))

    def later(v: HookView) -> Sequence[Primitive]:
        visited = sorted(
            {t for e in entries(v) if e.actor == target and e.outcome == "done" for t in e.visited}
        )
        return [result(action.actor, action.ability.id, target, visited)]

    return done(late=later)


def collect_sample(view: HookView, action: ActionView) -> Handled:
    """Option ``sherry_samples: role_check``: keep a sample of the target for Experiment."""
    return done(link(action.actor, action.targets[0], "sample"))


def experiment(view: HookView, action: ActionView) -> Handled:
    """On a sampled player: learn his role (option ``sherry_samples: role_check``)."""
    target = action.targets[0]
    if view.option("sherry_samples") == "gm":
        return done(note([action.actor], "gm_decides", ability=action.ability.id))
    sampled = any(lk.a == action.actor and lk.b == target for lk in view.links("sample"))
    if not sampled:
        return fail("no sample of that player")
    return done(result(action.actor, action.ability.id, target, view.role(target).id))


def mad_science(view: HookView, action: ActionView) -> Handled:
    """When Sherry's kill succeeds she collects samples from 2 players."""
    targets = [t for t in action.targets if is_player(view, t)]

    def later(v: HookView) -> Sequence[Primitive]:
        killed = any(
            e.actor == action.actor and e.ability in ("kill", "order_kill") and e.outcome == "done"
            for e in entries(v)
        ) or any(
            e.ability == "order_kill" and e.targets[:1] == (action.actor,) and e.outcome == "done"
            for e in entries(v)
        )
        if not killed:
            return [note([action.actor], "mad_science_no_kill")]
        return [link(action.actor, t, "sample") for t in targets]

    return done(late=later)


def research(view: HookView, action: ActionView) -> Handled:
    """Seed 001: was this ability used successfully by a town member this phase?"""
    asked = action.targets[0] if action.targets else ""

    def later(v: HookView) -> Sequence[Primitive]:
        used = any(
            keyword(v, f.ability) == keyword(v, asked)
            and not f.fake
            and not f.blamed
            and is_player(v, f.actor)
            and not bo(v, f.actor)
            for f in facts(v)
            if f.phase == v.phase
        )
        return [result(action.actor, action.ability.id, asked, "true" if used else "false")]

    return done(late=later)


def abduct(view: HookView, action: ActionView) -> Handled:
    """Seed 001: the name of one random town character not in the game."""
    big = len(view.names(alive=None)) > int(view.option("abduct_every_other_night_above"))
    if big and view.index() % 4 != 2:
        return fail("above the player limit Abduct works every other night")
    in_game = {view.role(n).id for n in view.names(alive=None)}
    pool = sorted(
        r.id for r in view.ruleset.roles.values() if r.faction == "town" and r.id not in in_game
    )
    if not pool:
        return fail("every town character is in the game")
    return done(
        result(action.actor, action.ability.id, "", view.draw(f"abduct:{action.actor}", pool))
    )


def pinch_face(view: HookView, action: ActionView) -> Handled:
    """Strip a disguise (the target's action fails) and learn it; else False. Once within every
    two phases (Night N or Day N)."""
    target = action.targets[0]
    number = view.phase.lstrip("nightday")
    used = [
        e
        for e in view.ledger()
        if e.actor == action.actor
        and e.ability == "pinch_face"
        and e.phase.lstrip("nightday") == number
        and e.phase != view.phase
    ]
    if used:
        return fail("once within every two phases")
    disguise = current_disguise(view, target)
    if disguise is None:
        return done(
            result(action.actor, action.ability.id, target, "false"), note([target], "pinched")
        )
    from resolver.hooks.dctp.common import block

    return done(
        unlink_all(target, "disguise"),
        block(action.actor, target),
        result(action.actor, action.ability.id, target, disguise),
        note([target], "pinched"),
    )


SUBORDINATES = ("jodie", "akai", "camel", "kir")
REPORTED = ("investigate", "special_investigate", "observe")


def subordinate(view: HookView, name: str) -> bool:
    """One of James's subordinates, or disguised as one ('This includes characters disguised
    as the subordinates')."""
    return view.role(name).id in SUBORDINATES or current_disguise(view, name) in SUBORDINATES


def fbi_reports(view: HookView, betrayals: Mapping[str, Mapping[str, str]]) -> list[Primitive]:
    """'After every Night, he will get up to 2 results from his subordinates chosen at random
    ... In case of Akai, James will only receive one of his investigations. In case of Kir,
    James will receive only one of her actions (Betrayal, Investigation or Special
    Investigation) chosen by random.' One report per subordinate drawn, of one of his
    investigations, observations or (Kir) her Betrayal of the night."""
    out: list[Primitive] = []
    for james in view.names():
        if not view.has_status(james, "fbi_leader"):
            continue
        done_tonight = [
            e
            for e in entries(view)
            if e.outcome == "done" and e.ability in REPORTED and e.targets
            and is_player(view, e.actor) and subordinate(view, e.actor)
        ]  # fmt: skip
        options: dict[str, list[Primitive]] = {}
        for e in done_tonight:
            value = _report_value(view, e.ability, e.targets[0], e.actor)
            options.setdefault(e.actor, []).append(note([james], "fbi_report", role=_shown(
                view, e.actor), ability=e.ability, target=e.targets[0], result=value))  # fmt: skip
        for kir, seen in betrayals.items():
            if subordinate(view, kir):
                told = {"bo_role": seen["role"], "ability": seen["ability"]}
                told |= {"erased": seen["erased"]} if "erased" in seen else {}
                options.setdefault(kir, []).append(
                    note([james], "fbi_report_betrayal", role=_shown(view, kir), **told)
                )
        subs = sorted(options, key=view.seat)
        for pick in range(min(2, len(subs))):
            sub = view.draw(f"fbi_report:{james}:{pick}", subs)
            subs.remove(sub)
            mine = options[sub]
            out.append(
                mine[int(view.draw(f"fbi_report:{sub}", [str(i) for i in range(len(mine))]))]
            )
    return out


def _shown(view: HookView, name: str) -> str:
    """The subordinate as James knows him: his role, or the subordinate he is disguised as."""
    disguise = current_disguise(view, name)
    return disguise if disguise in SUBORDINATES else view.role(name).id


def fbi_hint(view: HookView) -> list[Primitive]:
    """'If someone is disguised as a subordinate, then he will get a small hint, like: "You
    think there is something strange with your subordinate(s)"' (once, with the count that
    includes the disguised)."""
    disguised = [n for n in view.names() if current_disguise(view, n) in SUBORDINATES]
    out: list[Primitive] = []
    for james in view.names():
        if not view.has_status(james, "fbi_leader") or view.has_status(james, "fbi_hinted"):
            continue
        if disguised:
            count = sum(1 for n in view.names(alive=None) if subordinate(view, n))
            out += [note([james], "subordinates_strange", count=count),
                    status(None, james, "fbi_hinted")]  # fmt: skip
    return out


def _report_value(view: HookView, ability: str, target: str, actor: str) -> str:
    gendered = f"{target}@{view.phase}"
    if ability == "observe" and any(
        lk.a == actor and lk.b == gendered for lk in view.links("gender_observed")
    ):
        return gender_of(view, target)
    if ability == "observe":
        return appearance(view, target, "observe") or "adult"
    claim = parse_claim(target)
    if claim is None:
        return "false"
    if ability == "investigate":
        return judge(view, claim, view.phase)
    when = phase_of(claim.phase) or view.phase
    return _judge_past(view, claim, when)
