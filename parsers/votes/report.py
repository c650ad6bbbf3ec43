"""The ``count-votes`` JSON of a :class:`~parsers.votes.model.CountResult` (plain data)."""

from __future__ import annotations

from typing import Any

from parsers.votes.model import CountResult, Voter, Wagon

__all__ = ["result_as_json"]


def _voter(voter: Voter) -> dict[str, Any]:
    return {
        "name": voter.name,
        "post_id": voter.post_id,
        "post_number": voter.post_number,
        "weight": voter.weight,
    }


def _wagon(wagon: Wagon) -> dict[str, Any]:
    return {
        "target": wagon.target,
        "votes": wagon.total,
        "raw_votes": wagon.raw,
        "modifiers": list(wagon.notes),
        "voters": [_voter(v) for v in wagon.voters],
        "withdrawn": [_voter(v) for v in wagon.withdrawn],
    }


def result_as_json(result: CountResult) -> dict[str, Any]:
    """The stable ``count-votes --json`` payload (extend with new keys, never rename).

    Args:
        result: the count.

    Returns:
        A JSON-ready mapping: ``tally`` (per target the voters in order), ``not_voting``,
        ``pending``, ``events`` (every vote event with its post id), ``queue``, ``edits``,
        ``decision``, ``alive``, ``majority``, ``last_post`` and ``notes``.
    """
    decision = result.decision
    return {
        "tally": [_wagon(w) for w in result.wagons],
        "not_voting": list(result.not_voting),
        "pending": list(result.pending),
        "alive": list(result.alive),
        "majority": decision.majority,
        "decision": {
            "lynched": decision.lynched,
            "no_lynch": decision.no_lynch,
            "tied": list(decision.tied),
            "pending": decision.pending,
            "reason": decision.reason,
            "outcome": decision.outcome,
            "ended": decision.ended,
            "hammer_post": decision.hammer_post,
            "waits_for": decision.waits_for,
        },
        "events": [e.as_json() for e in result.events],
        "queue": [q.as_json() for q in result.queue],
        "edits": [
            {"post_id": e.post_id, "voter": e.voter, "before": e.before, "after": e.after}
            for e in result.edits
        ],
        "last_post": result.last_post,
        "notes": list(result.notes),
        "timeline": [
            {
                "post": snap.post,
                "time": snap.time.isoformat() if snap.time else None,
                "wagons": [{"target": t, "votes": n, "voters": list(v)} for t, n, v in snap.wagons],
            }
            for snap in result.timeline
        ],
    }
