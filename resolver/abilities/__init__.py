"""The effect primitives: one small module each, dispatched by ``Effect`` through ``ABILITIES``.

Abilities in a ruleset and primitives emitted by hooks both run through this table, so a
hook can never change the game except through these.
"""

from __future__ import annotations

from collections.abc import Callable

from resolver.abilities import (
    appearance,
    attack,
    block,
    convert,
    counter,
    grant,
    hook,
    investigate,
    item,
    link,
    none,
    notify,
    protect,
    redirect,
    schedule,
    status,
    swap,
    vote_modifier,
)
from resolver.model.catalogue import Effect
from resolver.work import Action, Work

Apply = Callable[[Action, Work], None]

ABILITIES: dict[Effect, Apply] = {
    Effect.BLOCK: block.apply,
    Effect.REDIRECT: redirect.apply,
    Effect.SWAP: swap.apply,
    Effect.PROTECT: protect.apply,
    Effect.ATTACK: attack.apply,
    Effect.STATUS: status.apply,
    Effect.ITEM: item.apply,
    Effect.VOTE_MODIFIER: vote_modifier.apply,
    Effect.INVESTIGATE: investigate.apply,
    Effect.APPEARANCE: appearance.apply,
    Effect.CONVERT: convert.apply,
    Effect.LINK: link.apply,
    Effect.SCHEDULE: schedule.apply,
    Effect.COUNTER: counter.apply,
    Effect.GRANT: grant.apply,
    Effect.NOTIFY: notify.apply,
    Effect.NONE: none.apply,
    Effect.HOOK: hook.apply,
}
"""Effect primitive → the function that applies it."""
