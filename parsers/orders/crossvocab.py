"""Words for the rulesets' actions in the languages a ruleset file does not declare.

Players of an English-only ruleset write in French or Russian too ("Je soigne Théo" in a
Failheap game). Each table gives, per ability id, the verbs and nouns players use; the
lexicon adds them to an ability of that id only for a language its own vocabulary lacks,
so a ruleset's own words always stay the only reading in its languages. Phrases are
matched on word keys (stems, lemmas): one form per phrase is enough for inflected verbs.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from parsers.orders.grammar import Table, _table

# Words every ability of a family takes (a Vigilante's "je tue Nick" is his shot, a
# Doctor's "защити Ann" his heal): a word given to one member only would read as another
# role's order and be refused.
_ATTACK = {"fr": "tue|tuer|élimine|éliminer|abats|abattre|tire sur|tirer sur",
           "ru": "убиваю|убить|убью|стреляю в|застрелить"}  # fmt: skip
_PROTECT = {"fr": "protège|protéger|protection|je protège",
            "ru": "защищаю|защитить|защищать|защита"}  # fmt: skip
_INVESTIGATE = {"fr": "enquête|enquêter|j'enquête|enquête sur|vérifie|vérifier",
                "ru": "проверяю|проверить|проверка|проверю"}  # fmt: skip
_FAMILIES = {
    **dict.fromkeys(("shoot", "mafia_kill", "serial_kill", "kill", "maniac_kill", "cop_shoot",
                     "wolf_kill", "death_power"), _ATTACK),
    **dict.fromkeys(("heal", "save", "guard", "protect"), _PROTECT),
    **dict.fromkeys(("check", "role_check", "investigate"), _INVESTIGATE),
}  # fmt: skip


def _with_family(words: dict[str, Table]) -> MappingProxyType[str, Table]:
    """Each ability's table with its family's words added, per language; a language an
    ability already declares in its ruleset is skipped by the lexicon anyway."""
    out: dict[str, Table] = {}
    for ability_id in {*words, *_FAMILIES}:
        own = dict(words.get(ability_id, {}))
        for lang, extra in _FAMILIES.get(ability_id, {}).items():
            own[lang] = tuple(dict.fromkeys((*own.get(lang, ()), *_table(x=extra)["x"])))
        out[ability_id] = MappingProxyType(own)
    return MappingProxyType(out)


ACTION_WORDS: Final[MappingProxyType[str, Table]] = _with_family(
    {
        # --- protection -------------------------------------------------------------
        "heal": _table(
            fr="soigne|soigner|soin|soins|je soigne|protège|protéger|sauve|sauver|guéris|guérir",
            ru="лечу|лечить|лечение|вылечить|вылечу|спасаю|спасти|защищаю|защитить|защищать|защита",
        ),
        "save": _table(ru="спасаю|спасти|лечу|лечить|защищаю|защитить"),
        "guard": _table(
            fr="garde du corps|garde|garder|protège|protéger|je protège|veille sur",
            ru="охраняю|охранять|охрана|защищаю|защитить|телохранитель",
        ),
        "protect": _table(
            fr="protège|protéger|protection|je protège|garde|veille sur",
            ru="защищаю|защитить|защита|охраняю|охранять",
        ),
        "first_aid": _table(fr="premiers secours|premiers soins", ru="первая помощь"),
        "vest": _table(fr="gilet|gilet pare-balles|mets mon gilet", ru="бронежилет|жилет"),
        "alert": _table(
            fr="alerte|en alerte|je reste éveillé|je reste éveillée|je reste éveillés|"
            "je veille|je reste sur mes gardes|je reste en alerte",
            ru="настороже|начеку|не сплю",
        ),
        "defend": _table(
            fr="défends|défendre|représente|représenter|client|avocat",
            ru="защищаю в суде|адвокат|клиент",
        ),
        "bless": _table(fr="bénis|bénir|bénédiction"),
        # --- investigation ----------------------------------------------------------
        "check": _table(
            fr="vérifie|vérifier|enquête|enquêter|j'enquête|inspecte|inspecter|contrôle|"
            "contrôler|check",
            ru="проверяю|проверить|проверка|проверю|расследую",
        ),
        "role_check": _table(
            fr="enquête|enquêter|vérifie|vérifier|découvrir le rôle",
            ru="проверяю|проверить|проверка|узнать роль",
        ),
        "investigate": _table(
            fr="enquête|enquêter|j'enquête|enquête sur|investigation",
            ru="расследую|расследование|расследовать|проверяю",
        ),
        "shadow": _table(
            fr="suivre|file|filer|filature|surveille|surveiller|pister",
            ru="слежу|следить|слежка|наблюдаю|наблюдать",
        ),
        "follow": _table(fr="suivre|file|filer|filature", ru="слежу за|следить за|слежка"),
        "interrogate": _table(
            fr="interroge|interroger|interrogatoire", ru="допрашиваю|допросить|допрос"
        ),
        "cross_examine": _table(fr="contre-interroge|contre-interroger|contre-interrogatoire"),
        "house_search": _table(fr="perquisition|perquisitionne|fouille la maison de|fouille"),
        "spy": _table(fr="espionne|espionner", ru="шпионю|шпионить"),
        "detect": _table(fr="détecte|détecter", ru="обнаружить"),
        "mafia_search": _table(fr="cherche|chercher|recherche|vérifie"),
        "cop_search": _table(fr="cherche|chercher|recherche|vérifie"),
        "discover": _table(ru="ищу|искать|найти|проверяю"),
        "confess": _table(fr="confesse|confesser|confession"),
        # --- attacks ---------------------------------------------------------------
        "shoot": _table(
            fr="tire sur|tirer sur|tire|abats|abattre|balle|ma balle",
            ru="стреляю в|стреляю|выстрел в|застрелить|пуля",
        ),
        "mafia_kill": _table(
            fr="tue|tuer|on tue|élimine|éliminer|assassine|assassiner|meurtre|victime|"
            "notre victime|victime de la mafia",
            ru="убиваю|убить|убийство|мафия убивает|заказ",
        ),
        "serial_kill": _table(
            fr="tue|tuer|poignarde|poignarder|assassine", ru="убиваю|убить|режу|зарежу"
        ),
        "kill": _table(
            fr="tue|tuer|on tue|élimine|éliminer|assassine|assassiner",
            ru="убиваю|убить|убийство|убиваем",
        ),
        "maniac_kill": _table(fr="tue|tuer|poignarde|poignarder|égorge"),
        "cop_shoot": _table(fr="tire sur|tirer sur|abats|abattre"),
        "wolf_kill": _table(ru="убиваем|убить|съесть|съедаем|жертва"),
        "death_power": _table(ru="убиваю|убить|забираю"),
        "ignite": _table(
            fr="allume|allumer|brûle|brûler|mets le feu|enflamme|enflammer|incendie",
            ru="поджигаю|поджечь|сжигаю|сжечь",
        ),
        "aptx": _table(fr="empoisonne|poison|pilule|aptx", ru="отравляю|яд|таблетка|aptx"),
        # --- status and the rest -----------------------------------------------------
        "douse": _table(
            fr="asperge|asperger|arrose|arroser|essence|imbibe|imbiber",
            ru="обливаю|облить|бензин|поливаю",
        ),
        "frame": _table(
            fr="piège|piéger|incrimine|incriminer|fais accuser|faire accuser",
            ru="подставляю|подставить|подстава",
        ),
        "clean": _table(fr="nettoie|nettoyer|nettoyage|efface", ru="зачищаю|зачистить|убираю"),
        "block": _table(
            fr="bloque|bloquer|occupe|occuper|distrais|distraire|rends visite",
            ru="блокирую|блокировать|блок|отвлекаю",
        ),
        "switch": _table(
            fr="échange|échanger|inverse|inverser|permute|permuter|conduis",
            ru="меняю местами|поменять местами|обмен",
        ),
        "control": _table(
            fr="contrôle|contrôler|manipule|manipuler|redirige|rediriger|ensorcelle",
            ru="контролирую|управляю|перенаправляю",
        ),
        "remember": _table(
            fr="souviens|souvenir|deviens|devenir|prends le rôle de",
            ru="вспоминаю|вспомнить|становлюсь|стать",
        ),
        "reveal": _table(
            fr="révèle|révéler|je me révèle|dévoile", ru="раскрываюсь|раскрыться|вскрываюсь"
        ),
        "arrest": _table(fr="arrête|arrêter|arrestation", ru="арестовываю|арестовать|арест"),
        "steal": _table(fr="vole|voler|dérobe", ru="краду|украсть|ворую"),
        "charm": _table(ru="очаровываю|очаровать|чары"),
        "travel": _table(fr="voyage|voyager|pars|partir|rentre|rentrer", ru="улетаю|улететь"),
        "mafia_recruit": _table(fr="recrute|recruter|recrutement"),
        "cop_recruit": _table(fr="recrute|recruter|recrutement"),
        "deprive_move": _table(fr="bloque|bloquer|prive"),
        "sleeping_pill": _table(fr="somnifère|endors|endormir"),
    }
)

# Crimes named after "for"/"pour"/"за" ("j'arrête X pour le meurtre de Y"), per crime id,
# in the languages the crime's ability does not declare.
CRIME_WORDS: Final[MappingProxyType[str, Table]] = MappingProxyType(
    {
        "kill": _table(fr="meurtre|assassinat|avoir tué|tué", ru="убийство|убийства|убил|убила"),
        "frame": _table(fr="coup monté|avoir piégé", ru="подставу|подстава"),
        "steal": _table(fr="vol|avoir volé", ru="кражу|кража"),
        "disguise": _table(fr="déguisement|s'être déguisé", ru="маскировку|маскировка"),
    }
)
