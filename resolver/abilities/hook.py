"""Hook: the ruleset's hook module decides (``HANDLERS[handler]``), returning primitives.

For mechanics a ruleset's data cannot express (DCTP's claims over the action ledger, arrests
for a named crime). The handler reads the game through a ``HookView`` and answers with a
``Handled``: the order's outcome and primitives, applied here exactly like an ability's;
``late`` primitives are computed once every action of the phase has resolved.
"""

from __future__ import annotations

from resolver.hookspecs import ActionView, Handled, HookView
from resolver.work import Action, Work


def apply(action: Action, work: Work) -> None:
    """Run the handler named by ``handler`` and apply what it returns."""
    handler = getattr(work.hooks, "HANDLERS", {})[str(action.params["handler"])]
    view = ActionView(
        action.index,
        action.actor,
        action.ability,
        tuple(action.targets),
        action.ordered,
        action.params,
        action.order_params,
        action.performer,
        action.step,
    )
    handled: Handled = handler(HookView(work), view)
    action.outcome, action.reason = handled.outcome, handled.reason
    for prim in handled.primitives:
        work.apply_primitive(prim)
    late = handled.late
    if late is not None:

        def later(w: Work) -> None:
            for prim in late(HookView(w)):
                w.apply_primitive(prim)

        work.late.append(later)
