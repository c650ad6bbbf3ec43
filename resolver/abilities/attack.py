"""Attack: try to kill the targets (Mafia kill, Vigilante shot, Serial Killer, ignite).

Parameters: ``kind`` (the attack kind immunities name), ``pierces`` (``immunity``,
``protection``), ``targets_status`` (attack every living player with that status instead of
targets; ``ignite_burns: own_doused`` limits it to the actor's), ``clears_status``,
``spreads_to_visitors`` (visitors of a victim who dies also die), ``performer_tag`` (the
living faction member with this role tag carries it out and is the visitor), ``attacker_is``
(``performer`` or ``orderer``: who a Bodyguard's counter-attack hits).
"""

from __future__ import annotations

from resolver.combat import attack
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Attack each victim through the combat rules."""
    params = action.params
    kind = str(params.get("kind", "kill"))
    pierces = tuple(params.get("pierces", ()))
    victims = _victims(action, work)
    attacker = action.actor if params.get("attacker_is") == "orderer" else action.performer
    for victim in victims:
        outcome = attack(work, victim, attacker, kind, pierces, cause=action.ability.id)
        action.result.setdefault("outcomes", {})[victim] = outcome
        if params.get("spreads_to_visitors"):
            work.spreads.append((victim, kind, action.performer, params))
    status = params.get("targets_status")
    if status and params.get("clears_status"):
        own = work.ruleset.options.get("ignite_burns")
        for p in work.players.values():
            s = p.status(status)
            if s and (own is None or own.value != "own_doused" or s.source == action.actor):
                p.statuses.remove(s)


def _victims(action: Action, work: Work) -> list[str]:
    status = action.params.get("targets_status")
    if not status:
        return list(action.targets)
    own = work.ruleset.options.get("ignite_burns")
    only_own = own is not None and own.value == "own_doused"
    return [
        p.name
        for p in work.living()
        if (s := p.status(status)) and (not only_own or s.source == action.actor)
    ]
