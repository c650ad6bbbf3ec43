"""Natural-text order parser: a PM in English, French or Russian to structured orders.

``parse_order`` (or a warm ``OrderParser`` per ruleset) returns a ``ParseResult``: accepted,
ambiguous (with ranked candidates for the GM queue) or rejected (with the rule broken).
"""

from parsers.orders.history import DayResult, Handoff, History, PastOrder, history_from_data
from parsers.orders.model import (
    Candidate,
    Claim,
    Crime,
    Kind,
    Learned,
    Order,
    ParseResult,
    Slot,
    Status,
)
from parsers.orders.parse import OrderParser, parse_order

__all__ = [
    "Candidate",
    "Claim",
    "Crime",
    "DayResult",
    "Handoff",
    "History",
    "Kind",
    "Learned",
    "Order",
    "OrderParser",
    "ParseResult",
    "PastOrder",
    "Slot",
    "Status",
    "history_from_data",
    "parse_order",
]
