"""Where the Day ends: the post that reaches a majority (``vote.majority_ends_day``).

The counter calls :meth:`DayEndWatch.check` after every post that changed the votes. Once a
wagon reaches the votes that end the Day, the hammer is recorded and later votes do not
count. Doubtful votes (queued names, votes by accounts off the roster) are tracked too: if
they could have brought another wagon to a majority first, or could undo the hammer, the
Day's decision is undecided and goes to the GM.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parsers.votes.lynch import Hammer, Standing
from parsers.votes.model import PostInput

__all__ = ["DayEndWatch"]


@dataclass(slots=True)
class DayEndWatch:
    """The highest each wagon could have been with the doubtful votes, and the hammer.

    Attributes:
        could_reach: per target, the most votes it had plus the doubtful votes of the time.
        could_reach_new: the most doubtful votes at any time (a wagon not on the board).
        hammer: the post that ended the Day, once one did.
    """

    could_reach: dict[str, int] = field(default_factory=dict)
    could_reach_new: int = 0
    hammer: Hammer | None = None

    def check(self, now: Standing, post: PostInput) -> Hammer | None:
        """Record the standing after ``post``; returns the hammer when this post ended the Day."""
        if self.hammer is not None:
            return None
        if now.doubtful:
            for wagon in now.wagons:
                seen = self.could_reach.get(wagon.target, 0)
                reach = wagon.total + now.doubt_for(wagon.target)
                self.could_reach[wagon.target] = max(seen, reach)
            for target in {n for _, names in now.limited for n in names} - {
                w.target for w in now.wagons
            }:
                reach = now.doubt_for(target)
                self.could_reach[target] = max(self.could_reach.get(target, 0), reach)
            self.could_reach_new = max(self.could_reach_new, now.doubt_for(None))
        reached = [w for w in now.wagons if w.total >= now.threshold(w.target)]
        if not reached:
            return None
        wagon = reached[0]
        where: int | str = post.number if post.number is not None else post.id
        doubts = self._doubts(now, wagon.target, wagon.total)
        self.hammer = Hammer(where, wagon.target, wagon.total, now.threshold(wagon.target), doubts)
        return self.hammer

    def _doubts(self, now: Standing, target: str, total: int) -> tuple[str, ...]:
        out = []
        others = sorted(
            t for t, n in self.could_reach.items() if t != target and n >= now.threshold(t)
        )
        if others:
            names = ", ".join(others)
            out.append(f"the votes waiting for the GM could have ended the Day on {names} first")
        elif self.could_reach_new >= min(now.majority, now.no_lynch_majority):
            out.append(
                "the votes waiting for the GM could have ended the Day on another wagon first"
            )
        if total - now.outsiders < now.threshold(target):
            out.append(
                f"{now.outsiders} vote(s) by accounts off the roster may be replacements "
                f"whose vote would take {target} below the majority"
            )
        return tuple(out)

    def could_have_ended(self, now: Standing) -> tuple[str, ...]:
        """Wagons the doubtful votes could have brought to a majority (no hammer fell)."""
        found = sorted(t for t, n in self.could_reach.items() if n >= now.threshold(t))
        if not found and self.could_reach_new >= min(now.majority, now.no_lynch_majority):
            found = ["a new wagon"]
        return tuple(found)
