"""End of a phase: late results, deaths, succession, expiry, win check (hooks run in the engine)."""

from __future__ import annotations

from collections.abc import Callable

from resolver.abilities.convert import convert
from resolver.errors import InvariantViolation
from resolver.model.events import EventKind, Visibility
from resolver.model.state import GameState, Winner
from resolver.phases import index_of, parse_phase
from resolver.win import check_win
from resolver.work import Work


def settle_deaths(work: Work) -> dict[str, str]:
    """Run the late results, then kill the dying; returns each new death's attack kind.

    The engine runs the ruleset's ``after_deaths`` hook on the result before ``finish``.
    """
    for late in list(work.late):
        late(work)
    return _deaths(work)


def kill_dying(work: Work) -> dict[str, str]:
    """Kill the players marked dying since the last settlement (deaths a hook caused)."""
    return _deaths(work)


def finish(work: Work, win_check: Callable[[Work], Winner | None] | None = None) -> None:
    """Settle the rest of the phase in place: succession, status expiry, the win check
    (``win_check``, the ruleset hook's own, replaces the ruleset's ``win.check``)."""
    _succession(work)
    _expire(work)
    winner = win_check(work) if win_check is not None else check_win(work)
    if winner is not None:
        work.winner = winner
        work.emit(
            EventKind.GAME_OVER,
            Visibility.PUBLIC,
            factions=list(winner.factions),
            players=list(winner.players),
            reason=winner.reason,
            draw=winner.draw,
        )


def _deaths(work: Work) -> dict[str, str]:
    deaths: dict[str, str] = {}
    for name, dying in work.dying.items():
        player = work.players[name]
        if not player.alive:
            continue
        hidden = any(work.status_effect(name, "hides_role_on_death"))
        player.alive, player.died, player.cause, player.role_hidden = (
            False,
            work.phase.id,
            dying.kind,
            hidden,
        )
        deaths[name] = dying.kind
        cause = "lynch" if dying.kind == "lynch" else "killed"
        work.emit(
            EventKind.DEATH,
            Visibility.PUBLIC,
            player=name,
            role=None if hidden else player.role,
            cause=cause,
        )
        work.gm(
            EventKind.DEATH,
            player=name,
            role=player.role,
            attack=dying.kind,
            attacker=dying.attacker,
            cause=dying.cause,
            hidden=hidden,
        )
        if hidden:
            _tell_cleaners(work, name)
    return deaths


def _tell_cleaners(work: Work, name: str) -> None:
    defs = work.ruleset.statuses
    for status in work.players[name].statuses:
        sdef = defs.get(status.id)
        if sdef and sdef.effects.get("reveal_role_to_source") and status.source:
            work.tell(
                status.source,
                EventKind.RESULT,
                ability=status.id,
                target=name,
                result=work.players[name].role,
            )


def _succession(work: Work) -> None:
    """When nobody alive holds a role some dead player held, its first living heir takes it."""
    changed = True
    while changed:
        changed = False
        for rule in work.ruleset.succession:
            living = work.living()
            if any(p.role == rule.role for p in living):
                continue
            if not any(p.role == rule.role and not p.alive for p in work.players.values()):
                continue
            heir = next((p for h in rule.heirs for p in living if p.role == h), None)
            if heir is None:
                continue
            old_abilities = work.role_of(heir.name).abilities
            old_uses = dict(heir.uses)
            convert(work, heir.name, rule.role, cause="succession")
            if rule.keeps_abilities:
                heir.granted += [a for a in old_abilities if a not in heir.granted]
                heir.uses.update({a: n for a, n in old_uses.items() if a in old_abilities})
            changed = True


def _expire(work: Work) -> None:
    now = index_of(work.phase, work.ruleset)
    ends: dict[str, int] = {}
    for player in work.players.values():
        if not player.statuses:
            continue
        keep = []
        for s in player.statuses:
            if s.until is not None and s.until not in ends:
                ends[s.until] = index_of(parse_phase(s.until, work.ruleset), work.ruleset)
            if s.until is None or ends[s.until] > now:
                keep.append(s)
        player.statuses = keep


def _check_invariants(work: Work) -> None:
    """Bugs, not game situations: every player holds a role of the ruleset.

    (A faction the ruleset does not declare is tolerated: it only names a team.)
    """
    roles = work.ruleset.roles
    for p in work.players.values():
        if p.role not in roles:
            raise InvariantViolation(f"{p.name} has role {p.role!r}, unknown to {work.ruleset.id}")


def freeze(work: Work, state: GameState) -> GameState:
    """The new frozen state from the scratchpad.

    Raises:
        InvariantViolation: the scratchpad became inconsistent (a bug in the engine).
    """
    _check_invariants(work)
    return GameState(
        ruleset=state.ruleset,
        seed=state.seed,
        players=tuple(p.freeze() for p in work.players.values()),
        phase=work.phase.id,
        ledger=tuple(work.ledger),
        links=tuple(work.links),
        scheduled=tuple(work.scheduled),
        winner=work.winner or state.winner,
        lynched=tuple(work.lynched),
        options=state.options,
    )
