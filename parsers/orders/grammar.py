"""The order grammar as tables: function words and built-in phrases per language.

Ability, role, item and phase words come from the ruleset (see ``lexicon.py``); this module
holds only what every ruleset shares: how players cancel, ask, hedge, negate, greet, sign,
rank alternatives, hand off their actions, write wills and vote by PM. Phrases are matched
on word keys (English/French stems, Russian lemmas), so one form per phrase is enough for
inflected words; apostrophes split words (``j'annule`` is ``j`` + ``annule``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

Table = MappingProxyType[str, tuple[str, ...]]


def _table(**langs: str) -> Table:
    """Build a read-only ``lang -> phrases`` table from ``|``-separated phrase lists."""
    return MappingProxyType(
        {
            lang: tuple(p.strip() for p in text.split("|") if p.strip())
            for lang, text in langs.items()
        }
    )


# Built-in phrase kinds. Each becomes lexicon entries of that kind in every language.
CANCEL: Final = _table(
    en="cancel|cancel that|cancel my|never mind|nevermind|nvm|no action|no actions|do nothing|"
    "nothing tonight|nothing today|not doing anything|skip my action|i pass|i'll pass|"
    "scrap that|scratch that|disregard|ignore my previous|ignore my last|withdraw|"
    "retract|no order|no orders|sit this one out|sitting out",
    fr="annule|annuler|j'annule|pas d'action|aucune action|rien cette nuit|je ne fais rien|"
    "je passe|oublie|oubliez|pas de pouvoir|je n'utilise pas|je retire|retire|retirer",
    ru="отмена|отменяю|отменить|отмени|сижу дома|сидел дома|сидеть дома|без хода|пропускаю|"
    "ничего не делаю|нет хода|хода нет|не хожу|снимаю|отзываю",
)
QUESTION_START: Final = _table(
    en="can i|could i|may i|am i|do i|does|did|is it|is there|are|what|how|when|why|which|"
    "should i|would it|will it|can you tell|quick question|question|let me know|"
    "please confirm|please let me know|is that allowed|is that ok|is this allowed|is this ok",
    fr="est-ce que|est ce que|puis-je|peut-on|je peux|on peut|est-il|comment|quand|pourquoi|"
    "quel|quelle|question|dis-moi|dites-moi|confirme-moi|confirmez-moi|tiens-moi au courant",
    ru="можно ли|могу ли|а можно|можно|как|когда|почему|зачем|что будет|сколько|вопрос|ли|"
    "подскажи|подскажите|дай знать|дайте знать|сообщи мне|напиши мне",
)
HEDGE: Final = _table(
    en="assuming|assuming he|assuming she|assuming they|assuming that|assuming it|assuming he's|"
    "assuming she's|assuming they're|depends on|"
    "depending on|pending|provided that|provided he|provided she|as long as|"
    "leaning towards|leaning toward|prolly|probs|i reckon|second thoughts|as if|maybe|might|"
    "perhaps|probably|not sure|unsure|idk|thinking about|thinking of|"
    "considering|wondering|wonder|think about|think of|hope|should i|if|in case|undecided|"
    "unless|after this|later|tomorrow|"
    "next night|some day|at some point|either one|either of|not certain|no idea|dunno|or so|"
    "jk|just kidding|kidding|for now|for the moment|for the time being|tentatively|provisionally|"
    "nah|nope|not 100% sure|not 100 % sure|not entirely sure|not completely sure|not totally sure|"
    "not fully sure|not quite sure|hopefully|i hope|don't know|do not know|dont know|draft|"
    "not final|get back to you|yeah sure|yeah right|great idea|brilliant idea|genius idea|"
    "hear from you|hear back from you|wait for your|waiting for your|waiting on your|wait on your|"
    "waiting on you|wait for my|waiting for my|until you reply|until you answer|once you reply|"
    "until i confirm|hold off|"
    "what could go wrong",
    fr="sais plus|je sais plus|je ne sais plus|"
    "en supposant|en attendant|ça dépend|selon|à condition|pourvu que|tant que|"
    "je penche pour|j'ai un doute|un doute|n'importe quoi|enfin je crois|enfin je pense|"
    "pour l'instant|pour le moment|provisoirement|peut-être|peut etre|hésite|sais pas|"
    "j'espère|j'espere|pas sûr|pense|si|sauf si|plus tard|demain|après ça|"
    "l'un ou l'autre|ou alors|j'hésite|pas certain|pas certaine|pas sûre|aucune idée|"
    "au cas où|à moins que|à moins qu'|je rigole|je plaisante|pas sûr à 100%|pas sûre à 100%|"
    "pas complètement sûr|pas totalement sûr|pas tout à fait sûr|brouillon|pas définitif|"
    "ouais c'est ça|super idée|excellente idée|trop bonne idée|génial comme idée|"
    "je reviens vers toi|plus sûr|plus sûre|s'il est|s'il a|s'il se|s'il ne|s'il n'|"
    "s'il y|s'ils|sauf s'il|j'hésite pas mal|hésite pas mal",
    ru="предварительно|предварительный|предварительная|"
    "смотря|при условии|вроде бы|в зависимости|лишь бы|"
    "склоняюсь|скорее всего|есть сомнения|да щас|может быть|наверное|возможно|пожалуй|не знаю|"
    "подумаю|думаю|если|или может|завтра|шучу|"
    "пока что|временно|"
    "позже|в следующий раз|или же|не уверен|не уверена|сомневаюсь|хз|на случай|не на 100%|"
    "не совсем уверен|не совсем уверена|не до конца уверен|надеюсь|черновик|не окончательно|"
    "ага конечно|ага щас|отличная идея|гениально|гениальная идея",
)
# Doubt about an order written in a sentence of its own after it ("Enfin je crois, à
# confirmer demain"): the order before is not final.
# A word before a doubt that denies it ("no hesitation", "не сомневаюсь", "sans hésiter");
# not "not" ("not kidding" may be irony: it stays a doubt).
NEGATORS: Final = frozenset({"no", "without", "sans", "не", "без"})
DOUBT: Final = _table(
    en="second thoughts|i reckon|as if|not sure|i think|i guess|i believe|to be confirmed|"
    "will confirm|not final|tentative|"
    "maybe|perhaps|probably|unsure|idk|jk|just kidding|kidding|i'll confirm|confirm later|"
    "will update|i'll update|update later|might change|may change|could change|might switch|"
    "subject to change|for now|for the moment|for the time being|tbd|tentatively|"
    "provisionally|on hold|or not|maybe not|nah|nope|rather not|wait|not 100% sure|"
    "not 100 % sure|not entirely sure|not completely sure|not totally sure|not fully sure|"
    "not quite sure|hold on|hang on|let me think|get back to you|give me an hour|"
    "give me a minute|final later|or don't|or do not|draft|yeah sure|yeah right|great idea|"
    "i'm hesitant|i am hesitant|bit hesitant|i hesitate|i'm hesitating|still hesitating|"
    "hear from you|hear back from you|wait for your|waiting for your|waiting on your|wait on your|"
    "waiting on you|wait for my|waiting for my|until you reply|until you answer|once you reply|"
    "until i confirm|hold off|"
    "having doubts|have doubts|some doubts|doubtful",
    fr="sais plus|je sais plus|je ne sais plus|"
    "j'ai un doute|un doute|n'importe quoi|enfin je crois|je crois|je pense|à confirmer|"
    "je confirme demain|pas sûr|pas sûre|pas certain|"
    "peut-être|sans doute|provisoire|pas définitif|je rigole|je plaisante|je te redis|"
    "je te redirai|je confirme plus tard|je changerai peut-être|pour l'instant|pour le moment|"
    "provisoirement|à voir|quoique|laisse tomber|bof|ou pas|ou non|pas sûr à 100%|"
    "pas sûre à 100%|pas complètement sûr|pas totalement sûr|pas tout à fait sûr|"
    "c'est pas ça|ce n'est pas ça|je reviens vers toi|je reviens vers vous|laisse-moi|"
    "je confirme après|je confirme ensuite|plus sûr|plus sûre|sais pas|jsp|brouillon|"
    "super idée|excellente idée|j'hésite|je doute|j'hésite pas mal",
    ru="предварительно|предварительный|предварительная|"
    "есть сомнения|не окончательно|да щас|скорее всего|не уверен|не уверена|кажется|думаю|"
    "наверное|может быть|возможно|подтвержу|пока не точно|"
    "не точно|шучу|пока что|может поменяю|поменяю|напишу позже|позже напишу|подтвержу позже|"
    "временно|хотя|забей|а может и нет|не на 100%|не совсем уверен|не совсем уверена|"
    "не до конца уверен|подумаю|неважно|не то написала|не то написал|дай час|дай мне час|"
    "дай время|потом напишу|потом подтвержу|окончательно позже|черновик|ага конечно|"
    "ага щас|отличная идея|гениально|не знаю|сомневаюсь|колеблюсь|в сомнениях|есть сомнение",
)
# A preference between players ("Nick would be better"): a line naming a player with one
# of these words may change the order, so it is never set aside as a remark (one-word
# phrases: matched on word keys, not through the lexicon).
PREFERENCE: Final = _table(
    en="better|rather|prefer|preferably|should|would|could|worth",
    fr="mieux|plutôt|préfère|préférable|devrais|vaudrait|pourrait",
    ru="лучше|вместо|предпочитаю|предпочла|предпочёл|стоит|стоило|бы",
)
# Words of a remark about a player ("Carl seems scummy", "Nick ment", "Олег врёт"): a
# plain sentence with one of them, and none of ``SEQUENCE``, is chat, not an order.
REMARK: Final = _table(
    en="seems|seem|looks|sounds|said|says|claimed|claims|lied|lies|lying|voted|posted|posts|"
    "acting|acts|quiet|sus|suspicious|scummy|scum|townie|shady|weird|sketchy|annoying|funny|"
    "agreed|agrees|thinks|thought|wrote|accused|defended|pushing|pushed|pushes|wagon|wagons|"
    "bandwagon|bandwagoning|tunneling|tunnelling|tunneled|tunnelled",
    fr="semble|paraît|ment|menti|mentir|dit|écrit|suspect|suspecte|louche|bizarre|calme|"
    "discret|discrète|raison|tort|accusé|défendu|pense|trouve|bavard|bavarde",
    ru="врёт|врет|соврал|соврала|сказал|сказала|говорит|написал|написала|подозрительный|"
    "подозрительная|молчит|странный|странная|прав|права|голосовал|голосовала|думает|считает",
)
# Words that add to or pick an order ("and Carl", "Carl next", "Carl is my pick"): a line
# with one is never a remark.
SEQUENCE: Final = _table(
    en="and|also|too|as well|plus|then|next|after|afterwards|second|another|again|pick|"
    "choice|choose|go for|one|tonight|today|tomorrow|night|day|him|her|them",
    fr="et|aussi|également|puis|ensuite|après|prochain|prochaine|suivant|encore|choix|"
    "choisis|cible|ce soir|cette nuit|demain|nuit|jour|lui|elle",
    ru="и|тоже|также|ещё|еще|потом|затем|следующий|следующая|после|выбор|выбираю|сегодня|"
    "ночью|завтра|ночь|день|его|её|ее|ему|ей",
)
# What a teammate named after a team order does ("we hit Nell tonight, Crispin makes the
# visit", "la famille tue X, Y s'en charge"): who carries the order out, matched on word keys.
CARRY_OUT: Final = _table(
    en="makes the visit|does the visit|visits|does it|does the hit|does the kill|does the job|"
    "does the honours|does the honors|handles it|takes care of it|pulls the trigger|"
    "carries it out|will do it|is on it|goes|does the visiting|will do the visiting|will visit|"
    "will make the visit|will do the kill|will handle it",
    fr="s'en charge|s'en occupera|s'en occupe|le fait|le fera|fait la visite|fera la visite|"
    "y va|ira|fait le boulot|s'y colle|s'y collera",
    ru="исполнит|исполняет|выполнит|выполняет|сделает|берёт на себя|берет на себя",
)
# Common words of each language (besides the grammar's own): a word written as one of them
# is that word, never a misspelt or shortened player name ("more fun than sitting around"
# is not Thad; "and" is not Andrea).
COMMON_WORDS: Final = _table(
    en="the|than|then|that|this|these|those|there|their|they|them|what|when|where|who|whom|"
    "why|how|with|without|from|about|over|under|after|before|because|while|since|until|"
    "some|any|many|much|more|most|less|least|very|really|quite|just|only|even|still|also|"
    "all|each|every|both|either|neither|other|another|such|same|here|now|never|always|"
    "often|again|too|not|but|and|nor|yet|for|was|were|are|has|have|had|been|being|can|"
    "could|shall|should|will|would|may|might|must|does|did|done|get|got|gets|make|made|"
    "take|took|come|came|know|knew|think|thought|look|looks|see|saw|say|said|tell|told|"
    "give|gave|good|great|bad|best|better|worse|little|big|long|last|first|next|new|old|"
    "own|people|thing|things|something|anything|nothing|everything|someone|anyone|"
    "everyone|nobody|way|day|days|night|nights|time|today|tonight|yesterday|tomorrow|"
    "around|into|onto|upon|off|out|down|back|away|through|sure|fun|fine|yes|yeah|okay",
    fr="les|des|une|mais|donc|car|pour|par|avec|sans|sous|sur|dans|chez|vers|entre|"
    "depuis|pendant|avant|après|comme|quand|alors|aussi|encore|toujours|jamais|déjà|"
    "très|trop|peu|beaucoup|plus|moins|bien|mal|tout|tous|toute|toutes|rien|personne|"
    "quelqu'un|chose|autre|autres|même|ici|cette|ces|celle|celui|ceux|leur|leurs|notre|"
    "votre|nous|vous|elle|elles|ils|lui|moi|toi|qui|que|quoi|dont|où|est|sont|était|"
    "être|avoir|fait|faire|dit|dire|vais|veux|peut|faut|oui|non|nuit|jour|soir|demain|"
    "hier|aujourd'hui|bon|bonne|merci|vraiment",
)
# A pronoun for a player ("vote: pofa. And I'm using Voice of Accusation on him"): in an
# order naming nobody, the one player the PM's earlier orders named.
PRONOUN: Final = _table(
    en="him|her|them|it",
    fr="lui|elle",
    ru="него|неё|нее|его|её|ее|ним|ней|нему",
)
# "The player" written next to a name that is also a role word ("je sauve shinra (le joueur
# hein, pas moi)", "the player Mayor"): the sender means the player.
PLAYER_WORD: Final = _table(en="player", fr="joueur|joueuse", ru="игрок|игрока|игроку|игроком")
# A word closing a sentence's order that makes it the replacement of an earlier one ("tant
# pis, bloque Jérémie plutôt", "heal Bob instead", "лечу Диму лучше").
INSTEAD: Final = _table(en="instead|rather", fr="plutôt|plutot", ru="лучше")
# Correction words that confirm when nothing follows them ("check Tomasz. Final."): not a
# correction left dangling.
AFFIRM: Final = _table(
    en="final|final answer|for real|definitely",
    fr="définitif|définitive|pour de vrai|final",
    ru="окончательно|итог|итого|точно",
)
# Words that pick a player ("Gwen is my pick", "mon choix"): chat before the order with one
# may be the real choice, so it is never set aside.
PICK: Final = _table(
    en="pick|choice|choose|vote|lynch",
    fr="choix|choisis|choisir|vote|voter",
    ru="выбор|выбираю|выбрать|голос|голосую",
)
# A postscript ("PS: Nick is lying"): chat after the orders.
POSTSCRIPT_LINE: Final = r"^\s*(?:p\.?\s?-?\s?p?\.?\s?s\.?|зы|п\.?\s?с\.?)(?=[\s:.,!\-–—]|$)"
# Words of a sender acting on another player's behalf ("Кот передал мне ходы", "X handed me
# his actions"): the hand-off is the GM's to check.
HANDED: Final = _table(
    en="handed me|gave me his actions|gave me her actions|gave me their actions|on behalf of|"
    "in his place|in her place",
    fr="m'a confié ses actions|m'a donné ses actions|de la part de|à sa place",
    ru="передал мне|передала мне|доверил мне|доверила мне|от имени|вместо него|вместо нее|"
    "вместо неё",
)
# Asking the GM for what happened ("tell me who he visited last night"): with a past phase
# in the same sentence, a question whatever its punctuation.
TELL_ME: Final = _table(
    en="tell me|let me know|inform me|remind me",
    fr="dis-moi|dites-moi|rappelle-moi|rappelez-moi",
    ru="скажи|скажите|подскажи|подскажите|напомни|напомните",
)
# The choice left to the GM ("your call", "à toi de voir", "реши сам"): undecided even in
# brackets, where an ordinary hedge is an aside ("(she might be lying)").
OPEN_CHOICE: Final = _table(
    en="your call|up to you|you decide|you choose|you pick|pick one|pick for me|whichever you|"
    "gm's choice|your choice|dealer's choice",
    fr="à toi de voir|je te laisse choisir|je te laisse décider|c'est toi qui vois|comme tu veux|"
    "au choix|à ton choix|tu choisis|choisis pour moi",
    ru="на твоё усмотрение|на твое усмотрение|реши сам|решай сам|решай|выбери сам|как хочешь|"
    "на выбор|на твой выбор|выбирай",
)
NEGATION: Final = _table(
    en="don't|dont|do not|not|no|never|won't|wont|no longer|instead of",
    fr="ne|n'|pas|plus|jamais|au lieu de",
    ru="не|нет|вместо",
)
ALTERNATIVE: Final = _table(
    en="else|otherwise|if not|if not possible|if he dies|if she dies|if they die|"
    "if dead|backup|fallback|second choice|failing that|or if",
    fr="sinon|à défaut|ou sinon|si impossible|en second",
    ru="иначе|если нет|если не|запасной|а если|либо",
)
# Targets described instead of named: the GM must pick the player.
VAGUE: Final = _table(
    en="whoever|whomever|someone|somebody|anyone|anybody|same person|same as|the one who|"
    "random|randomly|whoever is|person who|player who|guy who|girl who|one who|people who",
    fr="quelqu'un|n'importe qui|celui qui|celle qui|au hasard|le même|la personne qui|"
    "le joueur qui|la joueuse qui|celui que|celle que|ceux que|celui qu'|celle qu'|"
    "le plus|la plus",
    ru="кого-нибудь|кто-нибудь|кого-то|любого|тот кто|того кто|того|кого|наугад|случайно",
)
# "if X is lynched, then Y": the condition of a ranked alternative (after "if", "si", "если").
GONE: Final = _table(
    en="lynched|dies|die|dead|killed|arrested|gone|unavailable|jailed|detained|abroad|"
    "can't|cannot|not available|not possible|away|blocked|out",
    fr="meurt|meurs|mort|morte|lynché|lynchée|arrêté|arrêtée|absent|absente|indisponible|éliminé|"
    "éliminée|impossible|tué|tuée",
    ru="умрет|умрёт|умру|умер|умерла|убит|убита|убьют|посадят|сел|села|сядет|недоступен|недоступна|"
    "нельзя|выбыл|выбыла",
)
CONDITION_START: Final = _table(
    en="if|in case",
    fr="si|s'il est|s'il a|s'il se|s'il ne|s'il n'|s'ils|au cas où",
    ru="если|в случае",
)
# Words before "else" that make it no branch ("anything else", "someone else").
BRANCH_NOT_AFTER: Final = _table(
    en="anything|something|nothing|everything|anyone|someone|somebody|nobody|everyone|"
    "everybody|anybody|no one|what|who|where|whatever|whoever|much|little",
    fr="",
    ru="",
)
# "not my kill tonight, boss has it": a negated order word that says someone else has the
# action is a remark, no cancel of the sender's own order.
OTHERS_TURN: Final = _table(
    en="not my|not mine|isn't mine|is not mine|isnt mine|not me|not on me|someone else|"
    "somebody else|not up to me|not my turn|has it|has the kill|got it|is doing it|does it",
    fr="pas moi qui|c'est pas moi|ce n'est pas moi|pas à moi|pas mon|pas ma|pas pour moi|"
    "quelqu'un d'autre|s'en charge|s'en occupe",
    ru="не я|не мой|не моя|не мое|не моё|не мне|не за мной|кто-то другой|другой убивает",
)
# "if X, A; if not, B": the other branch of a condition (after a CONDITION_START word).
BRANCH_OTHERWISE: Final = _table(
    en="if not|if no|if none|if nobody|otherwise|else|if it didn't|if they didn't|if he didn't|"
    "if she didn't|if i wasn't|if i didn't",
    fr="sinon|si non|si pas|si ce n'est pas le cas|si c'est pas le cas|dans le cas contraire|"
    "si personne",
    ru="если нет|иначе|если же нет|если не|если никого|в противном случае|а нет",
)
# "Heal Bob. Or not, he's probably fine.": a sentence opening with one of these after an
# order, naming nobody, takes the order back without saying what replaces it.
RETRACT_START: Final = _table(
    en="or not|or maybe not|or don't|wait no|no wait|hold on|hang on",
    fr="ou pas|ou non|ou peut-être pas|non attends|attends non|attends",
    ru="или нет|а может нет|а может и нет|хотя нет|стоп|погоди|подожди|ой нет|нет|нет-нет|"
    "не-не|упс",
)
# "actually no, ...": what follows replaces the orders before it in the PM.
CORRECTION: Final = _table(
    en="actually|actually no|no wait|wait no|on second thought|scratch that|instead|"
    "changed my mind|change of plans|change my action|or rather|make that|"
    "make it|change that to|change it to|i mean|correction|for real|for real tho|"
    "for real though|final answer",
    fr="en fait|finalement|plutôt|non attends|j'ai changé d'avis|changement|ou plutôt|"
    "non|enfin non|enfin|non pardon|pardon|je veux dire|je voulais dire|rectification|attends|"
    "pour de vrai|réflexion faite|reflexion faite|après réflexion|apres reflexion|"
    "à la réflexion|tout compte fait|tous comptes faits|je me ravise|je change d'avis|"
    "changement de plan|changement de programme|je rectifie|non en fait|ah non|"
    "correction",
    ru="хотя нет|а нет|нет лучше|лучше|передумал|передумала|вместо этого|меняю ход|изменяю ход|"
    "или нет|или лучше|точнее|вернее|то есть|поправка|исправляю|стоп|итог|итого|окончательно|"
    "ой нет|ой стоп|упс",
)
# "Target: Dave", "cible : Hugo", "Ход доктора: Стас": a target named without an order word;
# the sender's one usable targeted ability is meant (several: the GM picks).
TARGET: Final = _table(
    en="target|my target|targets|tonight's target|target tonight|my action|action|"
    # a controlled player's new target ("Control Radley and send him at Marwick")
    "send him at|send her at|send them at|send him to|send her to|send them to|"
    "send him after|send her after|point him at|point her at|point them at|aim him at|"
    "aim her at|have him target|have her target|have them target|make him target|"
    "make her target|make them target|redirect him to|redirect her to|redirect them to",
    fr="cible|ma cible|mon action|action|envoie-le sur|envoie-la sur|envoie-les sur|"
    "envoie-le chez|envoie-la chez|fais-le viser|fais-la viser|redirige-le vers|"
    "redirige-la vers|redirige-le sur|redirige-la sur",
    ru="ход|мой ход|цель|моя цель|действие",
)
SELF: Final = _table(
    en="me|myself|self|my self",
    fr="moi|moi-même|moi meme|me",
    ru="себя|себе|меня",
)
# Russian role words name a woman with another suffix ("Вербовщица", "Докторша",
# "Журналистка"); the rulesets list the masculine forms. Endings of a role word and what a
# feminine form ends in instead, the first that fits (adjectives of a role phrase too:
# "мирная жительница"). Words of two letters, or already feminine, stay.
FEMININE_RU: Final = (
    ("щик", "щица"), ("тель", "тельница"), ("ник", "ница"), ("ист", "истка"), ("як", "ячка"),
    ("анин", "анка"), ("арь", "арка"), ("ат", "атка"), ("ор", "орша"), ("ер", "ерша"),
    ("ар", "арша"), ("эр", "эрша"), ("ир", "ирша"), ("ф", "фша"), ("ный", "ная"), ("ой", "ая"),
    ("ий", "ая"),
)  # fmt: skip
CRIME_LINK: Final = _table(en="for|with|of", fr="pour|de", ru="за")
DISGUISE_LINK: Final = _table(en="as|disguised as|disguising as", fr="en|comme", ru="как|под")
GREETING: Final = _table(
    en="hi|hello|hey|heya|hiya|yo|dear gm|hi gm|hey gm|hello gm|good evening|good morning|"
    "gm|mod|host|evening|morning|sup|ok|okay|so|alright|hmm|um|uh|please|pls|plz|btw|"
    "by the way|oh|ah",
    fr="hmm|hum|euh|salut|bonjour|bonsoir|coucou|cher mj|mj|yo|alors|bon|donc|stp|svp|"
    "s'il te plaît|"
    "au fait|oh|ah",
    ru="хм|хмм|эм|ой|привет|здравствуйте|здрасьте|добрый вечер|доброй ночи|хай|ведущий|ведущая|"
    "добрый день|доброе утро|доброго вечера|доброго времени суток|всем привет|здравствуй|"
    "мир вашему дому|мир дому сему|мир вам|приветствую|"
    "итак|так|"
    "ну|пожалуйста|плиз|кстати",
)
SIGNOFF: Final = _table(
    en="thanks|thank you|thx|ty|cheers|regards|best|see you|cya|gn|good night|love|xoxo|bye",
    fr="merci|bisous|cordialement|a+|à plus|bonne nuit|bises|salut",
    ru="спасибо|спс|удачи|с уважением|пока|спокойной ночи",
)
WILL: Final = _table(
    en="will|my will|last will|last words|testament",
    fr="testament|mon testament|dernières volontés",
    ru="завещание|моё завещание|последнее слово",
)
HANDOFF: Final = _table(
    en="hand over my actions|hand off my actions|hand my actions|give my actions|"
    "power over my actions|authority over my actions|control of my actions|"
    "control over my actions|control my actions|handle my actions|decide my actions|"
    "send my actions|my actions to|handles my actions|will act for me|acts for me|"
    "act for me|takes my actions|take over my actions|leave my actions to|my actions go to",
    fr="je confie mes actions|je donne mes actions|pouvoir sur mes actions|"
    "contrôle de mes actions|mes actions à|décider de mes actions|je laisse mes actions à|"
    "s'occupe de mes actions|agit pour moi|prend mes actions|agira pour moi",
    ru="передаю свои ходы|передаю мои ходы|передаю ходы|доверяю свои ходы|"
    "доверяю ходы|решает за меня|ходит за меня|мои ходы|за меня ходит|отдаю ходы|"
    "отдаю свои ходы|делает ходы за меня",
)
VOTE: Final = _table(
    en="vote|votes|voting|vote for|vote against|my vote|lynch|i vote",
    fr="vote|voter|je vote|vote contre|je vote contre|mon vote|voix|contre|élis|élire",
    ru="голосую|голос|голосую за|голосую против|мой голос|сажаю|посадить|голосовать",
)
NO_TARGET: Final = _table(
    en="no one|nobody|no lynch|noone|no-one|none",
    fr="personne|aucun|blanc",
    ru="никого|никто|пустой голос|воздерживаюсь",
)
TONIGHT: Final = _table(
    en="tonight|today|this night|this phase|this day|now",
    fr="cette nuit|ce soir|aujourd'hui|ce tour",
    ru="сегодня|этой ночью|сейчас|этой|сегодняшней",
)
PREVIOUS: Final = _table(
    en="last night|yesterday", fr="la nuit dernière|hier", ru="прошлой ночью|вчера"
)
# "Передаю от Вадима: ...": another player's orders passed on by the sender (queued)
FORWARDED: Final = _table(
    en="on behalf of|forwarding from|passing on from|asked me to pass on|asked me to forward",
    fr="de la part de|au nom de|m'a demandé de transmettre|m'a demandé de faire passer",
    ru="передаю от|пересылаю от|от имени|просил переслать|просила переслать|просил передать|"
    "просила передать",
)
# "next night", "la nuit prochaine": an order for a later phase than the PM's (queued)
NEXT: Final = _table(
    en="next night|tomorrow night|next day|tomorrow",
    fr="la nuit prochaine|la prochaine nuit|nuit prochaine|demain soir|demain",
    ru="следующей ночью|следующую ночь|завтра ночью|завтра",
)
PREP: Final = _table(
    en="prep|prep phase|preparation|preparation phase|pre-game",
    fr="préparation|phase de préparation",
    ru="подготовка|подготовительная фаза",
)
ORDINALS: Final = _table(
    en="first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth",
    fr="première|deuxième|troisième|quatrième|cinquième|sixième|septième|huitième|neuvième|dixième",
    ru="первый|второй|третий|четвёртый|пятый|шестой|седьмой|восьмой|девятый|десятый",
)
# Words that introduce a target and carry no meaning of their own.
FILLER: Final = _table(
    en="i|i'd|i'll|id|ill|im|i'm|want|wanna|would|like|to|the|a|an|on|at|use|using|my|"
    "action|ability|will|shall|going|gonna|please|pls|plz|target|targeting|is|be|with|"
    "tonight|today|night|day|and|then|also|just|let|lets|let's|do|it|this|that|time|"
    "onto|into|upon|person|player|again|once|more|order|orders|phase|go|crime|victim|wait|"
    "does|did|pm|dm|by pm|private message|no hesitation|without hesitation|without hesitating",
    fr="je|j'|vais|veux|voudrais|aimerais|le|la|les|l'|un|une|sur|à|au|mon|ma|mes|mp|par mp|"
    "message privé|comme demandé|"
    "action|pouvoir|cible|cette|ce|nuit|jour|et|puis|aussi|utilise|utiliser|de|du|"
    "des|s'il|te|plaît|svp|stp|encore|fois|crime|victime|je n'hésite pas|j'hésite pas|"
    "sans hésiter|sans hésitation",
    ru="я|хочу|буду|бы|на|в|во|к|ко|с|со|у|мой|моя|свой|свою|ход|ходом|этой|эту|ночью|жертва|"
    "днём|днем|и|а|тоже|также|ещё|еще|пожалуйста|по|раз|сегодня|ночь|день|иду|идти|пойду|"
    "лс|в лс|личка|в личку|не сомневаюсь|не сомневаясь|без колебаний|не колеблясь|"
    # "думаем на Афанасия": suspecting the target, not the hedge "думаю"
    "думаю на|думаем на|думал на|думала на|думали на",
)
# Russian prepositions and the cases they govern (pymorphy3 case tags): "к Тигре" is the
# dative, so it names Тигра, not Тигр. A name right after an order verb is in the accusative.
GOVERNMENT: Final = MappingProxyType(
    {
        "к": "datv", "ко": "datv", "по": "datv", "за": "ablt accs", "с": "ablt gent",
        "со": "ablt gent", "у": "gent", "от": "gent", "для": "gent", "без": "gent",
        "против": "gent", "около": "gent", "возле": "gent", "в": "accs loct", "во": "accs loct",
        "на": "accs loct", "о": "loct", "об": "loct", "про": "accs", "под": "ablt accs",
        "над": "ablt", "перед": "ablt", "между": "ablt",
    }
)  # fmt: skip
VERB_CASE: Final = "accs"
# Separators that end a clause (split points between orders).
CLAUSE_BREAK: Final = _table(
    en="and then|then|also|and|plus|after that",
    fr="et puis|puis|aussi|et|ensuite",
    ru="а также|также|потом|затем|и|а",
)
# Words players use for an effect whatever the ruleset calls it ("je vérifie Hugo" for a
# night search, "проверка" for a check). Added to an ability only where no ability of the
# ruleset already has the phrase, so the ruleset's own words always win; a sender with two
# abilities of one effect gets both readings (the GM picks).
EFFECT_WORDS: Final = MappingProxyType(
    {
        "investigate": _table(
            en="investigate|investigating|investigation|inspect|examine|look into|check on|"
            "checking|cross-examine|cross examine|cross-examining|know the role of|"
            "find out the role of|know the exact role of|find out the exact role of",
            fr="vérifie|vérifier|vérification|enquête|enquêter|enquête sur|j'enquête|inspecte|"
            "inspecter|examine|examiner|contrôle|contrôler|fouille|fouiller|interroge|"
            "interroger|interrogatoire|contre-interroge|contre-interroger|investigation|"
            "je regarde|regarder",
            ru="проверяю|проверка|проверить|проверю|расследую|расследование|допрос|допрашиваю",
        ),
        "protect": _table(
            en="patching up|patch up|patching|stitching|stitch",
            fr="rafistole|rafistoler",
            ru="подлатаю|подлатать|латаю",
        ),
        "attack": _table(
            en="bullet|my bullet|shot at|take out|taking out|eliminate|eliminating|gun down",
            fr="tire sur|tirer sur|balle|ma balle|abattre|abats|élimine|éliminer",
            ru="пуля|пулю|пулей|выстрел в|застрелить|застрелю",
        ),
    }
)
