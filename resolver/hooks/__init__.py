"""Registry of ruleset hook modules: plain functions for what ruleset data cannot say."""

from __future__ import annotations

from types import ModuleType

from resolver.hooks import dctp, durarara, failheap, ru_mafia

HOOKS: dict[str, ModuleType] = {
    "dctp": dctp,
    "durarara": durarara,
    "failheap": failheap,
    "ru_mafia": ru_mafia,
}
"""Hook module per name used in a ruleset's ``hooks:`` key."""
