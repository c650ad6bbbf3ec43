"""Items (п.27) and their use, a night move (п.06) made in the step п.28 gives it: diplomas
first, vodka, then the cards; poison and the zip gun with the shots. The Fairy's gifts."""

from __future__ import annotations

from resolver.hooks.ru_mafia.attacks import attack_move
from resolver.hooks.ru_mafia.kernel import (
    FAIL,
    SUCCESS,
    add_item,
    answer,
    give_status,
    is_undead,
    item_count,
    living_role,
    night,
    player_target,
    take_item,
)
from resolver.hooks.ru_mafia.moves import send_on_trip
from resolver.work import Action, Work

STEP = {
    "diploma": "diplomas",
    "vodka": "vodka",
    "poison": "mafia_shot",
    "zip_gun": "rebel_shot",
}
PASSIVE = ("vest", "siren", "cross", "pistol", "knife", "clonidine", "explosive")


def item_of(action: Action) -> str:
    """The item a use names (its first target)."""
    return str(action.targets[0]) if action.targets else ""


def use_item(action: Action, work: Work) -> None:
    """Use an item now, or in the step its kind is used in."""
    item = item_of(action)
    if item_count(work, action.actor, item) <= 0:
        answer(work, action, FAIL, why=f"no {item}")
        return
    if item in PASSIVE:
        answer(work, action, SUCCESS, why="works by itself")
        return
    step = _step(action, item)
    if step != work.step:
        night(work).deferred.setdefault(step, []).append(action)
        answer(work, action, FAIL, why="pending")
        return
    USES.get(item, _unknown)(action, work)


def _step(action: Action, item: str) -> str:
    choice = str(action.order_params.get("choice", ""))
    if item == "boss_card" and choice == "shoot":
        return "mafia_shot"
    if item == "sheriff_card" and choice == "shoot":
        return "cops_shot"
    return STEP.get(item, "cards")


def run_deferred(work: Work) -> None:
    """Item uses waiting for this step (a blocked or absent user loses them)."""
    for action in night(work).deferred.pop(work.step, []):
        user = action.actor
        blocked = work.is_blocked(user) or any(work.status_effect(user, "blocks_actions"))
        if blocked or not work.players[user].alive:
            answer(work, action, FAIL, why="blocked")
            continue
        USES.get(item_of(action), _unknown)(action, work)


def _first(work: Work, *roles: str) -> str | None:
    """The first living holder of the first of these roles anyone holds."""
    for role in roles:
        found = living_role(work, role)
        if found:
            return found[0]
    return None


def _target(action: Action, work: Work) -> str | None:
    return next((t for t in action.targets[1:] if t in work.players), None)


def _spend(work: Work, action: Action) -> None:
    take_item(work, action.actor, item_of(action))


def _unknown(action: Action, work: Work) -> None:
    answer(work, action, FAIL, why="unknown item")


def diploma(action: Action, work: Work) -> None:
    """Doubles its user's vote at the next day vote."""
    _spend(work, action)
    give_status(work, action.actor, "double_vote", action.actor)
    answer(work, action, SUCCESS)


def vodka(action: Action, work: Work) -> None:
    """No move reaches him tonight, he makes none, his next-day vote is not counted."""
    _spend(work, action)
    give_status(work, action.actor, "drunk", action.actor)
    give_status(work, action.actor, "lost_vote", action.actor)
    answer(work, action, SUCCESS)


def poison(action: Action, work: Work) -> None:
    """A bottle of poison from the Fairy: the holder poisons a player."""
    target = _target(action, work)
    if target is None:
        answer(work, action, FAIL)
        return
    shot = Action(
        action.index,
        action.actor,
        work.ruleset.abilities["poison"],
        [target],
        {"method": "poison", "uses_item": "poison", "move_type": "item_poison"},
        work.step,
        action.actor,
    )
    attack_move(shot, work)
    answer(work, action, night(work).answers.pop((action.actor, "poison"))["result"])


def zip_gun(action: Action, work: Work) -> None:
    """One shot (silver if the game says so), by anyone, the undead included."""
    target = _target(action, work)
    if target is None:
        answer(work, action, FAIL)
        return
    if work.ruleset.option("zip_gun_silver") and not is_undead(work, target):
        take_item(work, action.actor, "zip_gun")
        answer(work, action, FAIL, why="a silver bullet harms only the undead")
        return
    silver = bool(work.ruleset.option("zip_gun_silver"))
    shot = Action(
        action.index,
        action.actor,
        work.ruleset.abilities["zip_gun_shot"],
        [target],
        {
            "method": "silver" if silver else "shot",
            "uses_item": "zip_gun",
            "move_type": "item_zip_gun",
        },
        work.step,
        action.actor,
    )
    attack_move(shot, work)
    answer(work, action, night(work).answers.pop((action.actor, "zip_gun_shot"))["result"])


def antidote(action: Action, work: Work) -> None:
    """Cures poisoning (the user, or the player named)."""
    from resolver.hooks.ru_mafia.moves import _cure

    _spend(work, action)
    _cure(work, _target(action, work) or action.actor, ("poisoned", "bitten"))
    answer(work, action, SUCCESS)


def rebel_card(action: Action, work: Work) -> None:
    """The holder becomes a Follower that night."""
    _spend(work, action)
    night(work).joins.append((action.actor, "follower"))
    answer(work, action, SUCCESS)


def boss_card(action: Action, work: Work) -> None:
    """Join a mafia clan at dawn (``choice: join``), or send the Boss (else a Mafioso) to
    shoot the player named, whatever his own move."""
    _spend(work, action)
    target = _target(action, work)
    if str(action.order_params.get("choice", "join")) != "shoot" or target is None:
        clan = str(action.order_params.get("clan", "mafia"))
        night(work).joins.append((action.actor, f"clan:{clan}"))
        answer(work, action, SUCCESS)
        return
    shooter = _first(work, "mafia_boss", "mafioso")
    _send_shot(action, work, shooter, "shoot", target)


def sheriff_card(action: Action, work: Work) -> None:
    """Become the Investigator if there is none, or send the Sheriff to shoot."""
    _spend(work, action)
    target = _target(action, work)
    if str(action.order_params.get("choice", "")) != "shoot" or target is None:
        if living_role(work, "investigator"):
            answer(work, action, FAIL, why="an Investigator is in play")
            return
        night(work).joins.append((action.actor, "investigator"))
        answer(work, action, SUCCESS)
        return
    shooter = _first(work, "sheriff")
    _send_shot(action, work, shooter, "cop_shoot", target)


def _send_shot(action: Action, work: Work, shooter: str | None, ability: str, target: str) -> None:
    if shooter is None:
        answer(work, action, FAIL, why="nobody to send")
        return
    spec = work.ruleset.abilities[ability]
    shot = Action(
        None,
        shooter,
        spec,
        [target],
        {**spec.effect_params, "move_type": "card"},
        work.step,
        shooter,
    )
    attack_move(shot, work)
    result = night(work).answers.pop((shooter, ability))["result"]
    answer(work, action, result)


def doctor_card(action: Action, work: Work) -> None:
    """The Doctor (or Nurse) also visits the player named, with his own effect."""
    _spend(work, action)
    target = _target(action, work)
    healer = _first(work, "doctor", "nurse")
    if target is None or healer is None:
        answer(work, action, FAIL)
        return
    if work.players[healer].role == "doctor":
        night(work).heals[target] = healer
    else:
        night(work).pumped.add(target)
    answer(work, action, SUCCESS)


def journalist_card(action: Action, work: Work) -> None:
    """The Journalist also follows the player named."""
    _spend(work, action)
    target = _target(action, work)
    journalist = _first(work, "journalist")
    if target is None or journalist is None:
        answer(work, action, FAIL)
        return
    night(work).watches.append((journalist, target, "shadow"))
    answer(work, action, SUCCESS)


def tour_voucher(action: Action, work: Work) -> None:
    """Sends another player on a tour or an excursion (``choice``), Tour operator or not."""
    target = _target(action, work)
    if target is None or target == action.actor:
        answer(work, action, FAIL, why="not oneself")
        return
    _spend(work, action)
    status = "on_excursion" if action.order_params.get("choice") == "excursion" else "on_tour"
    send_on_trip(work, action, target, status)
    answer(work, action, SUCCESS)


def gift(action: Action, work: Work) -> None:
    """The Fairy's gift, one of each until all are given; usable after the gift night."""
    target = player_target(work, action)
    item = str(action.order_params.get("item", ""))
    listed = list(action.params.get("gift_list", ()))
    given = {
        f.split(":", 1)[1] for f in work.players[action.actor].flags if f.startswith("gifted:")
    }
    if target is None or item not in listed or item in given:
        answer(work, action, FAIL, why="gift not available")
        return
    flags = work.players[action.actor].flags
    flags.add(f"gifted:{item}")
    if given | {item} >= set(listed):  # после раздачи всех подарков они обновляются
        flags.difference_update({f"gifted:{i}" for i in listed})
    night(work).gifts.append((target, item))
    answer(work, action, SUCCESS)


def deliver_gifts(work: Work) -> None:
    """Gifts reach their owners at dawn."""
    for target, item in night(work).gifts:
        add_item(work, target, item)


USES = {
    "diploma": diploma,
    "vodka": vodka,
    "poison": poison,
    "zip_gun": zip_gun,
    "antidote": antidote,
    "rebel_card": rebel_card,
    "boss_card": boss_card,
    "sheriff_card": sheriff_card,
    "doctor_card": doctor_card,
    "journalist_card": journalist_card,
    "tour_voucher": tour_voucher,
}
