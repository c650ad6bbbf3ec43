"""Vote counting: post HTML to vote events, the tally, the GM queue and the lynch decision.

Pure (no I/O). The pieces, in pipeline order:

* :mod:`parsers.votes.config`: the ruleset's ``vote:`` section as :class:`VoteRules`;
* :mod:`parsers.votes.setup`: the day part of a SETUP file (deadline, events, corrections);
* :mod:`parsers.votes.extract`: the vote actions written in one post, per syntax;
* :mod:`parsers.votes.count`: the replay of a day's posts (:func:`count_votes`);
* :mod:`parsers.votes.lynch`: weights, modifiers and the lynch rule;
* :mod:`parsers.votes.report`: the ``count-votes`` JSON.
"""

from parsers.votes.config import (
    Channel,
    EditPolicy,
    LynchRule,
    RevotePolicy,
    Syntax,
    TieRule,
    VoteRules,
    rules_for,
    rules_from_data,
)
from parsers.votes.count import count_votes
from parsers.votes.extract import extract_actions
from parsers.votes.model import (
    NO_LYNCH,
    Action,
    CountResult,
    DayEvent,
    DayEventKind,
    Decision,
    EventStatus,
    PostInput,
    QueueItem,
    Source,
    VoteEvent,
    Wagon,
)
from parsers.votes.report import result_as_json
from parsers.votes.setup import DaySetup, day_from_data

__all__ = [
    "NO_LYNCH",
    "Action",
    "Channel",
    "CountResult",
    "DayEvent",
    "DayEventKind",
    "DaySetup",
    "Decision",
    "EditPolicy",
    "EventStatus",
    "LynchRule",
    "PostInput",
    "QueueItem",
    "RevotePolicy",
    "Source",
    "Syntax",
    "TieRule",
    "VoteEvent",
    "VoteRules",
    "Wagon",
    "count_votes",
    "day_from_data",
    "extract_actions",
    "result_as_json",
    "rules_for",
    "rules_from_data",
]
