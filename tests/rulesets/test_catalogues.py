"""The DCTP, Durarara and Russian catalogues checked against their rulebooks (seeds 000-004).

The seed facts are copied into the tables below (with the seed's own words) so the tests run
without the shared seeds; when the seeds are present (``FORUMBOT_SEEDS`` or ``../shared/seeds``
beside the repository) the tables are also checked to be complete against the seed text.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.model.catalogue import Ruleset
from resolver.ruleset import RULESETS_DIR, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "fixtures" / "seed-examples"
CATALOGUES = ("dctp", "durarara", "ru_mafia")
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def _seeds_dir() -> Path | None:
    for candidate in (os.environ.get("FORUMBOT_SEEDS"), ROOT.parent / "shared" / "seeds"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


SEEDS = _seeds_dir()


def _seed_text(name: str) -> str:
    if SEEDS is None:
        pytest.skip("the seed rulebooks are not on this machine")
    return (SEEDS / name).read_text(encoding="utf-8")


@functools.cache
def _load(rid: str) -> Ruleset:
    return load_ruleset(rid)


@pytest.fixture(scope="module", params=CATALOGUES)
def ruleset(request: pytest.FixtureRequest) -> Ruleset:
    return _load(request.param)


# --------------------------------------------------------------------------------------------
# Seed 000: every "Roles with that action/Status: ..." line -> (ability or status, role names).
# The first element is the line as the seed writes it (after "- ").
DCTP_ROLE_LINES: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("Roles with that Status: Anokata or chosen leader", ("status:leader",), ("Anokata",)),
    ("Roles with that Status: Sonoko and her friend", ("status:friend",), ("Sonoko",)),
    ("Role with that Status: James Black", ("status:fbi_leader",), ("James Black",)),
    ("Roles with that status: Kir", ("status:noc",), ("Kir",)),
    ("Roles with that status: Kogoro", ("status:drunk",), ("Kogoro",)),
    (
        "Roles with that Status: Mitsuhiko, Ayumi, Genta",
        ("status:detective_boy",),
        ("Mitsuhiko", "Ayumi", "Genta"),
    ),
    ("Roles with that action: Vermouth, 1412", ("disguise",), ("Vermouth", "1412")),
    (
        "Roles with that action: Yukiko Kudô, Irish",
        ("choose_costumes", "temporary_disguise"),
        ("Yukiko Kudô", "Irish"),
    ),
    ("Roles with that action: Yumi", ("amor",), ("Yumi",)),
    ("Roles with that action: Sonoko", ("friendship",), ("Sonoko",)),
    ("Role with that action: Hakuba, Makoto", ("travel",), ("Hakuba", "Makoto")),
    ("Roles with that action: Anokata", ("chameleon",), ("Anokata",)),
    ("Roles with that action: Gin", ("cloak_of_deception",), ("Gin",)),
    ("Roles with that action: Vermouth", ("master_of_disguise",), ("Vermouth",)),
    ("Roles with that action: Pisco", ("erase_body",), ("Pisco",)),
    ("Roles with that action: Irish", ("grab_costume",), ("Irish",)),
    ("Roles with that action: Vodka", ("heavy_handed",), ("Vodka",)),
    ("Roles with that action: Chianti", ("headshot",), ("Chianti",)),
    ("Roles with that action: Korn", ("quickshot",), ("Korn",)),
    ("Roles with that action: Calvados", ("longshot",), ("Calvados",)),
    ("Roles with that action: Tequila", ("insult_to_injury",), ("Tequila",)),
    ("Roles with that action: Sherry", ("mad_science",), ("Sherry",)),
    ("Roles with that action: Akemi", ("peek",), ("Akemi",)),
    ("Role with that action: Anokata", ("frame",), ("Anokata",)),
    ("Role with that action: Gin", ("slander",), ("Gin",)),
    ("Roles with that Action: all BO", ("aptx",), ("all BO",)),
    ("Role with that action: Anokata or BO Leader", ("hand_suitcase",), ("Anokata",)),
    ("Role with that action: Agasa", ("bow_tie", "tranquilizer_watch"), ("Agasa",)),
    ("Role with that action: Haibara", ("follow",), ("Haibara",)),
    ("Role with that action: Kazuha", ("accompany", "protection_charm"), ("Kazuha",)),
    ("Roles with that action: Eri, Kobayashi", ("voice_of_reason",), ("Eri", "Kobayashi")),
    ("Roles with that action: Kujou", ("voice_of_accusation",), ("Kujou",)),
    ("Role with that action: Ayumi", ("identify",), ("Ayumi",)),
    ("Role with that action: Mitsuhiko", ("db_investigate",), ("Mitsuhiko",)),
    ("Role with that action: Genta", ("db_detect",), ("Genta",)),
    ("Roles with that: Kogoro", ("analyze",), ("Kogoro",)),
    (
        "Role with that action: Megure, Satou, Takagi, Shiratori, Chiba, Yumi, Yamato",
        ("arrest",),
        ("Megure", "Satou", "Takagi", "Shiratori", "Chiba", "Yumi"),
    ),
    ("Role with that action: Satou, Yamamura", ("detention", "release"), ("Satou", "Yamamura")),
    ("Role with this action: Chianti, Korn", ("revenge",), ("Chianti", "Korn")),
    ("Role with that action: Nakamori", ("pinch_face",), ("Nakamori",)),
    ("Role with that action: Makoto, Ran", ("protect",), ("Makoto", "Ran")),
    ("Roles with that action: Lovers", ("status:lover",), ()),
    ("Role with that action: Kir", ("betrayal",), ("Kir",)),
    ("Role with that action: Akai", ("vengeance",), ("Akai",)),
]
# Where a later rule of seed 000 overrides a "Roles with" line (checked the other way round).
DCTP_SUPERSEDED = {
    (
        "arrest",
        "yamato",
    ): (
        "Both Uehara and Yamato become unable to Arrest and Detain. "
        "However, they are now able to use a new ability called Hold."
    ),
}
# Abilities the seed gives through a status, an item or the whole BO rather than a role sheet.
DCTP_GRANTED = {"lovey_dovey": "lover", "analyze": "sober"}


def _role_by_name(rs: Ruleset, name: str) -> str:
    wanted = name.casefold()
    for rid, role in rs.roles.items():
        names = {n.casefold() for n in role.name.values()}
        words = {w.casefold() for ws in role.vocabulary.values() for w in ws}
        if wanted in names or wanted in words or wanted == rid:
            return rid
    raise AssertionError(f"no role of {rs.id} is called {name!r}")


@pytest.mark.parametrize(("line", "abilities", "names"), DCTP_ROLE_LINES, ids=lambda v: str(v)[:40])
def test_dctp_roles_with_that_action_have_it(
    line: str, abilities: tuple[str, ...], names: tuple[str, ...]
) -> None:
    rs = _load("dctp")
    bo = [rid for rid, role in rs.roles.items() if role.faction == "bo"]
    for ability in abilities:
        if ability.startswith("status:"):
            assert ability[7:] in rs.statuses, line
            continue
        assert ability in rs.abilities, f"{line}: no ability {ability}"
        holders = bo if names == ("all BO",) else [_role_by_name(rs, n) for n in names]
        for rid in holders:
            assert ability in rs.roles[rid].abilities, f"{line}: {rid} lacks {ability}"


def test_dctp_status_granted_abilities() -> None:
    rs = _load("dctp")
    for aid, status in DCTP_GRANTED.items():
        assert status in rs.statuses
        granted = rs.abilities[aid].effect_params.get("grant_source") == f"status.{status}"
        required = any(
            role.abilities[aid].effect_params.get("requires_status") == status
            for role in rs.roles.values()
            if aid in role.abilities
        )
        assert granted or required, f"{aid} should come with the {status} status"


def test_dctp_superseded_role_lines_are_really_superseded() -> None:
    rs = _load("dctp")
    for (ability, rid), _rule in DCTP_SUPERSEDED.items():
        assert ability not in rs.roles[rid].abilities
    assert "hold" in rs.roles["yamato"].abilities and "hold" in rs.roles["uehara"].abilities


def test_dctp_role_line_table_is_complete_against_the_seed() -> None:
    text = _seed_text("000_b619814352f6ae52.txt")
    found = [m.group(1).strip() for m in re.finditer(r"^- (Roles? with th\w+[^\n]*)$", text, re.M)]
    table = {line for line, _, _ in DCTP_ROLE_LINES}
    assert found, "the seed's Roles-with lines were not found"
    for line in found:
        assert line in table, f"seed line not covered by the test table: {line!r}"


def test_dctp_every_role_sheet_is_named_once() -> None:
    rs = _load("dctp")
    sheets = Counter()
    for rid, role in rs.roles.items():
        match = re.search(r"sheet (\d+)", role.notes)
        assert match, f"{rid}: notes must say which sheet of seed 000 it is"
        sheets[int(match.group(1))] += 1
    assert sorted(sheets) == list(range(1, 55)), "seed 000 has 54 role sheets"
    assert set(sheets.values()) == {1}


def test_dctp_sheet_count_matches_the_seed() -> None:
    text = _seed_text("000_b619814352f6ae52.txt")
    body = text.split("Observe: Results when this role is observed", 1)[1]
    body = body.split("- Roles with that Status: Anokata", 1)[0]
    assert body.count("\nObserve:") == 54


# Seed 001's glossary headings -> the dctp ability that carries it (000 or a 001 variant).
DCTP_GLOSSARY_001 = {
    "Frame": "frame",
    "Slander": "slander",
    "Backup": "backup",
    "Cover": "cover",
    "Erase": "erase_body",
    "Snipe": "snipe",
    "Frighten": "frighten",
    "Detect": "detect",
    "Discombobulate": "discombobulate",
    "Steal": "steal",
    "Observe": "observe",
    "Investigate #": "investigate",
    "Interrogate": "interrogate",
    "Special Investigate": "special_investigate",
    "Cross-examine": "cross_examine",
    "Stake-Out": "stake_out",
    "House Search": "house_search",
    "Heal": "heal",
    "Lawsuit": "lawsuit",
    "Abduct": "abduct",
    "Betrayal": "betrayal",
    "Sabotage": "sabotage",
    "Research": "research",
}


def test_dctp_has_every_ability_of_the_001_glossary() -> None:
    rs = _load("dctp")
    for heading, aid in DCTP_GLOSSARY_001.items():
        assert aid in rs.abilities, f"001 '{heading}' has no ability {aid}"


def test_dctp_glossary_table_matches_the_seed() -> None:
    text = _seed_text("001_f7a2e2a31bf513b9.txt")
    lines = text.splitlines()
    headings = {lines[i - 1].strip() for i, ln in enumerate(lines) if ln.startswith("- Role") and i}
    headings |= {
        lines[i - 2].strip() for i, ln in enumerate(lines) if ln.startswith("- Role") and i > 1
    }
    for heading in DCTP_GLOSSARY_001:
        assert heading in headings, f"'{heading}' is not a heading of seed 001"


RU_ROLE_HEADINGS = {
    "Босс мафии": "mafia_boss", "Рядовой мафиози": "mafioso", "Вербовщик мафии": "mafia_recruiter",
    "Крёстный отец": "godfather", "Мэр города": "mayor", "Доктор": "doctor", "Медсестра": "nurse",
    "Реаниматор": "reanimator", "Шериф": "sheriff", "Следователь": "investigator",
    "Новобранец": "recruit_cop", "Священник": "priest", "Ван Хельсинг": "van_helsing",
    "Журналист": "journalist", "Телохранитель": "bodyguard", "Прокурор": "prosecutor",
    "Палач": "executioner", "Тюремщик": "jailer", "Фея": "fairy", "Туроператор": "tour_operator",
    "Мирный житель": "villager", "Маньяк": "maniac", "Телепат": "telepath",
    "Клофелинщица": "clonidine_woman", "Псих": "psycho", "Бунтарь": "rebel",
    "Последователь": "follower", "Аферист": "swindler", "Вампир": "vampire", "Упырь": "ghoul",
    "Домовой": "domovoi", "Всадник без головы": "headless_horseman", "Банши": "banshee",
}  # fmt: skip


def test_ru_every_role_of_the_seed_is_named() -> None:
    rs = _load("ru_mafia")
    clan_2 = {r for r, role in rs.roles.items() if "clan2" in role.tags}  # the second clan's copies
    assert set(RU_ROLE_HEADINGS.values()) == set(rs.roles) - clan_2
    for heading, rid in RU_ROLE_HEADINGS.items():
        assert _role_by_name(rs, heading) == rid


def test_ru_role_headings_match_the_seed() -> None:
    text = _seed_text("004_c6c2bbff4953ae33.txt")
    body = text.split("Роли:", 1)[1]
    lines = {ln.strip().split(" (")[0] for ln in body.splitlines()}
    for heading in RU_ROLE_HEADINGS:
        assert heading in lines, f"'{heading}' is not a role heading of seed 004"


# --------------------------------------------------------------------------------------------
# Orders of actions / moves exactly as the seeds list them.
DCTP_NIGHT = [
    "Arrest",
    "Discombobulation",
    "APTX",
    "Pinch Face",
    "Protect",
    "Lovey-Dovey",
    "Killing",
    "House Search",
    "All other actions",
    "Travel",
    "Release",
]
DCTP_DAY = [
    "Arrest",
    "Protection charm",
    "Frighten",
    "APTX",
    "Accompany",
    "Protect",
    "Lovey Dovey",
    "Lynch votes/lynching",
    "All other actions",
    "Travel",
    "Release",
]
DCTP_STEP_IDS = {
    "All other actions": "other",
    "Lynch votes/lynching": "vote",
    "Lovey Dovey": "lovey_dovey",
}
# step -> abilities the seed names with it
DCTP_STEP_ABILITIES = {
    "night": {
        "arrest": ["arrest"],
        "discombobulation": ["discombobulate"],
        "pinch_face": ["pinch_face"],
        "protect": ["protect"],
        "lovey_dovey": ["lovey_dovey"],
        "killing": ["kill", "headshot", "quickshot", "longshot"],
        "house_search": ["house_search"],
        "travel": ["travel"],
        "release": ["release", "lawsuit"],
    },
    "day": {
        "arrest": ["arrest"],
        "protection_charm": ["protection_charm"],
        "aptx": ["aptx"],
        "accompany": ["accompany"],
        "protect": ["protect"],
        "lovey_dovey": ["lovey_dovey"],
        "travel": ["travel"],
        "release": ["release"],
    },
}


def _step_id(label: str) -> str:
    return DCTP_STEP_IDS.get(label, re.sub(r"[^a-z]+", "_", label.casefold()).strip("_"))


def test_dctp_order_of_actions_is_the_seeds() -> None:
    rs = _load("dctp")
    assert list(rs.order["night"]) == [_step_id(s) for s in DCTP_NIGHT]
    assert list(rs.order["day"]) == [_step_id(s) for s in DCTP_DAY]
    for kind, steps in DCTP_STEP_ABILITIES.items():
        for step, abilities in steps.items():
            for aid in abilities:
                by_phase = rs.abilities[aid].effect_params.get("priority_by_phase", {})
                got = by_phase.get(kind, rs.abilities[aid].priority)
                assert got == step, f"{aid} should resolve at {kind}.{step}"
                assert kind in rs.abilities[aid].phases
    # Frighten is a night action whose effect the seed orders in the day.
    assert rs.abilities["frighten"].effect_params["applies_at"] == "day.frighten"


def test_dctp_order_matches_the_seed_text() -> None:
    text = _seed_text("000_b619814352f6ae52.txt")
    assert "\nNight\n" + "\n".join(DCTP_NIGHT) + "\n" in text
    assert "\nDay\n" + "\n".join(DCTP_DAY) + "\n" in text


RU_ORDER = [
    ("(применение дипломов)", "diplomas", []),
    ("Прокурор (голос)", "prosecutor_vote", ["prosecutor"]),
    ("Телепат (голос)", "telepath_vote", ["telepath"]),
    ("Бунтарь (голос)", "rebel_vote", ["rebel"]),
    ("Аферист (голос)", "swindler_vote", ["swindler"]),
    ("Вампир (голос)", "vampire_vote", ["vampire"]),
    ("(употребление спиртных напитков)", "vodka", []),
    ("Банши", "banshee", ["banshee"]),
    ("(применение визиток)", "cards", []),
    ("Крёстный отец", "godfather", ["godfather"]),
    ("Мэр города", "mayor", ["mayor"]),
    ("Медсестра", "nurse", ["nurse"]),
    ("Священник", "priest", ["priest"]),
    ("Туроператор", "tour_operator", ["tour_operator"]),
    ("Домовой", "domovoi", ["domovoi"]),
    ("Доктор", "doctor", ["doctor"]),
    ("Телепат (смена хода)", "telepath_redirect", ["telepath"]),
    ("Фея", "fairy", ["fairy"]),
    ("Палач", "executioner", ["executioner"]),
    ("Журналист", "journalist", ["journalist"]),
    ("МЖ", "villager", ["villager"]),
    ("Телохранитель", "bodyguard", ["bodyguard"]),
    ("Копы (вербовка)", "cops_recruit", ["sheriff"]),
    ("Мафия (вербовка, изготовление)", "mafia_recruit", ["mafia_recruiter", "mafioso"]),
    ("Бунтарь (вербовка)", "rebel_recruit", ["rebel"]),
    ("Копы (поиск)", "cops_search", ["sheriff", "investigator", "recruit_cop"]),
    ("Мафия (поиск)", "mafia_search", ["mafia_boss", "mafioso"]),
    ("Прокурор (поиск)", "prosecutor_search", ["prosecutor"]),
    ("Шмара-клофелинщица", "clonidine", ["clonidine_woman"]),
    ("Вампир", "vampire", ["vampire"]),
    ("Маньяк", "maniac", ["maniac"]),
    ("Бунтарь (выстрел)", "rebel_shot", ["rebel"]),
    ("Мафия (выстрел, отравление)", "mafia_shot", ["mafia_boss", "mafioso"]),
    ("Копы (выстрел)", "cops_shot", ["sheriff", "investigator"]),
    ("Псих", "psycho", ["psycho"]),
    ("Тюремщик", "jailer", ["jailer"]),
    ("Аферист (выбор игрока)", "swindler_choice", ["swindler"]),
    ("(поход с кольями)", "stake_hunt", ["villager", "mafia_boss", "maniac"]),
    ("Ван Хельсинг", "van_helsing", ["van_helsing"]),
    ("Всадник без головы", "headless_horseman", ["headless_horseman"]),
    ("(смерть от отравления)", "poison_deaths", []),
    ("Следователь (допрос)", "interrogation", ["investigator"]),
    ("(трезвление)", "sobering", []),
    ("(возвращение из турпоездки)", "tour_return", []),
    ("(выход из тюрьмы)", "prison_release", []),
    ("Реаниматор", "reanimator", ["reanimator"]),
]


def test_ru_order_of_moves_is_the_seeds() -> None:
    rs = _load("ru_mafia")
    assert list(rs.order["night"]) == [step for _, step, _ in RU_ORDER]
    for label, step, roles in RU_ORDER:
        for rid in roles:
            steps = {a.priority for a in rs.roles[rid].abilities.values()}
            assert step in steps, f"{label}: {rid} has no ability resolving at {step}"


def test_ru_order_matches_the_seed_text() -> None:
    text = _seed_text("004_c6c2bbff4953ae33.txt")
    line = next(ln for ln in text.splitlines() if ln.startswith("Очередность ходов:"))
    listed = [p.strip().rstrip(".") for p in re.split(r",\s*(?![^()]*\))", line.split(":", 1)[1])]
    assert listed == [label for label, _, _ in RU_ORDER]


def test_ru_protection_order() -> None:
    rs = _load("ru_mafia")
    assert rs.protection_precedence == ("blessing", "bodyguard", "cross", "siren", "vest")


def test_durarara_night_order() -> None:
    """Decisions: wolves until 19:00, then Shinra/Celty; Shinra's save must precede the kill."""
    rs = _load("durarara")
    night = list(rs.order["night"])
    wolves, save, celty = (rs.abilities[a].priority for a in ("wolf_kill", "save", "death_power"))
    assert night.index(save) < night.index(wolves) < night.index(celty)
    assert rs.option("blue_squares_deadline") == "19:00"
    assert rs.option("shinra_celty_window") == ("19:00", "22:00")


# --------------------------------------------------------------------------------------------
# Catalogue hygiene for all three rulesets.
class _UniqueKeyLoader(yaml.SafeLoader):
    pass


def _no_duplicates(
    loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False
) -> dict[Any, Any]:
    keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
    dupes = [k for k, n in Counter(keys).items() if n > 1]
    if dupes:
        raise AssertionError(f"duplicate keys {dupes} at line {node.start_mark.line + 1}")
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


@pytest.mark.parametrize("rid", CATALOGUES)
def test_ids_are_snake_case_and_unique(rid: str) -> None:
    data = yaml.load(
        (RULESETS_DIR / f"{rid}.yaml").read_text(encoding="utf-8"), Loader=_UniqueKeyLoader
    )
    for section in ("factions", "statuses", "items", "abilities", "roles", "options"):
        for key in data.get(section) or {}:
            assert SNAKE.match(key), f"{rid}.{section}.{key} is not snake_case"
    for kind, steps in data["order"].items():
        assert len(set(steps)) == len(steps), f"{rid}.order.{kind} repeats a step"


def test_every_ability_and_role_has_vocabulary_in_every_language(ruleset: Ruleset) -> None:
    for aid, ability in ruleset.abilities.items():
        for lang in ruleset.languages:
            assert ability.name.get(lang), f"{ruleset.id}: ability {aid} has no {lang} name"
            assert ability.vocabulary.get(lang), (
                f"{ruleset.id}: ability {aid} has no {lang} vocabulary"
            )
    for rid, role in ruleset.roles.items():
        for lang in ruleset.languages:
            assert role.name.get(lang), f"{ruleset.id}: role {rid} has no {lang} name"
            assert role.vocabulary.get(lang), f"{ruleset.id}: role {rid} has no {lang} vocabulary"


def test_statuses_items_factions_are_named_in_every_language(ruleset: Ruleset) -> None:
    sections = {"status": ruleset.statuses, "item": ruleset.items, "faction": ruleset.factions}
    for section, things in sections.items():
        for tid, thing in things.items():
            for lang in ruleset.languages:
                assert thing.name.get(lang), f"{ruleset.id}: {section} {tid} has no {lang} name"


def test_role_words_are_not_shared_between_roles(ruleset: Ruleset) -> None:
    owner: dict[str, str] = {}
    for rid, role in ruleset.roles.items():
        for words in role.vocabulary.values():
            for word in {w.casefold() for w in words}:
                assert owner.setdefault(word, rid) == rid, (
                    f"{ruleset.id}: '{word}' names both {owner[word]} and {rid}"
                )


def _replaces(a: Any, b: Any) -> bool:
    """A sniper's Headshot *is* his kill ("Headshot replaces kill"): shared words are fine."""
    return a.effect_params.get("replaces") == b.id or b.effect_params.get("replaces") == a.id


def test_no_word_means_two_abilities_of_one_role(ruleset: Ruleset) -> None:
    """A sender's PM is not ambiguous by construction: one word, one ability per phase kind."""
    kinds = set(ruleset.phases.kinds)
    for rid, role in ruleset.roles.items():
        seen: dict[str, str] = {}
        for aid, ability in role.abilities.items():
            for word in {w.casefold() for ws in ability.vocabulary.values() for w in ws}:
                other = seen.setdefault(word, aid)
                if other == aid or _replaces(role.abilities[other], role.abilities[aid]):
                    continue
                phases = [set(role.abilities[a].phases) for a in (other, aid)]
                phases = [kinds if "any" in p else p for p in phases]
                assert not phases[0] & phases[1], (
                    f"{ruleset.id}.{rid}: '{word}' means {other} and {aid} in the same phase"
                )


def test_no_ability_word_is_a_role_name(ruleset: Ruleset) -> None:
    """'Палач: слежу за Васей' or a player nicknamed 'Doc' must not read as an order word."""
    role_words = {
        w.casefold()
        for role in ruleset.roles.values()
        for ws in role.vocabulary.values()
        for w in ws
    }
    role_words |= {n.casefold() for role in ruleset.roles.values() for n in role.name.values()}
    for aid, ability in ruleset.abilities.items():
        for words in ability.vocabulary.values():
            for word in words:
                assert word.casefold() not in role_words, (
                    f"{ruleset.id}.{aid}: '{word}' is a role name"
                )


def test_vocabulary_is_clean(ruleset: Ruleset) -> None:
    for thing in (*ruleset.abilities.values(), *ruleset.roles.values()):
        for lang, words in thing.vocabulary.items():
            for word in words:
                assert word == word.strip() and word, f"{ruleset.id}.{thing.id}.{lang}: {word!r}"
                assert len(word) > 1 or word.isdigit(), (
                    f"{ruleset.id}.{thing.id}: one-letter word {word!r}"
                )


def test_every_role_ability_is_usable_in_a_phase_of_the_game(ruleset: Ruleset) -> None:
    kinds = set(ruleset.phases.kinds) | {"any"}
    for ability in ruleset.abilities.values():
        assert ability.phases and set(ability.phases) <= kinds


def test_guessed_powers_are_options(ruleset: Ruleset) -> None:
    """Powers a seed never describes are flagged, and an option documents the default."""
    for aid, ability in ruleset.abilities.items():
        if ability.tags & {"undefined_in_seed", "inferred", "configurable"}:
            assert "option" in ability.notes, f"{ruleset.id}.{aid}: say which option documents it"
    for name, opt in ruleset.options.items():
        assert opt.doc.strip(), f"{ruleset.id}: option {name} has no doc"
        if opt.choices:
            assert opt.default in opt.choices


def test_doc_table_counts_are_current(ruleset: Ruleset) -> None:
    doc = (ROOT / "docs" / "rulesets-catalogues.md").read_text(encoding="utf-8")
    row = next(ln for ln in doc.splitlines() if ln.startswith(f"| `{ruleset.id}.yaml`"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    counts = [len(ruleset.roles), len(ruleset.abilities), len(ruleset.statuses),
              len(ruleset.items), len(ruleset.options)]  # fmt: skip
    assert [int(c) for c in cells[2:7]] == counts, f"update the table row of {ruleset.id}"


def test_every_tag_is_documented(ruleset: Ruleset) -> None:
    doc = (ROOT / "docs" / "rulesets-catalogues.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_]+)`", doc))
    things = (*ruleset.abilities.values(), *ruleset.roles.values())
    for tag in {t for thing in things for t in thing.tags}:
        base = re.sub(r"_\d+$", "_N", tag)
        assert tag in documented or f"`{base}`" in doc, f"{ruleset.id}: tag {tag} is not documented"


# --------------------------------------------------------------------------------------------
# What each brief-level rule of the seeds must find in the catalogue.
def test_dctp_conditions_crimes_and_votes() -> None:
    rs = _load("dctp")
    for status in ("alive", "abroad", "injured", "suspended", "arrested", "dead"):
        assert status in rs.statuses
    crimes = {a.id for a in rs.abilities.values() if "crime" in a.tags}
    seed_crimes = {
        "kill",
        "bribe",
        "frame",
        "disguise",
        "slander",
        "discombobulate",
        "erase_body",
        "erase_evidence",
        "frighten",
        "steal",
        "heavy_handed",
        "insult_to_injury",
        "hinder",
        "confuse",
        "temporary_disguise",
    }
    assert seed_crimes <= crimes
    for word in ("killing", "slandering", "disguising as"):
        assert any(
            word in a.vocabulary["en"] for a in rs.abilities.values() if "crime" in a.tags
        ), word
    assert rs.vote.channel == "pm" and rs.vote.multi_recipient_pm == "ignore"
    assert {"si", "aptx", "bs", "inv"} <= {
        w for a in rs.abilities.values() for w in a.vocabulary["en"]
    }
    assert len(rs.roles) == 54
    for rid in ("hakuba", "makoto"):
        assert "abroad" in rs.roles[rid].start_statuses


def test_dctp_seed001_variants_are_options() -> None:
    rs = _load("dctp")
    for variant in ("abduct", "sabotage", "research"):
        params = rs.abilities[variant].effect_params
        assert rs.option(params["option"]) is False, (
            f"{variant} is off by default (000 is the game)"
        )
        for rid in params["roles"]:
            assert variant not in rs.roles[rid].abilities
    assert "headshot" in rs.roles["chianti"].abilities and "quickshot" in rs.roles["korn"].abilities
    snipers = load_ruleset("dctp", options={"chianti_sniping": "snipe", "korn_sniping": "snipe"})
    assert (
        "snipe" in snipers.roles["chianti"].abilities and "snipe" in snipers.roles["korn"].abilities
    )
    assert "headshot" not in snipers.roles["chianti"].abilities
    for option in ("variant_frame", "variant_slander", "variant_erase", "betrayal_style"):
        assert option in rs.options


def test_durarara_votes_and_election() -> None:
    rs = _load("durarara")
    assert rs.languages == ("fr", "en")
    assert rs.phases.first == "day0"
    assert rs.vote.channel == "pm" and rs.vote.tie == "mayor_decides"
    assert rs.vote.no_vote_counts_as_self is True and rs.vote.edited_votes == "count"
    assert rs.abilities["mayor_vote"].effect_params["only_on"] == "day0"
    assert "mayor" in rs.statuses and "lover" in rs.statuses
    assert {
        "saika",
        "ripper",
        "blue_square",
        "izaya",
        "celty",
        "shinra",
        "tom",
        "saki",
        "bacula",
        "taro",
    } <= set(rs.roles)


def test_ru_items_votes_and_factions() -> None:
    rs = _load("ru_mafia")
    assert rs.languages == ("ru", "en")
    for item in (
        "vest",
        "siren",
        "diploma",
        "poison",
        "antidote",
        "rebel_card",
        "boss_card",
        "doctor_card",
        "sheriff_card",
        "journalist_card",
        "tour_voucher",
        "cross",
        "zip_gun",
        "vodka",
    ):
        assert item in rs.items
    # the four sides of п.14, plus the second mafia clan and the Godfather before he joins one
    assert set(rs.factions) == {"mafia", "mafia2", "godfather", "town", "loners", "undead"}
    assert rs.vote.channel == "thread" and rs.vote.syntax == ("colour",)
    assert rs.vote.self_vote is False and rs.vote.edited_votes == "ignore"
    seed_roles = {
        "mafia_boss",
        "mafioso",
        "mafia_recruiter",
        "godfather",
        "mayor",
        "doctor",
        "nurse",
        "reanimator",
        "sheriff",
        "investigator",
        "recruit_cop",
        "priest",
        "van_helsing",
        "journalist",
        "bodyguard",
        "prosecutor",
        "executioner",
        "jailer",
        "fairy",
        "tour_operator",
        "villager",
        "maniac",
        "telepath",
        "clonidine_woman",
        "psycho",
        "rebel",
        "follower",
        "swindler",
        "vampire",
        "ghoul",
        "domovoi",
        "headless_horseman",
        "banshee",
    }
    assert {r for r in rs.roles if not r.endswith("_2")} == seed_roles  # *_2: the second clan


@pytest.mark.parametrize("rid", CATALOGUES)
def test_the_vote_counter_reads_the_vote_section(rid: str) -> None:
    """``count-votes`` overlays the file's ``vote:`` on its defaults: both must agree."""
    votecount = pytest.importorskip("forumbot.votecount")
    rules = votecount.load_vote_rules(rid, {})
    rs = _load(rid)
    assert str(rules.channel) == rs.vote.channel
    assert str(rules.tie) == rs.vote.tie
    for status in rules.voteless_statuses | rules.unvotable_statuses:
        assert status in rs.statuses, (
            f"{rid}: the vote counter's status {status} is not in the catalogue"
        )


RU_FORMS = [  # what players write -> the ability it must reach (after lemmatisation)
    ("лечу", "heal"),
    ("вылечу", "heal"),
    ("проверяю", "cop_search"),
    ("ищу", "mafia_search"),
    ("убить", "shoot"),
    ("стреляю", "shoot"),
    ("застрелю", "cop_shoot"),
    ("отравлю", "poison"),
    ("вербую", "mafia_recruit"),
    ("защищаю", "guard"),
    ("кусаю", "bite"),
    ("взорву", "explode"),
    ("исповедую", "confess"),
    ("благословляю", "bless"),
    ("допрошу", "interrogate"),
    ("поглощаю", "absorb"),
    ("дарю", "gift"),
    ("реанимирую", "reanimate"),
    ("сжигаю", "burn_priest"),
    ("обвиняю", "accuse"),
    ("внушаю", "suggest_vote"),
    ("мучаю", "torture"),
    ("слежу", "shadow"),
    # imperatives and perfective forms
    ("лечи", "heal"),
    ("проверь", "cop_search"),
    ("убей", "shoot"),
    ("стреляй", "shoot"),
    ("защити", "guard"),
    ("завербуй", "mafia_recruit"),
    ("отрави", "poison"),
    ("укуси", "bite"),
]


@pytest.mark.parametrize(("form", "ability"), RU_FORMS)
def test_ru_player_forms_reach_their_ability(form: str, ability: str) -> None:
    pymorphy3 = pytest.importorskip("pymorphy3")
    morph = _morph(pymorphy3)
    rs = _load("ru_mafia")
    words = rs.abilities[ability].vocabulary["ru"]
    lemmas = {morph.parse(w.split()[0])[0].normal_form for w in words}
    assert form in words or morph.parse(form)[0].normal_form in lemmas, (
        f"'{form}' (lemma {morph.parse(form)[0].normal_form}) does not reach {ability}"
    )


_MORPH: list[Any] = []


def _morph(module: Any) -> Any:
    if not _MORPH:
        _MORPH.append(module.MorphAnalyzer())
    return _MORPH[0]


# --------------------------------------------------------------------------------------------
# The worked examples (fixtures/seed-examples) refer only to things the catalogues have.
def _ids_in(value: Any, key: str) -> list[str]:
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and isinstance(v, str):
                out.append(v)
            out.extend(_ids_in(v, key))
    elif isinstance(value, list):
        for v in value:
            out.extend(_ids_in(v, key))
    return out


@pytest.mark.parametrize("rid", CATALOGUES)
def test_seed_examples_refer_to_the_catalogue(rid: str) -> None:
    rs = _load(rid)
    data = yaml.safe_load((EXAMPLES / f"{rid}.yaml").read_text(encoding="utf-8"))
    assert data["ruleset"] == rid
    examples = data["examples"]
    assert len({e["id"] for e in examples}) == len(examples)
    for example in examples:
        assert example["seed"].endswith(".txt") and example.get("section"), example["id"]
        assert example.get("quote") or example.get("parse"), f"{example['id']}: quote the rulebook"
        for aid in _ids_in(example, "ability"):
            assert aid in rs.abilities, f"{example['id']}: unknown ability {aid}"
        for block in _ids_in(example, "actor_role"):
            assert block in rs.roles, f"{example['id']}: unknown role {block}"
        setup = example.get("setup") or {}
        for name, rid_ in (setup.get("players") or {}).items():
            assert rid_ in rs.roles, f"{example['id']}: {name} has unknown role {rid_}"
        for option in example.get("options") or {}:
            assert option in rs.options, f"{example['id']}: unknown option {option}"


def test_ru_results_table_covers_point_17() -> None:
    data = yaml.safe_load((EXAMPLES / "ru_mafia.yaml").read_text(encoding="utf-8"))
    rows = data["results_table"]["rows"]
    assert len(rows) == 22
    rs = _load("ru_mafia")
    for row in rows:
        if row["action"] not in ("any_hostile",):
            assert row["action"] in rs.abilities, row
        for key in ("target_role",):
            if key in row:
                assert row[key] in rs.roles


def test_ru_results_table_quotes_the_seed() -> None:
    rows = yaml.safe_load((EXAMPLES / "ru_mafia.yaml").read_text(encoding="utf-8"))[
        "results_table"
    ]["rows"]
    text = _seed_text("004_c6c2bbff4953ae33.txt")
    block = text.split("Результаты ходов:", 1)[1].split("\n18.", 1)[0]
    seed_rows = [ln.strip() for ln in block.strip().splitlines() if ln.strip()]
    norm = [re.sub(r"[.;]$", "", r) for r in seed_rows]
    assert [row["quote"] for row in rows] == norm


def test_dctp_examples_cover_the_seed_001_examples() -> None:
    data = yaml.safe_load((EXAMPLES / "dctp.yaml").read_text(encoding="utf-8"))
    ids = {e["id"] for e in data["examples"]}
    for needed in (
        "detect_vermouth_disguised",
        "investigate_disguises",
        "investigate_same_keyword",
        "stake_out_keywords",
        "sabotage_tie_broken",
        "sabotage_cancelled_by_accompany",
        "travel_to_japan_night1",
        "travel_leaving_aptx_fails",
        "travel_same_phase_lynch_and_aptx",
        "suspension_timeline",
        "heavy_handed_investigations",
    ):
        assert needed in ids
