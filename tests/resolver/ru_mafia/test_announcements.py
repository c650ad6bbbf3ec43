"""п.17: the first post of a day and the private results, rendered in Russian."""

from __future__ import annotations

from forumbot.render import EventRenderer
from resolver.scenario import parse_scenario, resolutions

SCENARIO = {
    "ruleset": "ru_mafia",
    "options": {"villager_gifts": "none"},
    "players": {
        "Маша": "villager",
        "Вася": "mafioso",
        "Петя": "maniac",
        "Оля": "villager",
        "Коля": "villager",
        "Зоя": "doctor",
    },
    "phases": [
        {
            "phase": "day1",
            "votes": {
                "Маша": "Вася",
                "Петя": "Вася",
                "Оля": "Вася",
                "Коля": "Вася",
                "Вася": "Маша",
                "Зоя": "Маша",
            },
        },
        {
            "phase": "night1",
            "orders": [{"actor": "Петя", "ability": "maniac_kill", "targets": ["Маша"]}],
        },
    ],
}


def _posts() -> list[tuple[str, str, dict[str, list[str]]]]:
    scenario = parse_scenario(SCENARIO)
    renderer = EventRenderer.create(scenario.ruleset)
    out = []
    for _, res in resolutions(scenario)[1:]:
        phase = str(res.state.phase)
        out.append(
            (phase, renderer.phase_post(phase, res.events), renderer.private_messages(res.events))
        )
    return out


def test_morning_post_follows_the_seed_scheme() -> None:
    """«Сел: %name / Убит: %surname / Фракция_%1: 0/1/..» — counts, never who is which."""
    _, post, _ = _posts()[1]
    lines = [line for line in post.splitlines() if line][1:]
    assert lines == [
        "Сел: Вася",
        "Убит: Маша",
        "Мафия: 1",
        "Мирные: 1",
        "Одиночки: 0",
        "Нечисть: 0",
    ]
    assert "Мирный житель" not in post and "Рядовой" not in post  # roles are never shown (п.16)


def test_day_post_has_the_vote_log_and_the_final_count() -> None:
    """п.17 «результаты посадки предыдущего дня с указанием количества окончательных голосов»."""
    _, post, _ = _posts()[0]
    assert "Лог голосования" in post
    assert "Вася (4): Маша, Петя, Оля, Коля" in post
    assert "окончательных голосов: 4" in post


def test_private_results_are_russian_and_say_udachno() -> None:
    """п.17: the actor is told «удачно» / «неудачно»; a dead player gets nothing (п.11)."""
    _, _, pms = _posts()[1]
    assert pms["Петя"] == ["Убийство с особой жестокостью (Маша): удачно."]
    assert "Маша" not in pms
