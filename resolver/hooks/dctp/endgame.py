"""The end of a DCTP game, as seed 000 words it.

"The game is not over until winning for one side is impossible, given the entire BO votes for
one person. Note that normally, this means the BO wins when the number of BO = number of town,
however there are a few exceptions ... If a character able to arrest is in the game, the game
won't end ... If it's a Night phase and the BO has 1 more players than the town, and the town
lacks any police + the ability to stop the night killing, the BO wins that phase."
Detention: "If all BO players are either dead or arrested and the only remaining BO is in
detention, the game ends". Lovers: "A Town/town pair wins together with the town. A BO/BO pair
wins together with the BO. A Town/BO pair doesn't win when the town or the BO wins. To win as a
town/BO pair they need to kill everyone else. Lovers can win while one or both are arrested."
"""

from __future__ import annotations

from resolver.hooks.dctp.common import AWAY, JAILED, bo, has, lover_of
from resolver.hookspecs import HookView
from resolver.model.state import Winner

ARRESTS = ("arrest", "hold", "detention", "house_search")
LOST = {"hold": "hold_lost", "house_search": "house_search_lost"}
STOPPERS = ("protect", "heal", "first_aid", "discombobulate", "snipe_guard", "tranquilizer_watch")


def _mixed(view: HookView, name: str) -> bool:
    lover = lover_of(view, name)
    return lover is not None and bo(view, lover) != bo(view, name)


def _can(view: HookView, name: str, abilities: tuple[str, ...]) -> bool:
    """A free town player who has (or may regain) one of these abilities."""
    if has(view, name, *JAILED) or bo(view, name):
        return False
    role = view.role(name).abilities
    return any(a in role and not view.has_status(name, LOST.get(a, "")) for a in abilities)


def _winner(view: HookView, side: str, reason: str) -> Winner:
    everyone = view.names(alive=None)
    players = [n for n in everyone if (bo(view, n) == (side == "bo")) and not _mixed(view, n)]
    return Winner((side,), tuple(players), reason)


def check_win(view: HookView) -> Winner | None:
    """Town: no BO left free. BO: the town can no longer win (parity, no arrester; the night
    special case). A Town/BO lover pair: the last two alive."""
    alive = view.names()
    if not alive:
        return Winner((), (), "everyone_died", draw=True)
    pair = [n for n in alive if _mixed(view, n)]
    if len(alive) == 2 and len(pair) == 2 and lover_of(view, pair[0]) == pair[1]:
        return Winner(("lovers_mixed",), tuple(pair), "lovers_last_alive")
    free = [n for n in alive if not has(view, n, *JAILED)]
    bo_free = [n for n in free if bo(view, n)]
    town = [n for n in free if not bo(view, n)]
    if not bo_free:
        return _winner(view, "town", "bo_neutralised")
    if not town:
        return _winner(view, "bo", "town_neutralised")
    voters = [n for n in town if not has(view, n, *AWAY)]
    police = any(_can(view, n, ARRESTS) for n in town)
    if len(bo_free) >= len(voters) and not police:
        return _winner(view, "bo", "parity")
    special = view.option("night_special_case") == "town_one_more"
    stoppers = any(_can(view, n, STOPPERS) for n in town)
    if (
        special
        and view.kind() == "day"
        and len(voters) == len(bo_free) + 1
        and not police
        and not stoppers
    ):
        return _winner(view, "bo", "night_kill_makes_parity")
    return None
