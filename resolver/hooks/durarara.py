"""Durarara!! Loup-Garou hooks (seed 003): gangs at setup, the Day 0 mayor election, the
mayor's tie-break, testament and succession, the anti-reveal power (PAD), charms, Saki's
search for Bacula, lovers, and the seed's victory conditions. The rest is data in
``durarara.yaml``; every reading of a silence of the seed is an option there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from resolver.hookspecs import ActionView, Handled, Handler, HookView
from resolver.model.catalogue import Ability, Effect
from resolver.model.state import Order, Primitive, Winner
from resolver.phases import parse_phase

MAYOR = "mayor"
LOVER = "lover"
LOVERS = "lovers"
TESTAMENT = "testament"
VOTE_LOST = "vote_lost"
STRUCK = "struck"
HARMS = "harms"
GANGS = ("gang_dollars", "gang_yellow_scarves")
VILLAGE, WOLVES, IZAYA = "village", "blue_squares", "izaya"
CHARMERS = ("saika", "ripper")  # faction ids; each charmer's role has the same id
CHARM_OF = {"saika": "charmed_saika", "ripper": "charmed_ripper"}
BOTH_GANGS_TAG = "both_gangs"
POWER_TAGS = ("killer", "protector")
UNSTOPPABLE = ("immunity", "protection")


def _note(message: str, to: Sequence[str] = (), **data: object) -> Primitive:
    """A private note (``to``), or a public one when ``to`` is empty."""
    params = {"message": message, **data}
    if not to:
        params["public"] = True
    return Primitive(Effect.NOTIFY, None, tuple(to), params, message)


def _gm_note(message: str, **data: object) -> Primitive:
    return Primitive(Effect.NOTIFY, None, (), {"message": message, "gm": True, **data}, message)


def _status(who: str, status: str, by: str | None = None) -> Primitive:
    return Primitive(Effect.STATUS, by, (who,), {"status": status}, status)


def _kill(who: str, by: str | None, kind: str) -> Primitive:
    return Primitive(Effect.ATTACK, by, (who,), {"kind": kind, "pierces": UNSTOPPABLE}, kind)


# ---------------------------------------------------------------------------------- setup
def on_game_start(view: HookView) -> Sequence[Primitive]:
    """Draw the gangs of the players the game did not place, and tell each his gang and
    the name of one other member (Izaya, in both gangs, learns no name)."""
    members = _gang_members(view)
    out = [
        _status(n, g) for g, names in members.items() for n in names if not view.has_status(n, g)
    ]
    for name in view.names():
        if BOTH_GANGS_TAG in view.role(name).tags:
            out.append(_note("gang_izaya", (name,), gangs=list(GANGS)))
            continue
        gang = next(g for g in GANGS if name in members[g])
        pool = [m for m in members[gang] if m != name and not _both(view, m)]
        known = []
        for i in range(min(int(view.option("known_gang_members")), len(pool))):
            pick = view.draw(f"gang_contact:{name}:{i}", pool)
            known.append(pick)
            pool.remove(pick)
        out.append(_note("gang", (name,), gang=gang, known=known))
    return out


def _both(view: HookView, name: str) -> bool:
    return BOTH_GANGS_TAG in view.role(name).tags


def _gang_members(view: HookView) -> dict[str, list[str]]:
    """Gang status id → members, drawing the unplaced players so the gangs stay even."""
    members: dict[str, list[str]] = {g: [] for g in GANGS}
    free = []
    for name in view.names():
        held = [g for g in GANGS if view.has_status(name, g)]
        for g in held:
            members[g].append(name)
        if not held:
            free.append(name)
    counted = {g: sum(1 for n in members[g] if not _both(view, n)) for g in GANGS}
    total = sum(counted.values()) + len(free)
    extra = view.draw("gang_extra", list(GANGS)) if total % 2 else GANGS[0]
    want = total // 2 + (1 if extra == GANGS[0] and total % 2 else 0)
    to_dollars = max(0, min(len(free), want - counted[GANGS[0]]))
    for i in range(to_dollars):
        pick = view.draw(f"gang:{GANGS[0]}:{i}", free)
        free.remove(pick)
        members[GANGS[0]].append(pick)
    members[GANGS[1]] += free
    return members


# ----------------------------------------------------------------------------- validation
def order_problem(view: HookView, order: Order, ability: Ability) -> str:
    """The seed's conditions on orders (who may, when, and lovers' harm)."""
    check = _CHECKS.get(ability.id)
    problem = check(view, order, ability) if check is not None else ""
    if not problem and HARMS in ability.tags:
        partner = _partner(view, order.actor)
        if partner is not None and partner in order.targets:
            problem = "lovers may not harm each other"
    return problem


def _only_day0(view: HookView, order: Order, ability: Ability) -> str:
    first = view.ruleset.phases.first
    return "" if view.phase == first else f"{ability.id} is only used on {first} (the election)"


def _tie_break_check(view: HookView, order: Order, ability: Ability) -> str:
    if view.phase == view.ruleset.phases.first:
        return "Day 0 elects the mayor: there is no lynch to decide"
    if not view.has_status(order.actor, MAYOR):
        return "only the mayor breaks a tie"
    return ""


def _successor_check(view: HookView, order: Order, ability: Ability) -> str:
    if not view.has_status(order.actor, MAYOR):
        return "only the mayor names his successor"
    if view.alive(order.actor):
        return ""  # his testament
    if _living_mayor(view) is not None:
        return "the mayor's successor is already known"
    return _just_died(view, order.actor)


def _just_died(view: HookView, name: str) -> str:
    died = view.died(name)[0]
    if died is None or view.phase_index(died) < view.phase_index() - 1:
        return f"{name} died before the previous phase: his time to act is over"
    return ""


def _hunter_check(view: HookView, order: Order, ability: Ability) -> str:
    if view.option("tom_power") != "hunter":
        return "tom_power is not 'hunter'"
    if view.alive(order.actor):
        return "Tom's shot is fired when he dies"
    return _just_died(view, order.actor)


def _pad_check(view: HookView, order: Order, ability: Ability) -> str:
    minimum = int(ability.effect_params.get("min_players", 0))
    if len(view.names()) < minimum:
        return f"the anti-reveal power needs at least {minimum} living players"
    role = view.ruleset.roles.get(order.targets[1]) if len(order.targets) > 1 else None
    if role is None:
        return "name the player and the role you reveal"
    if str(ability.effect_params.get("only_roles")) not in role.tags:
        return f"the anti-reveal power works only on special villagers, not {role.id}"
    faction = view.faction(order.actor)
    for entry in view.history(ability.id):
        if entry.outcome == "done" and view.faction(entry.actor) == faction:
            return "the team's anti-reveal power is already used"
    return ""


def _lovers_check(view: HookView, order: Order, ability: Ability) -> str:
    if view.option("lovers_source") != "cupid":
        return "lovers_source is not 'cupid'"
    first_day = parse_phase(view.ruleset.phases.first, view.ruleset)
    if view.phase_index() != view.phase_index(first_day.id) + 1 or view.phase_kind != "night":
        return "the lovers are made on the first night only"
    return ""


def _discover_check(view: HookView, order: Order, ability: Ability) -> str:
    return "" if view.option("saki_discovery") == "night_search" else "saki_discovery is 'gm'"


def _cure_check(view: HookView, order: Order, ability: Ability) -> str:
    return "" if view.option("saika_cure") == "ability" else "saika_cure is 'gm'"


def _charm_check(view: HookView, order: Order, ability: Ability) -> str:
    """A charm on one's own lover: as ``charm_own_lover`` says (the GM's queue decided a
    ``gm`` one before it reached the resolver)."""
    partner = _partner(view, order.actor)
    if view.option("charm_own_lover") == "refused" and partner in order.targets:
        return "charm_own_lover is 'refused': a lover may not charm his partner"
    return ""


_CHECKS = {
    "charm": _charm_check,
    "mayor_vote": _only_day0,
    "candidacy": _only_day0,
    "tie_break": _tie_break_check,
    "name_successor": _successor_check,
    "revenge_shot": _hunter_check,
    "anti_reveal": _pad_check,
    "make_lovers": _lovers_check,
    "discover": _discover_check,
    "cure_ripper": _cure_check,
}


# -------------------------------------------------------------------------------- actions
_Act = Callable[[HookView, str, Ability, tuple[str, ...]], "Sequence[Primitive] | str"]


def _handler(act: _Act) -> Handler:
    """An ability's act as an ``effect: hook`` handler: its primitives, or the reason it
    failed. A phase's own triggered use (no order behind it) does nothing here."""

    def handle(view: HookView, action: ActionView) -> Handled:
        if action.index is None:
            return Handled()
        done = act(view, action.actor, action.ability, action.targets)
        if isinstance(done, str):
            return Handled("failed", done)
        return Handled(primitives=tuple(done))

    return handle


def _candidacy(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    return (_note("candidacy", player=actor),)


def _successor(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    if view.alive(actor):
        return (Primitive(Effect.LINK, actor, targets, {"kind": TESTAMENT}, TESTAMENT),)
    return _new_mayor(targets[0], actor, "named")


def _new_mayor(who: str, by: str, how: str) -> Sequence[Primitive]:
    return (_status(who, MAYOR, by), _note("mayor_successor", player=who, mayor=by, how=how))


def _pad(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive] | str:
    faction = view.faction(actor)
    if any(
        e.outcome == "done" and view.faction(e.actor) == faction for e in view.entries(ability.id)
    ):
        return "the team's anti-reveal power is already used"
    target, role = targets[0], targets[1]
    right = view.role(target).id == role
    victim = target if right else actor
    return (
        _kill(victim, actor, "anti_reveal"),
        _gm_note("anti_reveal", actor=actor, target=target, role=role, right=right),
    )


def _charm(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive] | str:
    by_role = dict(ability.effect_params.get("status_by_role", {}))
    status = by_role.get(view.role(actor).id)
    if status is None:
        return f"{view.role(actor).id} has no charm of his own"
    out = [_status(t, str(status), actor) for t in targets]
    out += [_note("charmed", (t,), charmer=view.role(actor).id) for t in targets]
    return out


def _cure(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    params = ability.effect_params
    if view.role(targets[0]).id != params.get("if_role"):
        return ()
    into = str(params.get("into"))
    return (Primitive(Effect.CONVERT, actor, targets, {"to": into}, ability.id),)


def _discover(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    params = ability.effect_params
    found = view.role(targets[0]).id == params.get("role")
    out = [_note("discover", (actor,), target=targets[0], found=found)]
    gang = dict(params.get("on_true", {})).get("joins_gang")
    if found and gang:
        out.append(_status(actor, f"gang_{gang}", actor))
    return out


def _make_lovers(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    a, b = targets
    return (
        Primitive(Effect.LINK, actor, (a, b), {"kind": LOVERS}, LOVERS),
        Primitive(Effect.LINK, actor, (b, a), {"kind": LOVERS}, LOVERS),
        _status(a, LOVER, actor),
        _status(b, LOVER, actor),
        _note("lovers_made", (actor,), lovers=[a, b]),
    )


def _nothing(
    view: HookView, actor: str, ability: Ability, targets: tuple[str, ...]
) -> Sequence[Primitive]:
    return ()  # mayor_vote and tie_break: read by the vote step


_ACTIONS: dict[str, _Act] = {
    "candidacy": _candidacy,
    "name_successor": _successor,
    "anti_reveal": _pad,
    "charm": _charm,
    "cure_ripper": _cure,
    "discover": _discover,
    "make_lovers": _make_lovers,
    "mayor_vote": _nothing,
    "tie_break": _nothing,
}
HANDLERS: dict[str, Handler] = {name: _handler(act) for name, act in _ACTIONS.items()}
"""Handler name (``effect_params.handler`` of an ``effect: hook`` ability) → its handler."""


# ---------------------------------------------------------------------------------- votes
def vote_problem(view: HookView, voter: str, target: str | None) -> str:
    """Lovers may not vote against each other."""
    if target is not None and target == _partner(view, voter):
        return "lovers may not vote against each other"
    return ""


def vote_step(view: HookView) -> Sequence[Primitive] | None:
    """Day 0 elects the mayor instead of lynching; later days lynch (None)."""
    if view.phase != view.ruleset.phases.first:
        return None
    ballots = _ballots(view)
    if not ballots:
        return (_note("mayor_election", tally=[], elected=None),)
    running: dict[str, int] = {}
    reached: dict[tuple[str, int], int] = {}
    for i, (_, target) in enumerate(ballots):
        running[target] = running.get(target, 0) + 1
        reached.setdefault((target, running[target]), i)
    top = max(running.values())
    leaders = [t for t, n in running.items() if n == top]
    if len(leaders) == 1:
        elected = leaders[0]
    elif view.option("election_tie") == "random":
        elected = view.draw("mayor_election_tie", leaders)
    else:  # the first to reach the leading count, in the order the ballots arrived
        elected = min(leaders, key=lambda t: reached[(t, top)])
    tally = [
        {"target": t, "voters": [v for v, x in ballots if x == t], "total": n}
        for t, n in running.items()
    ]
    return (
        _note("mayor_election", tally=tally, elected=elected, tie=len(leaders) > 1),
        _status(elected, MAYOR),
    )


def _ballots(view: HookView) -> list[tuple[str, str]]:
    """Valid election ballots in arrival order: the votes, then ``mayor_vote`` orders (a
    voter's later ballot replaces his earlier one and takes its place in the order)."""
    raw = [(v, t) for v, t in view.votes().items() if t is not None and t != "no_lynch"]
    raw += [(e.actor, e.targets[0]) for e in view.entries("mayor_vote") if e.targets]
    names = set(view.names(alive=None))
    ballots: dict[str, str] = {}
    for voter, target in raw:
        if voter in names and target in names and view.alive(voter) and view.alive(target):
            ballots.pop(voter, None)
            ballots[voter] = target
    return list(ballots.items())


def break_tie(view: HookView, leaders: Sequence[str]) -> str | None:
    """The living mayor's last tie-break order of the day, if it names one of the tied."""
    mayor = _living_mayor(view)
    if mayor is None:
        return None
    for entry in reversed(view.entries("tie_break")):
        if entry.actor == mayor and entry.targets:
            return entry.targets[0] if entry.targets[0] in leaders else None
    return None


# --------------------------------------------------------------------------- end of phase
def on_phase_end(view: HookView) -> Sequence[Primitive]:
    """A day: a lover who voted against his partner loses his vote in the next day's vote;
    a whole-day absentee is replaced, or struck from ``struck_from_day``. A night: the
    struck die in the morning, with the night's victim, their role announced."""
    if view.phase_kind != "day":
        return _lightning(view)
    out = list(_absences(view))
    if view.phase == view.ruleset.phases.first:
        return out
    for voter, target in view.votes().items():
        if voter in view.names() and target is not None and target == _partner(view, voter):
            out.append(_status(voter, VOTE_LOST))
            out.append(_note("vote_lost", (voter,), partner=target))
    return out


def _absences(view: HookView) -> Sequence[Primitive]:
    """'Un absent durant toute une période de jour sera remplacé, et foudroyé à partir du
    jour 5': the GM is told to replace him before that day, from it he is struck."""
    away = [n for n in view.absent() if view.alive(n) and not view.dying(n)]
    if not away or view.option("absence_replacement") != "replace_after_full_day":
        return ()
    if parse_phase(view.phase, view.ruleset).number < int(view.option("struck_from_day")):
        return tuple(_gm_note("replace_absent", player=n, phase=view.phase) for n in away)
    out: list[Primitive] = []
    for name in away:
        out += (_status(name, STRUCK), _gm_note("struck_pending", player=name, phase=view.phase))
    return out


def _lightning(view: HookView) -> Sequence[Primitive]:
    """'Il est annoncé foudroyé et meurt au matin en même temps que la victime de la nuit';
    'le rôle d'un joueur foudroyé sera publiquement annoncé'."""
    out: list[Primitive] = []
    for name in view.names():
        if view.has_status(name, STRUCK) and not view.dying(name):
            out.append(_kill(name, None, STRUCK))
            out.append(_note("struck", player=name, role=view.role(name).id))
    return out


def after_deaths(view: HookView, deaths: Mapping[str, str]) -> Sequence[Primitive]:
    """Lovers die together; a dead mayor's testament names his successor, else he is
    told he may name one (within ``mayor_hours``)."""
    out: list[Primitive] = []
    for name in deaths:
        partner = _partner(view, name)
        if partner and view.option("lovers_die_together") and view.alive(partner):
            out.append(_kill(partner, None, "grief"))
    for name in deaths:
        if view.has_status(name, MAYOR) and _living_mayor(view) is None:
            out += _succession(view, name)
    return out


def _succession(view: HookView, mayor: str) -> Sequence[Primitive]:
    heirs = [link.b for link in view.links(TESTAMENT) if link.a == mayor]
    if heirs and view.alive(heirs[-1]) and not view.dying(heirs[-1]):
        return _new_mayor(heirs[-1], mayor, "testament")
    return (
        _note("mayor_dead", player=mayor, hours=view.option("mayor_hours")),
        _note("name_successor", (mayor,), hours=view.option("mayor_hours")),
    )


def _partner(view: HookView, name: str) -> str | None:
    for link in view.links(LOVERS):
        if link.a == name:
            return link.b
    return None


def _living_mayor(view: HookView) -> str | None:
    return next((n for n in view.names() if view.has_status(n, MAYOR)), None)


# ----------------------------------------------------------------------------------- wins
@dataclass(frozen=True, slots=True)
class _Board:
    """The living players by side, as the win conditions read them."""

    living: tuple[str, ...]
    sides: Mapping[str, str]

    def of(self, side: str) -> list[str]:
        return [n for n in self.living if self.sides[n] == side]


def check_win(view: HookView) -> Winner | None:
    """The seed's victory conditions, its special situations first."""
    board = _Board(view.names(), {n: view.faction(n) for n in view.names()})
    if not board.living:
        return Winner((), (), "everyone_died", True)
    for check in (_izaya, _last_two, _wolves_majority, _village, _wolves, _charmers):
        found = check(view, board)
        if found is not None:
            return found
    return None


def _side_wins(view: HookView, side: str, reason: str) -> Winner:
    players = tuple(n for n in view.names(alive=None) if view.faction(n) == side)
    return Winner((side,), players, reason)


def _izaya(view: HookView, board: _Board) -> Winner | None:
    for name in board.of(IZAYA):
        for gang in GANGS:
            others = [n for n in view.names(alive=None) if n != name and view.has_status(n, gang)]
            if others and not any(view.alive(n) for n in others):
                return _side_wins(view, IZAYA, f"izaya:{gang}_eliminated")
    return None


def _last_two(view: HookView, board: _Board) -> Winner | None:
    if len(board.living) != 2:
        return None
    sides = sorted(board.sides[n] for n in board.living)
    charmer = next((n for n in board.living if board.sides[n] in CHARMERS), None)
    other = next((n for n in board.living if n != charmer), None)
    if sides == sorted([WOLVES, VILLAGE]):
        innocent = board.of(VILLAGE)[0]
        if _duel_winner(view, innocent):
            return _side_wins(view, VILLAGE, "last_two:innocent_beats_blue_square")
        return _side_wins(view, WOLVES, "last_two:blue_square_beats_innocent")
    if charmer is None or other is None:
        return None
    if board.sides[other] == VILLAGE:
        if view.has_status(other, MAYOR):
            return Winner((), (), "last_two:charmer_and_mayor_draw", True)
        return _side_wins(view, board.sides[charmer], "last_two:charmer_beats_innocent")
    if board.sides[other] == WOLVES:
        kind = parse_phase(view.next_phase(), view.ruleset).kind
        side = board.sides[charmer] if kind == "day" else WOLVES
        return _side_wins(view, side, f"last_two:{kind}_starts")
    return None


def _duel_winner(view: HookView, innocent: str) -> bool:
    """Celty with her death power left, or Tom, wins a last duel against a Blue Square."""
    role = view.role(innocent)
    if role.id == "tom":
        return True
    return role.id == "celty" and (view.uses_left(innocent, "death_power") or 0) > 0


def _wolves_majority(view: HookView, board: _Board) -> Winner | None:
    wolves = len(board.of(WOLVES))
    if wolves * 2 <= len(board.living):
        return None
    if any(_has_power(view, n) for n in board.living if board.sides[n] != WOLVES):
        return None
    return _side_wins(view, WOLVES, "blue_squares_majority")


def _has_power(view: HookView, name: str) -> bool:
    """A killer or protector with a kill or protection left (Celty, Shinra, Tom)."""
    role = view.role(name)
    if not any(tag in role.tags for tag in POWER_TAGS):
        return False
    for aid, ability in role.abilities.items():
        if ability.effect in (Effect.ATTACK, Effect.PROTECT):
            left = view.uses_left(name, aid)
            if left is None or left > 0:
                return True
    return False


def _village(view: HookView, board: _Board) -> Winner | None:
    if any(board.of(side) for side in (WOLVES, IZAYA, *CHARMERS)):
        return None
    return _side_wins(view, VILLAGE, "village:enemies_eliminated")


def _wolves(view: HookView, board: _Board) -> Winner | None:
    if board.of(VILLAGE) or board.of(IZAYA) or not board.of(WOLVES):
        return None
    return _side_wins(view, WOLVES, "blue_squares:village_and_izaya_eliminated")


def _charmers(view: HookView, board: _Board) -> Winner | None:
    for side in CHARMERS:
        rival = next(c for c in CHARMERS if c != side)
        for name in board.of(side):
            others = [n for n in board.living if n != name]
            if board.of(rival) or not all(view.has_status(n, CHARM_OF[side]) for n in others):
                continue
            return _side_wins(view, side, f"{side}:last_uncharmed")
    return None
