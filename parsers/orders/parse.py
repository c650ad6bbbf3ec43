"""``parse_order``: one PM in, a :class:`ParseResult` out (accepted, ambiguous or rejected)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rapidfuzz.distance import OSA

from parsers.orders import grammar
from parsers.orders.build import Piece, build
from parsers.orders.combine import Unread, combine
from parsers.orders.context import Context, Reading
from parsers.orders.effectday import tells_the_effect, without_effect_day
from parsers.orders.handoff import handed_parts, signed_off, without_statement
from parsers.orders.history import History
from parsers.orders.lexicon import CATALOGUE_KINDS, TRIGGER_KINDS, Lexicon, Match
from parsers.orders.model import Candidate, Kind, Learned, Order, ParseResult, Status
from parsers.orders.performer import (
    kill_order,
    one_move_each,
    performer_pieces,
    role_performer,
    rule_performer_named,
)
from parsers.orders.players import NameHit, PlayerFinder
from parsers.orders.rules import clan_head, killing_action_doubt, meant_for_reading
from parsers.orders.scan import Draft, carries_out_sentence, said_player, scan, told_past
from parsers.orders.text import (
    MAX_SENTENCE_WORDS,
    Token,
    content_lines,
    normalize,
    split_sentences,
    strip_markup,
    tokenize,
)
from parsers.orders.translit import is_latin_only, to_cyrillic
from parsers.orders.validate import Situation, Verdict, validate
from parsers.phases import Phase, is_previous, parse_phase
from parsers.roster import Roster
from resolver.model import Ruleset

# Words a correction may hold besides names ("no wait, Frank", "нет, лучше Мару").
_CORRECTION_WORDS = frozenset(
    {
        "filler",
        "greeting",
        "correction",
        "negation",
        "clause",
        "signoff",
        "alternative",
        "will",
        "question",
    }
)
# A misspelt order word is at most this many edits from a vocabulary word (GM confirms it).
_TYPO_EDITS = 2
# Longer PMs are queued unread ("too long"): a PM is read in bounded time, never for a minute.
MAX_PM_BYTES = 64 * 1024
# A PM of more sentences, or more order words read as drafts, than these is queued once
# they are reached (the time to read one grows with them: 64 KB of one-word lines, or of
# orders, took seconds). 64 KB of chat is about 800 sentences, 110 order words at most.
MAX_PM_SENTENCES = 1500
MAX_PM_ORDERS = 200
# A sentence of more than ``MAX_SENTENCE_WORDS`` words (text.py) is queued before it is read:
# one sentence is scanned word by word into one order after another (64 KB: 0.2 s).
_TYPO_CACHE = 50_000  # words remembered by the misspelt-order-word search


class _TooMuch(Exception):
    """A PM with more to read than the bounds allow (``MAX_PM_SENTENCES``, ``MAX_PM_ORDERS``,
    ``MAX_SENTENCE_WORDS``)."""


class OrderParser:
    """Parses PMs for one ruleset; keeps the vocabulary and per-roster name indexes warm."""

    def __init__(self, ruleset: Ruleset) -> None:
        """Build the ruleset's vocabulary (once; reuse the parser for every PM of a game)."""
        self.ruleset = ruleset
        self.lexicon = Lexicon(ruleset)
        self._finders: dict[tuple[int, tuple[tuple[str, str], ...]], PlayerFinder] = {}
        self._roster_refs: dict[int, Roster] = {}
        self._typos: dict[tuple[str, frozenset[str] | None], str | None] = {}

    def finder(self, roster: Roster, learned: Mapping[str, str]) -> PlayerFinder:
        """The name index of a roster (with the GM-taught nicknames), built once."""
        key = (id(roster), tuple(sorted(learned.items())))
        found = self._finders.get(key)
        if found is None or self._roster_refs.get(id(roster)) is not roster:
            found = PlayerFinder(roster, self.lexicon.morph, learned, self.lexicon.all_words)
            self._finders[key] = found
            self._roster_refs[id(roster)] = roster
        return found

    def parse(
        self,
        text: str,
        *,
        roster: Roster,
        actor: str,
        phase: Phase | str,
        learned: Learned | None = None,
        recipients: Collection[str] | None = None,
        uses_left: Mapping[str, int] | None = None,
        items: Collection[str] = (),
        history: History | None = None,
    ) -> ParseResult:
        """Parse one PM. See :func:`parse_order` for the arguments. A PM of Latin letters
        only in which nothing was found is read again as Russian transliteration where the
        ruleset is Russian ("lechu Varvaru": "лечу Варвару")."""
        given: dict[str, Any] = {
            "roster": roster, "actor": actor, "phase": phase, "learned": learned,
            "recipients": recipients, "uses_left": uses_left, "items": items, "history": history,
        }  # fmt: skip
        slot = roster.by_author(actor)
        parts: list[tuple[str, str]] = []
        if slot is not None and "handoff_requires_cc" in self.ruleset.options:  # as the runtime
            own, parts = handed_parts(text, roster, slot.name, history)
        if parts:  # "For Ctu: discombobulate Sebolains" from Ctu's delegate
            return self._handed(own, parts, given)
        found = self._parse(text, **given)
        if found.orders or found.candidates or "ru" not in self.lexicon.languages:
            return found
        if found.status is not Status.AMBIGUOUS or not is_latin_only(text):
            return found
        again = self._parse(to_cyrillic(text), **given)
        return again if again.orders or again.candidates else found

    def _handed(self, own: str, parts: list[tuple[str, str]], given: dict[str, Any]) -> ParseResult:
        """A delegate's PM: each part read as its giver's PM (seed 000: "any and all orders
        they make for you will override your own orders"), when the hand-off covers the
        phase; the delegate's own words around them as the delegate's PM."""
        roster, history = given["roster"], given["history"]
        me = roster.by_author(given["actor"]).name
        now = parse_phase(given["phase"]) if isinstance(given["phase"], str) else given["phase"]
        results: list[ParseResult] = []
        parts, own = signed_off(parts, own, roster.by_author(given["actor"]))
        for giver, body in parts:
            if not any(h.sender == giver and h.delegate == me and h.covers(now.id)
                       for h in history.handoffs):  # fmt: skip
                why = f"orders for {giver}, whose actions for {now.id} were not handed to {me}"
                results.append(_verdict(Status.AMBIGUOUS, why))
                continue
            read = self._parse(body, **{**given, "actor": giver, "uses_left": None, "items": ()})
            results.append(_for_player(read, giver))
        givers = {g for g, _ in parts}
        others = [n for s in roster.slots if s.name not in givers | {me}
                  for n in (s.name, *s.aliases)]  # fmt: skip
        own = without_statement(own, sorted(givers), others)
        mine = self._parse(own, **given) if own.strip() else None
        if mine is not None and not _only_about(mine, own, roster, givers | {me}):
            results.insert(0, mine)
        return _merged(results)

    def _parse(
        self,
        text: str,
        *,
        roster: Roster,
        actor: str,
        phase: Phase | str,
        learned: Learned | None = None,
        recipients: Collection[str] | None = None,
        uses_left: Mapping[str, int] | None = None,
        items: Collection[str] = (),
        history: History | None = None,
    ) -> ParseResult:
        """Parse one PM as written."""
        size = len(text.encode("utf-8", "replace"))
        if size > MAX_PM_BYTES:
            why = f"PM too long to read ({size // 1024} KB, over {MAX_PM_BYTES // 1024} KB)"
            return _verdict(Status.AMBIGUOUS, f"{why}: the GM reads it")
        learned = learned or Learned()
        now = phase if isinstance(phase, Phase) else parse_phase(phase)
        slot = roster.by_author(actor)
        if slot is None:
            return _verdict(Status.REJECTED, f"{actor} is not a player of this game")
        abilities = self._abilities(slot.role, items, slot.statuses)
        ctx = Context(
            lexicon=self.lexicon,
            players=self.finder(roster, learned.names),
            actor=slot.name,
            phase=now,
            abilities=abilities,
            role=self._role_id(slot.role),
            usable=_usable(self.ruleset, abilities, now, slot.statuses),
            learned_abilities={k.casefold(): v for k, v in learned.abilities.items()},
            night_first=_night_first(self.ruleset),
            one_action=_option(self.ruleset, "actions_per_phase") == 1,
            exclusive=self._exclusive(slot.role),
            combos_unknown=self._combos_unknown(slot.role),
        )
        sit = Situation(roster, recipients, uses_left or {}, history)
        try:
            drafts, questions, unread, written = self._read(text, ctx)
            drafts = [d for draft in drafts for d in self._testament(draft, ctx)]
        except _TooMuch as too_much:
            return _verdict(Status.AMBIGUOUS, f"{too_much}: the GM reads it")
        if _forwards(text):  # "Передаю от Вадима: «стреляем в Руслана»"
            for draft in drafts:
                draft.handed = True
        pieces, verdicts = self._pieces(drafts, ctx, sit)
        verdicts = _killing_actions(pieces, verdicts, ctx, history)
        result = combine(pieces, verdicts, questions, ctx, unread)
        return _branched(_unread_orders(result, pieces, written), text)

    def _pieces(
        self, drafts: list[Draft], ctx: Context, sit: Situation
    ) -> tuple[list[tuple[Piece, list[Piece]]], list[Verdict]]:
        """Each draft's readings (best first) and the verdict of the best; a draft naming
        its performer is read as that player's order (``performer.py``)."""
        pieces: list[tuple[Piece, list[Piece]]] = []
        verdicts: list[Verdict] = []
        for draft in drafts:
            verdict: Verdict | None = None
            role_performer(draft, ctx, sit)
            rule_performer_named(draft, ctx)
            ordered = kill_order(draft, ctx, sit) if draft.doer is not None else None
            if ordered is not None:  # "Kleene kills Anna" from the BO leader: order_kill
                found, verdict = ordered
            elif draft.doer is not None:
                own = self._performer_context(ctx, sit.roster, draft.doer.players[0])
                found, verdict = performer_pieces(draft, ctx, own, sit)
            else:
                found = build(draft, ctx)
            if found:
                verdict = verdict or validate(found[0].order, ctx, sit)
                verdict = _meant_for_the_prisoner(found[0], draft, verdict, ctx, sit)
                pieces.append((found[0], found[1:]))
                verdicts.append(verdict)
        one_move_each(pieces, verdicts)
        sent = self._sent_earlier(ctx, sit.history)
        return _remarks(pieces, verdicts, sent, _team_abilities(self.ruleset))

    @staticmethod
    def _sent_earlier(ctx: Context, history: History | None) -> frozenset[str]:
        """Ability ids of the sender's earlier orders this phase; ``{"?"}`` when the
        history is not known (an earlier order may exist)."""
        if history is None:
            return frozenset({"?"})
        return frozenset(o.ability for o in history.in_phase(ctx.phase.id) if o.actor == ctx.actor)

    def _performer_context(self, ctx: Context, roster: Roster, name: str) -> Context | None:
        """The context of a performer's order: their abilities, role and usable words."""
        slot = next((s for s in roster.slots if s.name == name), None)
        role = self._role_id(slot.role) if slot is not None else None
        if slot is None or role is None:
            return None
        abilities = self._abilities(role, (), slot.statuses)
        usable = _usable(self.ruleset, abilities, ctx.phase, slot.statuses)
        return replace(ctx, actor=name, abilities=abilities, role=role, usable=usable,
                       exclusive=self._exclusive(role))  # fmt: skip

    def _read(
        self, text: str, ctx: Context
    ) -> tuple[list[Draft], list[str], list[Unread], list[tuple[str, frozenset[str]]]]:
        """Every draft of the PM, in order, the sentences asked as questions, the
        sentences that name a player without being read as an order, and per sentence the
        sender's abilities whose phrases it holds."""
        drafts: list[Draft] = []
        questions: list[str] = []
        unread: list[Unread] = []
        written: list[tuple[str, frozenset[str]]] = []
        will: Draft | None = None
        last_line = -1
        lines = content_lines(strip_markup(text))
        postscript = _postscript_lines(lines)
        read = 0
        ahead = False  # a sentence before any order doubted the order to come
        for line, sentence in split_sentences(lines):
            if will is not None:  # a will runs to the end of the PM
                will.text += ("\n" if line != last_line else " ") + sentence
                last_line = line
                continue
            read += 1
            if read > MAX_PM_SENTENCES:
                raise _TooMuch(f"PM too long to read (over {MAX_PM_SENTENCES} sentences)")
            if len(sentence) > MAX_SENTENCE_WORDS and len(sentence.split()) > MAX_SENTENCE_WORDS:
                raise _TooMuch(
                    f"PM with a sentence too long to read (over {MAX_SENTENCE_WORDS} words)"
                )
            reading = without_effect_day(Reading.of(tokenize(sentence, line), ctx), ctx)
            if drafts and tells_the_effect(reading, ctx, set(drafts[-1].abilities)):
                continue  # "Обвиняю X. Завтра голосую двойным.": the accusation's effect
            if not reading.sentence.tokens:
                if drafts and _SARCASM.search(sentence):
                    drafts[-1].hedged = True  # "Shadow Brannock. 🙄"
                continue
            carry = drafts[-1] if drafts else None
            scanned = _may_order(reading, ctx, carry)
            found, carried = scan(reading, ctx, carry) if scanned else ([], False)
            if scanned and ctx.abilities:
                texts = [t.text for t in reading.sentence.tokens]
                held = ctx.lexicon.abilities_split(reading.keys, texts, ctx.abilities)
                written += [(sentence, held)] if held else []
            found = found or ([] if carried else self._guess(reading, ctx, carry is None))
            if (
                carry is not None
                and not carried
                and carries_out_sentence(reading, ctx, carry, found)
            ):
                written = [w for w in written if w[0] != sentence]  # "Kill: Branwen.
                continue  # Ignatz does the visiting.": the order's performer, told apart
            found = _on_that_vote(found, reading)
            _with_the_vote(found, reading, ctx)
            if not found and not carried and scanned:
                found = _split_order(reading, ctx)  # "je rends Tristan simple villageois"
            asks = reading.sentence.question or _starts_with_question(reading, ctx)
            asks = asks or _asks_about_the_past(reading, ctx)
            if not found and not asks and not carried and carry is not None:
                found = _bare_names(reading, ctx, carry)
            _name_first(drafts, found, reading, ctx)
            _pronoun_target(drafts, found, reading, ctx)
            named = _named(reading, ctx)
            for draft in found:
                draft.mentions = named
            if _SARCASM.search(sentence):  # "heal Osgood /s", "je soigne Isidore 🙄"
                for draft in found or drafts[-1:]:
                    draft.hedged = True
            if found and _opens_with_maybe(reading):
                for draft in found:  # "Может, лишу голоса Малушу.": maybe, not a decision
                    draft.hedged = True
            if found and ahead:
                for draft in found:  # "Not sure about this one. Shoot Maud."
                    draft.hedged = True
            ahead = not found and not carried and not drafts and _doubts_ahead(reading, ctx)
            if not found and not carried and drafts and _doubts(reading, ctx, drafts[-1]):
                drafts[-1].hedged = True  # "Heal Hugo. Enfin je crois, à confirmer."
            if not found and not carried and drafts and _retracts(reading, ctx):
                drafts[-1].hedged = True  # "Слежу за Х. Или нет, он скорее всего чист."
                drafts[-1].taken_back = _with_a_reason(reading)
            if not found and not carried and drafts and _dangling(reading, ctx):
                drafts[-1].hedged = True  # "check Tomasz. no wait.": a correction to nobody
            _takes_back_unnamed(drafts, found, reading, ctx)
            _replaces_taken_back(drafts, found)
            if not found and not carried and drafts and _or_someone(reading, ctx):
                drafts[-1].hedged = True  # "Heal Gwen. Or someone else.": an open choice
            if asks:
                questions.append(sentence)
            elif not found and not carried and named and not _only_not(reading, ctx):
                plain = _plain(reading, ctx)
                remark = plain and (_remark(reading, ctx) or _told_what_happened(reading, ctx))
                chatter = not drafts and _chatter(reading, ctx)
                clear = _clarifies(reading, ctx)
                recants = not plain and _recants(reading, ctx)
                ps = line in postscript
                unread.append(Unread(sentence, named, plain, ps, remark, chatter, clear, recants))
            later = _names_a_later_phase(reading)
            for draft in found:
                draft.question = draft.question or asks
                draft.later = draft.later or later
            drafts += found
            if len(drafts) > MAX_PM_ORDERS:
                raise _TooMuch(f"PM with too many order words to read (over {MAX_PM_ORDERS})")
            will = next((d for d in found if d.kind is Kind.WILL), None)
            last_line = line
        return drafts, questions, unread, written

    def _testament(self, draft: Draft, ctx: Context) -> list[Draft]:
        """ "Mon testament : si je meurs, je désigne Noé comme successeur": a will that
        gives an order of an ability the ruleset lets a will carry (``will_allowed``, the
        Durarara mayor's successor) is that order; a will that only names such an ability
        goes to the GM."""
        known = self.ruleset.abilities
        allowed = {a for a in ctx.abilities or ()
                   if a in known and known[a].effect_params.get("will_allowed")}  # fmt: skip
        if draft.kind is not Kind.WILL or not allowed:
            return [draft]
        body = _IF_I_DIE.sub(" ", _without_header(draft.text, ctx)).strip(" :,.-")
        inner, asked, unread, _ = self._read(body, ctx)
        if (
            inner
            and not asked
            and not unread
            and all(d.kind is Kind.ORDER and set(d.abilities) <= allowed for d in inner)
        ):
            return inner
        if any(set(d.abilities) & allowed for d in inner):
            draft.hedged = True  # the will also says something else: the GM reads it
        return [draft]

    def _abilities(
        self, role: str | None, items: Collection[str], statuses: Collection[str] = ()
    ) -> frozenset[str] | None:
        role_id = self._role_id(role)
        if role_id is None:
            return None
        own = self.ruleset.roles[role_id]
        found = set(own.abilities)
        for other in self.ruleset.roles.values():  # a faction's shared kill (Mafioso, BO)
            if other.faction == own.faction:
                found.update(a.id for a in other.abilities.values() if "faction_kill" in a.tags)
        for item in items:
            item_def = self.ruleset.items.get(item)
            if item_def is not None and item_def.ability:
                found.add(item_def.ability)
        for status in statuses:  # a status that grants abilities (the BO leader's orders)
            status_def = self.ruleset.statuses.get(status)
            grants = status_def.effects.get("grants") if status_def else None
            found.update(str(g) for g in grants or ())
        return frozenset(found)

    def _exclusive(self, role: str | None) -> tuple[frozenset[str], ...]:
        """Abilities of one "A OR B" line of the role sheet (``exclusive`` in the ruleset)."""
        role_id = self._role_id(role)
        if role_id is None:
            return ()
        groups = []
        for ability in self.ruleset.roles[role_id].abilities.values():
            others = ability.effect_params.get("exclusive_with")
            if isinstance(others, list | tuple):
                groups.append(frozenset({ability.id, *map(str, others)}))
        return tuple(groups)

    def _combos_unknown(self, role: str | None) -> bool:
        """No rule says whether this sender may give two different orders in one phase."""
        ruleset = self.ruleset
        if "actions_per_phase" in ruleset.options:
            return False
        if any(a.effect_params.get("exclusive_with") for r in ruleset.roles.values()
               for a in r.abilities.values()):  # fmt: skip
            return False  # the role sheets say which actions exclude each other
        role_id = self._role_id(role)
        return role_id is None or clan_head(ruleset, role_id) != role_id

    def _role_id(self, role: str | None) -> str | None:
        if not role:
            return None
        if role in self.ruleset.roles:
            return role
        keys = [self.lexicon.morph.keys(t.norm) for t in tokenize(role).tokens]
        match = self.lexicon.match_at(keys, 0) if keys else None
        roles = match.values("role") if match and match.length == len(keys) else ()
        return roles[0] if len(roles) == 1 else None

    def _guess(self, reading: Reading, ctx: Context, first: bool = False) -> list[Draft]:
        """No order word: "Target: Dave" names the target of the sender's one usable
        targeted ability; a misspelt order word next to a name becomes a doubted draft."""
        tokens = reading.sentence.tokens
        if ctx.abilities is None or not reading.names_at_every_word(ctx):
            return []
        if reading.may_hold(ctx, _TARGET) and any(
            _kind_at(reading, ctx, i, "target") for i in range(len(tokens))
        ):
            return self._target_only(reading, ctx)
        handed = self._item_given(reading, ctx) or self._role_header(reading, ctx)
        if handed:
            return handed
        for i, token in enumerate(tokens):
            if not 5 <= len(token.norm) <= 40:
                continue
            ability = self._closest_ability(token.norm, ctx)  # cached: cheaper than a match
            if ability is not None and not (reading.name(ctx, i) or reading.match(ctx, i)):
                rest = Reading.of(tokenize(" ".join(t.text for t in tokens[i + 1 :])), ctx)
                drafts = scan(rest, ctx)[0] if rest.sentence.tokens else []
                draft = Draft(Kind.ORDER, (ability,), token.text, reading.sentence.line)
                draft.source = reading.sentence.text
                draft.names = [
                    [h] for j in range(len(rest.sentence.tokens)) if (h := rest.name(ctx, j))
                ][:2]
                draft.guessed = f"'{token.text}' read as {ability}"  # never accepted alone
                draft.guessed_word = token.text
                return [draft, *drafts[1:]]
        hits = _name_only(reading, ctx) if first else None
        if hits and any(h.players != (ctx.actor,) for h in hits):
            # "Тигр": a name alone (not the sender's signature); offer the likely orders
            drafts = self._target_only(reading, ctx)
            for draft in drafts:
                draft.guessed = _NAME_ALONE
            return drafts
        return []

    def _item_given(self, reading: Reading, ctx: Context) -> list[Draft]:
        """ "The suitcase goes to pofa": an item the sender hands out with one usable
        ability (``effect_params.item``, or the item's own ability), and the players named."""
        tokens = reading.sentence.tokens
        if not reading.may_hold(ctx, _ITEM):
            return []
        items = {v for i in range(len(tokens)) if (m := reading.match(ctx, i))
                 for v in m.values("item")}  # fmt: skip
        abilities = sorted(
            a for a in ctx.usable for item in items
            if self.ruleset.abilities[a].effect_params.get("item") == item
            or (item in self.ruleset.items and self.ruleset.items[item].ability == a)
        )  # fmt: skip
        if len(set(abilities)) != 1:
            return []
        draft = Draft(Kind.ORDER, (abilities[0],), "", reading.sentence.line)
        draft.source = reading.sentence.text
        draft.names = [[h] for i in range(len(tokens)) if (h := reading.name(ctx, i))]
        return [draft]

    def _role_header(self, reading: Reading, ctx: Context) -> list[Draft]:
        """ "Cupidon : Jean et Jeanne": the sender's own role word, a colon, then players,
        when the role has one usable ability that takes players."""
        tokens = reading.sentence.tokens
        if not ctx.role or not reading.may_hold(ctx, _ROLE):
            return []
        at = next((i for i in range(len(tokens)) if (m := reading.match(ctx, i))
                   and ctx.role in m.values("role")), None)  # fmt: skip
        if at is None or at + 1 >= len(tokens) or tokens[at + 1].norm != ":":
            return []
        targeted = [a for a in sorted(ctx.usable)
                    if any(t.kind == "player" for t in self.ruleset.abilities[a].targets)
                    and "common" not in self.ruleset.abilities[a].tags]  # fmt: skip
        if len(targeted) != 1:
            return []
        draft = Draft(Kind.ORDER, (targeted[0],), tokens[at].text, reading.sentence.line)
        draft.source = reading.sentence.text
        draft.names = [[h] for i in range(at + 2, len(tokens)) if (h := reading.name(ctx, i))]
        return [draft]

    def _target_only(self, reading: Reading, ctx: Context) -> list[Draft]:
        targeted = sorted(
            a for a in ctx.usable
            if sum(1 for t in self.ruleset.abilities[a].targets
                   if t.kind == "player" and not t.optional) == 1
            and "common" not in self.ruleset.abilities[a].tags
        )  # fmt: skip
        if not targeted:
            return []
        tokens = reading.sentence.tokens
        draft = Draft(Kind.ORDER, tuple(targeted), "", reading.sentence.line)
        draft.source = reading.sentence.text
        draft.names = [[h] for i in range(len(tokens)) if (h := reading.name(ctx, i))]
        draft.names = [g for g in draft.names if g[0].players != (ctx.actor,)] or draft.names
        draft.guessed = told_past(reading)
        if reading.sentence.question:
            draft.question = True
        return [draft]

    def _closest_ability(self, word: str, ctx: Context) -> str | None:
        key = (word, ctx.abilities)
        if key not in self._typos:
            if len(self._typos) > _TYPO_CACHE:
                self._typos.clear()
            self._typos[key] = self._nearest_ability(word, ctx)
        return self._typos[key]

    def _nearest_ability(self, word: str, ctx: Context) -> str | None:
        best: tuple[int, str] | None = None
        for ability_id in sorted(ctx.abilities or ()):
            ability = self.ruleset.abilities.get(ability_id)
            if ability is None:
                continue
            words = [ability_id, *(w for v in ability.vocabulary.values() for w in v)]
            for candidate in words:
                distance = OSA.distance(word, candidate.casefold(), score_cutoff=_TYPO_EDITS)
                if distance <= _TYPO_EDITS and (best is None or distance < best[0]):
                    best = (distance, ability_id)
        return best[1] if best else None


_NAME_ALONE = "a name alone, with no order word"
# Word kinds without which a sentence gives no draft and adds nothing to the one before.
_SCAN_KINDS = frozenset({"ability", "vote", "cancel", "will", "handoff", "crime", "condition",
                         "alternative", "role", "item", "correction"})  # fmt: skip


_TARGET = frozenset({"target"})
_TELL_ME = frozenset({"tell_me"})
_NEGATION = frozenset({"negation"})
_ITEM = frozenset({"item"})
_ROLE = frozenset({"role"})
_DOUBT = frozenset({"doubt", "open_choice"})
_SHORT_LINE = 6  # words of a line that only completes the order before ("When: N2")


def _remarks(
    pieces: list[tuple[Piece, list[Piece]]],
    verdicts: list[Verdict],
    sent: frozenset[str],
    team: frozenset[str] = frozenset(),
) -> tuple[list[tuple[Piece, list[Piece]]], list[Verdict]]:
    """A negated order word saying someone else has the action ("not my kill tonight, boss
    has it", "c'est pas moi qui tue", "убивает не я") is a remark, dropped; next to an
    order of that ability in the PM, or one the sender gave earlier this phase (``sent``:
    ability ids, or ``?`` when the history is unknown), it may take that order back: the GM
    reads it. A cancel of one of the sender's own actions (not one of ``team``, which a
    teammate may have sent) next to an order of another is :func:`_instead_of`."""
    kept: list[tuple[tuple[Piece, list[Piece]], Verdict]] = []
    given = [p.order for (p, _), v in zip(pieces, verdicts, strict=True)
             if p.order.kind is Kind.ORDER and not p.remark and not v.rule]  # fmt: skip
    for (piece, others), verdict in zip(pieces, verdicts, strict=True):
        instead = _instead_of(piece, given) - team
        if (
            instead
            and len(instead) == len(piece.order.targets)
            and not ("?" in sent or instead & sent)
        ):
            continue  # "pas de charme cette nuit : je libère V": nothing earlier to cancel
        if instead:
            piece.doubt("negated", "does it take back an earlier order, or only say which?")
        elif piece.remark:
            undone = {str(s.value) for s in piece.order.targets}
            source = piece.order.source  # "je ne tue pas, c'est pas moi qui tue": one remark
            earlier = "?" in sent or bool(undone & sent)
            if not earlier and not any(p.order.ability in undone and p.order.source != source
                                       for p, _ in pieces if not p.remark):  # fmt: skip
                continue
            piece.doubt("negated", "someone else has it: does it take back the order?")
        kept.append(((piece, others), verdict))
    return [k for k, _ in kept], [v for _, v in kept]


def _team_abilities(ruleset: Ruleset) -> frozenset[str]:
    """Abilities a team shares (a faction's kill, the wolves' vote, the BO's kill): a
    member's cancel of one may undo a teammate's order."""
    return frozenset(
        a.id for a in ruleset.abilities.values()
        if "faction_kill" in a.tags or a.effect_params.get("team_vote")
        or str(a.effect_params.get("grant_source", "")).startswith("faction.")
    )  # fmt: skip


def _instead_of(piece: Piece, given: list[Order]) -> frozenset[str]:
    """The abilities a cancel names when the same PM gives an order of another of the
    sender's abilities ("Cette nuit pas de charme : je libère Venance", "no shot tonight, I
    investigate Bob"): it says which action the sender takes, not (unless an order of
    theirs this phase went before) a cancel; empty for any other piece. ``given``: the
    PM's ability orders not refused."""
    order = piece.order
    if order.kind is not Kind.CANCEL or not order.targets:
        return frozenset()
    named = frozenset(str(s.value) for s in order.targets)
    if "vote" in named:  # a vote stands from the thread, which the history may not hold
        return frozenset()
    if not given or any(o.ability in named for o in given):
        return frozenset()
    return named


def _killing_actions(
    pieces: list[tuple[Piece, list[Piece]]],
    verdicts: list[Verdict],
    ctx: Context,
    history: History | None,
) -> list[Verdict]:
    """A killing action with no kill of the sender's in the PM or earlier this night
    ("disco Nadia, with heavy handed on top"): the GM checks who kills tonight."""
    orders = [p.order for p, _ in pieces]
    out: list[Verdict] = []
    for (piece, _), verdict in zip(pieces, verdicts, strict=True):
        doubt = None if verdict.rule or verdict.doubt else (
            killing_action_doubt(piece.order, ctx, orders, history))  # fmt: skip
        out.append(Verdict(doubt=doubt) if doubt else verdict)
    return out


def _unread_orders(
    result: ParseResult,
    pieces: list[tuple[Piece, list[Piece]]],
    written: list[tuple[str, frozenset[str]]],
) -> ParseResult:
    """An accepted PM that also writes an order phrase of one of the sender's abilities,
    split by a pronoun or a name, that no reading took up ("Observe X and also stake him
    out"): the order may have been dropped, so the GM reads the PM, with the orders read
    as a candidate."""
    if result.status is not Status.ACCEPTED:
        return result
    read = {p.order.ability for p, _ in pieces}
    read |= {str(s.value) for p, _ in pieces if p.order.kind is Kind.CANCEL
             for s in p.order.targets}  # fmt: skip
    for sentence, held in written:
        left = sorted(held - read)
        if left:
            reason = f"an order phrase of {left[0]} was not read as an order: '{sentence}'"
            cands = (Candidate(result.orders, 0.6, "the orders read"),)
            return replace(result, status=Status.AMBIGUOUS, orders=(), reason=reason,
                           confidence=0.5, candidates=cands)  # fmt: skip
    return result


def _phrases(table: Mapping[str, tuple[str, ...]]) -> re.Pattern[str]:
    words = sorted({p for phrases in table.values() for p in phrases}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")


_CONDITION = _phrases(grammar.CONDITION_START)
_OTHERWISE = _phrases(grammar.BRANCH_OTHERWISE)
_NOT_A_BRANCH = re.compile(_phrases(grammar.BRANCH_NOT_AFTER).pattern + r"\s+$")


def _branched(result: ParseResult, text: str) -> ParseResult:
    """An accepted PM that branches on a condition only the GM can settle ("Если меня
    отравили — промываю желудок. Если нет — карантин Эдуарду", "if X, A; otherwise B",
    "si ..., sinon ..."): the GM picks the branch, with the orders read as a candidate.
    A condition with no other branch (a revenge shot's own "if I die tonight") is kept."""
    if result.status is not Status.ACCEPTED:
        return result
    body = " ".join(content_lines(strip_markup(text))).casefold().replace("ё", "е")
    condition = _CONDITION.search(body)
    after = condition.end() if condition is not None else len(body)
    branch = next((m for m in _OTHERWISE.finditer(body, after)
                   if not _NOT_A_BRANCH.search(body[max(m.start() - 24, 0):m.start()])),
                  None)  # fmt: skip
    if branch is None:
        return result
    reason = f"the PM branches on a condition the GM must settle ('{branch.group(0)}')"
    cands = (Candidate(result.orders, 0.5, "the orders read, whichever branch"),)
    return replace(result, status=Status.AMBIGUOUS, orders=(), reason=reason,
                   confidence=0.5, candidates=cands)  # fmt: skip


_ORDERS_NOUNS = frozenset({"orders", "order", "actions", "action", "moves"})
_HEADER_WORDS = frozenset({"night", "day", "tonight", "tonight's", "today's", "my", "our",
                           "the", "from", "for", "of", "below", "here", "are", "is", "hi",
                           "hello", "gm", "phase", "leader", "boss", "this", "these", "with",
                           "and"})  # fmt: skip
_PHASE_TOKEN = re.compile(r"^(?:[nd]\d+|\d+)$")


def _orders_header(reading: Reading, ctx: Context) -> bool:
    """ "Night 3 orders from the Leader.", "My orders for N3:": the noun "orders" in a
    sentence of header words only (phases, possessives, "from the leader"), no player: a
    title over the orders, not an order of its own."""
    if _ORDERS_NOUNS.isdisjoint(reading.norms):
        return False  # no "orders" (most sentences)
    norms = [t.norm for t in reading.sentence.tokens if not t.is_punct]
    if not set(norms) & _ORDERS_NOUNS or _named(reading, ctx):
        return False
    rest = [n for n in norms if n not in _ORDERS_NOUNS]
    return all(n in _HEADER_WORDS or _PHASE_TOKEN.match(n) for n in rest)


def _may_order(reading: Reading, ctx: Context, carry: Draft | None) -> bool:
    """False for a sentence of chat (no order, crime, role or condition word, no quote, no
    phase completing the order before): not scanned,
    so a long PM costs little; its names still count (a line the GM must see)."""
    if reading.sentence.quotes and any(t.quote is not None for t in reading.sentence.tokens):
        return True
    if _orders_header(reading, ctx):
        return False
    short = len(reading.keys) <= _SHORT_LINE and carry is not None and carry.kind is Kind.ORDER
    if not short and not reading.may_hold(ctx, _SCAN_KINDS):
        return False  # no word of an order phrase: most lines of a long chat
    for i in range(len(reading.keys)):
        if reading.may_start(ctx, i, _SCAN_KINDS):  # no look-up where none can start
            match = reading.match(ctx, i)
            if match is not None and match.kinds() & _SCAN_KINDS:
                return True
        if short and reading.phase(ctx, i):
            return True  # "When: N2" completes the order before
    return False


def _split_order(reading: Reading, ctx: Context) -> list[Draft]:
    """ "Je rends Tristan simple villageois", "stake Ugo out": a sentence with no order read
    whose phrase of one of the sender's usable abilities holds one player's name inside
    (right after its first word) and nothing else is that order on that player."""
    keys, found = reading.keys, []
    for i in range(len(keys) - 2):
        hit = reading.name(ctx, i + 1)
        if hit is None or len(hit.players) != 1 or hit.players == (ctx.actor,):
            continue
        after = i + 1 + hit.length
        for entry in ctx.lexicon.split_entries(keys[i]):
            rest = entry.words[1:]
            if (entry.value in ctx.usable and after + len(rest) <= len(keys)
                    and all(keys[after + j] & w for j, w in enumerate(rest))):  # fmt: skip
                found.append((i, entry, hit, after + len(rest)))
    if len({(e.value, h.players) for _, e, h, _ in found}) != 1:
        return []
    i, entry, hit, end = found[0]
    if not _quiet_around(reading, ctx, i, end):
        return []  # "je rends Tristan simple villageois ou Solène": the GM reads it
    draft = Draft(Kind.ORDER, (entry.value,), entry.text, reading.sentence.line)
    draft.source, draft.names, draft.end, draft.start = reading.sentence.text, [[hit]], end, i
    return [draft]


_QUIET_KINDS = frozenset({"filler", "greeting", "signoff"})


def _quiet_around(reading: Reading, ctx: Context, start: int, end: int) -> bool:
    """Outside tokens ``start``..``end`` only punctuation, phases, fillers, greetings and
    words of no vocabulary, no name and no question: nothing that could change the order."""
    if reading.sentence.question:
        return False
    j = 0
    while j < len(reading.keys):
        if start <= j < end or reading.sentence.tokens[j].is_punct:
            j = end if start <= j < end else j + 1
            continue
        if reading.name(ctx, j) is not None or reading.keys[j] & ctx.lexicon.preference_keys:
            return False
        phase = reading.phase(ctx, j)
        if phase is not None:
            j += phase[1]
            continue
        match = reading.match(ctx, j)
        if match is not None and not match.kinds() <= _QUIET_KINDS:
            return False
        j += match.length if match is not None else 1
    return True


_THAT_VOTE = frozenset({"that", "this", "my", "ce", "cet", "mon", "этот", "мой", "этим", "моим"})


def _on_that_vote(found: list[Draft], reading: Reading) -> list[Draft]:
    """ "I vote to lynch Tansy and I'm using Voice of Accusation on that vote": an order
    naming nobody, then "that vote" ending the sentence, is on the one player the sentence's
    vote named (the words "that vote" are no second vote)."""
    if len(found) < 3 or found[-1].kind is not Kind.VOTE or found[-1].names:
        return found
    last, addon = found[-1], found[-2]
    start = last.end - len(last.trigger.split())
    tokens = reading.sentence.tokens
    if addon.kind is not Kind.ORDER or addon.names or addon.unknown or start < 1:
        return found
    if reading.norms[start - 1] not in _THAT_VOTE or any(
        not t.is_punct for t in tokens[last.end :]
    ):
        return found
    named = [d for d in found[:-2] if d.kind is Kind.VOTE and d.names]
    players = {h.players for d in named for g in d.names for h in g}
    if len(players) != 1 or len(next(iter(players))) != 1:
        return found
    addon.names = [list(named[-1].names[0])]
    return found[:-1]


_WITH = frozenset({"with", "using", "avec", "с", "со"})


def _with_the_vote(found: list[Draft], reading: Reading, ctx: Context) -> None:
    """ "Vote: Saoirse, with Voice of Accusation.": a modifier of the sender's own vote
    naming nobody, after "with" and ending the sentence, is on the one player the vote before
    it named."""
    if len(found) != 2 or found[0].kind is not Kind.VOTE or len(found[0].names) != 1:
        return
    vote, addon = found
    start = addon.end - len(addon.trigger.split())
    if addon.kind is not Kind.ORDER or addon.names or addon.unknown or start < 1:
        return
    abilities = [ctx.lexicon.ruleset.abilities.get(a) for a in addon.abilities]
    if not abilities or any(
        a is None or "own_vote_extra" not in a.effect_params for a in abilities
    ):
        return
    tail = reading.sentence.tokens[addon.end :]
    if reading.norms[start - 1] not in _WITH or any(not t.is_punct for t in tail):
        return
    hits = vote.names[0]
    if len(hits) == 1 and len(hits[0].players) == 1:
        addon.names = [list(hits)]


# "not" alone before a name: that player is ruled out ("Pas Hortensia.", "Не Олег.").
_NOT = frozenset({"pas", "not", "не", "ni"})


def _name_first(drafts: list[Draft], found: list[Draft], reading: Reading, ctx: Context) -> None:
    """ "Dave. Protect.": a sentence of one name, then an order word waiting for its player;
    the name is that order's target (the name-alone guesses are dropped)."""
    if len(found) != 1 or found[0].kind is not Kind.ORDER or found[0].names:
        return
    if not found[0].wants(ctx, "player") or not drafts or drafts[-1].guessed != _NAME_ALONE:
        return
    if any(reading.name(ctx, i) for i in range(len(reading.keys))):
        return
    alone = [d for d in drafts if d.guessed == _NAME_ALONE and d.line == drafts[-1].line]
    if len({h.players for d in alone for g in d.names for h in g}) != 1:
        return
    if any(t.norm in _NOT for d in alone for t in tokenize(d.source).tokens):
        return  # "Pas Hortensia. Je la sauve.": the one player ruled out, not the target
    found[0].names = list(alone[0].names)
    for draft in alone:
        drafts.remove(draft)


def _pronoun_target(
    drafts: list[Draft], found: list[Draft], reading: Reading, ctx: Context
) -> None:
    """ "Vote: Valkyr. And I'm using Voice of Accusation on him.": an order naming nobody,
    with a pronoun after its order word, takes the one player the PM's earlier orders named
    (not when they named several, or the sender)."""
    if len(found) != 1 or found[0].kind is not Kind.ORDER or found[0].names:
        return
    draft, pronouns = found[0], ctx.lexicon.pronoun_keys
    tokens = reading.sentence.tokens[draft.end :]
    pairs = list(zip(tokens, reading.keys[draft.end :], strict=True))
    said = {t.text for t, k in pairs if k & pronouns}
    also = {t.text for t, k in pairs if k & ctx.lexicon.sequence_keys}  # "on it too"
    if not said or set(draft.unknown) - said - also or draft.nobody or draft.vague:
        return
    if not draft.wants(ctx, "player"):
        return
    earlier = {h.players for d in drafts if d.kind in (Kind.ORDER, Kind.VOTE)
               for g in d.names for h in g}  # fmt: skip
    if len(earlier) != 1 or len(next(iter(earlier))) != 1 or (ctx.actor,) in earlier:
        return
    draft.unknown.clear()
    draft.add_name(NameHit(next(iter(earlier)), 1, 1.0, "pronoun"))


_POSTSCRIPT = re.compile(grammar.POSTSCRIPT_LINE, re.IGNORECASE)
# Word kinds that may change an order: a line with one is never set aside as a remark.
_UNPLAIN = frozenset({"hedge", "doubt", "open_choice", "correction", "alternative", "condition",
                      "negation", "question", "tell_me", "vague", "target", "gone", "handed",
                      "no_target"})  # fmt: skip


def _postscript_lines(lines: list[str]) -> frozenset[int]:
    """The lines of a postscript ("PS: Nick is lying"), from its first line to the end."""
    start = next((i for i, line in enumerate(lines) if _POSTSCRIPT.match(line)), len(lines))
    return frozenset(range(start, len(lines)))


def _plain(reading: Reading, ctx: Context) -> bool:
    """A remark about players ("Nick ment, j'en suis sûr"): no word that could change an
    order (a hedge, doubt, correction, alternative, condition, negation, question or a
    preference such as "Nick would be better"); a belief about a named player ("I think
    Nick is lying") is a remark."""
    return _plain_from(reading, ctx, 0)


# Subjects that make a change of mind someone else's ("tu as changé d'avis", "he changed his
# mind"), and the sender's own that keep it a correction.
_OTHER_SUBJECT = frozenset({"tu", "il", "elle", "you", "he", "she", "ты", "он", "она"})
_OWN_SUBJECT = frozenset({"je", "j", "j'", "i", "moi", "я"})


def _told_of_another(reading: Reading, i: int) -> bool:
    """A correction word at ``i`` told of another player: a second or third person subject in
    the three words before it, no first person between ("tu as trop changé d'avis")."""
    for norm in reversed(reading.norms[max(0, i - 3) : i]):
        if norm in _OWN_SUBJECT:
            return False
        if norm in _OTHER_SUBJECT:
            return True
    return False


# "or" on its own: an alternative however the sentence goes on ("Or Tibo, he lied").
_OR = frozenset({"or", "ou", "или"})


def _plain_from(reading: Reading, ctx: Context, start: int) -> bool:
    """:func:`_plain` for the words from token ``start`` on. A question word after the first
    is no question in a sentence not asked as one ("Tomasz does the honours")."""
    if reading.sentence.question or _OR & set(reading.norms[start:]):
        return False  # "Or Tibo, he lied.": another target offered
    for i, keys in enumerate(reading.keys[start:], start):
        if keys & ctx.lexicon.preference_keys:
            return False
        if not reading.may_start(ctx, i, _UNPLAIN):
            continue  # no word here that could change an order
        match = reading.match(ctx, i)
        kinds = match.kinds() if match is not None else frozenset()
        if i > start:  # "Tomasz does the honours", "…, which is weird": not asked
            kinds -= {"question"}
        if "correction" in kinds and _told_of_another(reading, i):
            kinds -= {"correction"}  # "tu as trop changé d'avis hier": the target's, not mine
        if kinds & _UNPLAIN and not (kinds <= {"doubt"} and _belief(reading, ctx, i, match)):
            return False
    return True


# Word kinds chat before the first order may hold: what they would change comes later (a
# sentence asked as a question is a question before it gets here).
_CHAT_KINDS = frozenset({"negation", "correction", "no_target", "question"})


_RECANT_KINDS = frozenset({"correction", "negation", "filler", "greeting"})


def _recants(reading: Reading, ctx: Context) -> bool:
    """ "ugh no, changed my mind, Q did nothing wrong.": before the first name only words of
    a correction (with "no", fillers, interjections), then a plain remark."""
    i, corrected = 0, False
    while i < len(reading.keys) and reading.name(ctx, i) is None:
        match = reading.match(ctx, i)
        kinds = match.kinds() if match is not None else frozenset()
        if not kinds <= _RECANT_KINDS:
            return False
        corrected = corrected or "correction" in kinds
        i += match.length if match is not None else 1
    return corrected and i < len(reading.keys) and _plain_from(reading, ctx, i)


def _clarifies(reading: Reading, ctx: Context) -> bool:
    """ "Oui, le joueur Celty, pas moi": every name in the sentence written as "the player X",
    any negation about the sender only, and no other word that could change an order."""
    if not any(k & ctx.lexicon.player_keys for k in reading.keys):
        return False
    i, names = 0, 0
    while i < len(reading.keys):
        name = reading.name(ctx, i)
        if name is not None:
            if not said_player(reading, ctx, i, name.length):
                return False
            i, names = i + name.length, names + 1
            continue
        match = reading.match(ctx, i)
        kinds = match.kinds() if match is not None else frozenset()
        step = match.length if match is not None else 1
        if "negation" in kinds and not _kind_at(reading, ctx, i + step, "self"):
            return False
        if kinds & _UNPLAIN - {"negation"} or (match is not None and match.values("ability")):
            return False
        i += step
    return names > 0


def _chatter(reading: Reading, ctx: Context) -> bool:
    """Chat before any order ("Long day, lol, half the thread is yelling at Noor again."): a
    sentence of at least four words besides names, with no word that could make an order of it
    or change one (a negation, "non" or "which" may be there: "Matthieu c'était non", the
    orders come after them), no preference and no phase but a past one ("I reread day 3")."""
    if reading.sentence.question:
        return False
    words, i = 0, 0
    while i < len(reading.keys):
        if reading.sentence.tokens[i].is_punct:
            i += 1
            continue
        found = reading.phase(ctx, i)
        if found is not None and found[0].number >= ctx.phase.number:
            return False
        name = reading.name(ctx, i)
        if name is not None:
            i += name.length
            continue
        if reading.keys[i] & ctx.lexicon.preference_or_pick_keys:
            return False  # "Gwen would be better", "Gwen is the one"
        match = reading.match(ctx, i)
        kinds = match.kinds() if match is not None else frozenset()
        if kinds & _UNPLAIN - _CHAT_KINDS and not (
            kinds <= {"doubt"} and _belief(reading, ctx, i, match)
        ):
            return False
        words, i = words + 1, i + (match.length if match is not None else 1)
    return words >= 4


def _remark(reading: Reading, ctx: Context) -> bool:
    """A statement about a player ("Carl seems scummy", "Nick ment", "Олег врёт"): a remark
    word, and no word that adds to or picks an order ("and", "next", "my pick", "tonight")
    nor a phase."""
    lexicon = ctx.lexicon
    spans = range(len(reading.keys))
    if any(reading.keys[i] & lexicon.sequence_keys and not _intensifier(reading, ctx, i)
           and not _the_day_gone(reading, ctx, i) and not _a_duration(reading, i)
           and not _tells_on(reading, ctx, i) for i in spans):  # fmt: skip
        return False
    if any(reading.phase(ctx, i) and not _the_day_gone(reading, ctx, i)
           and not _a_duration(reading, i) for i in spans):  # fmt: skip
        return False
    return any(keys & lexicon.remark_keys for keys in reading.keys)


# Auxiliaries of a past tense ("Jago has been pushing", "il a défendu", "they had").
_PAST_AUXILIARIES = frozenset({"a", "ont", "avait", "avaient", "has", "had", "have", "was", "were",
                               "been"})  # fmt: skip
# Third persons as the subject of what they did ("she voted", "она топила"): no "her" added.
_SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "il", "ils", "elles", "он", "она", "они"})
# Kinds of words that make a sentence more than a tale of what happened: a role, an ability,
# an item or a faction may be what the order is about ("Nick was the doctor").
_ABOUT_THE_GAME = frozenset(CATALOGUE_KINDS) | TRIGGER_KINDS


def _told_what_happened(reading: Reading, ctx: Context) -> bool:
    """ "Jago shrugged off the first one", "Lorcan has been pushing every mislynch", "Слишком
    уж уверенно она вчера топила Зосиму": a plain sentence that only tells what happened (a
    verb in the past or after a past auxiliary), with no role, ability, item or faction
    word, no word that adds to or picks an order and no phase but a past one, is the
    sender's reasoning: it cannot change the orders read."""
    lexicon, norms = ctx.lexicon, reading.norms
    if not any(lexicon.morph.is_past(n) or n in _PAST_AUXILIARIES for n in norms):
        return False
    spans = range(len(reading.keys))
    if any(reading.keys[i] & lexicon.sequence_keys and norms[i] not in _SUBJECT_PRONOUNS
           and not _intensifier(reading, ctx, i)
           and not _the_day_gone(reading, ctx, i) and not _a_duration(reading, i)
           and not _tells_on(reading, ctx, i) for i in spans):  # fmt: skip
        return False
    for i in spans:
        if reading.phase(ctx, i) and not is_previous(norms, i) and not _a_duration(reading, i):
            return False
        match = reading.match(ctx, i)
        if match is not None and "correction" in match.kinds():
            return False  # "il a changé d'avis, Gontran": a change of mind all the same?
        if match is None or not match.kinds() & _ABOUT_THE_GAME:
            continue
        if not match.kinds() & TRIGGER_KINDS or not _done(reading, ctx, i):
            return False  # a role or item word; an order word not told as done
    return True


def _done(reading: Reading, ctx: Context, i: int) -> bool:
    """The word at ``i`` is a verb in the past or right after a past auxiliary ("она
    топила", "has been defending")."""
    norms = reading.norms
    before = norms[i - 1] if i else ""
    return ctx.lexicon.morph.is_past(norms[i]) or before in _PAST_AUXILIARIES


def _tells_on(reading: Reading, ctx: Context, i: int) -> bool:
    """ "He voted with Aldwyn and then jumped ship": a sequence word with no player, no
    order word and no phase after it goes on telling what happened, adds no order (only
    "and then" followed by words: "next", "so" and the like may still add an order)."""
    norms = reading.norms
    if norms[i] == "and" and i + 1 < len(norms) and norms[i + 1] == "then":
        i += 1
    if norms[i] != "then" or i == 0 or norms[i - 1] != "and" or i + 1 >= len(norms):
        return False
    for j in range(i + 1, len(reading.keys)):
        match = reading.match(ctx, j)
        if reading.name(ctx, j) is not None or reading.phase(ctx, j):
            return False
        if match is not None and match.kinds() & {"ability", "vote", "self", "pronoun"}:
            return False
    return True


# Words before "day" / "journée" / "день" that make it a stretch of time ("the whole day").
_WHOLE = frozenset({"whole", "entire", "all", "toute", "весь", "целый"})


def _a_duration(reading: Reading, i: int) -> bool:
    """ "He voted with Aldwyn the whole day": a phase word after "whole", "all", "toute
    la", no number after it, is how long something went on, no phase an order is for."""
    norms = reading.norms
    before = [n for n in norms[max(0, i - 2) : i] if n not in ("la", "the")]
    after = norms[i + 1] if i + 1 < len(norms) else ""
    return bool(before) and before[-1] in _WHOLE and not after.isdigit()


# "today" in a remark sent at night: the day just gone ("He defended Dash too hard today").
_TODAY = frozenset({"today", "aujourd'hui", "сегодня"})


def _the_day_gone(reading: Reading, ctx: Context, i: int) -> bool:
    """ "today" in a PM sent at night: the day before it, no phase an order could be for."""
    return ctx.phase.kind == "night" and reading.norms[i] in _TODAY


def _intensifier(reading: Reading, ctx: Context, i: int) -> bool:
    """ "way too hard": "too" between two words that are no player, so no "Carl too"."""
    tokens = reading.sentence.tokens
    if reading.norms[i] != "too" or not 0 < i < len(tokens) - 1:
        return False
    before, after = tokens[i - 1], tokens[i + 1]
    if before.is_punct or after.is_punct:
        return False
    return reading.name(ctx, i - 1) is None and reading.name(ctx, i + 1) is None


def _belief(reading: Reading, ctx: Context, i: int, match: Match | None) -> bool:
    """ "I think Nick ...": a doubt word right before a player's name is about the player."""
    after = i + (match.length if match else 1)
    hit = reading.name(ctx, after)
    return hit is not None and ctx.actor not in hit.players


def _named(reading: Reading, ctx: Context) -> tuple[str, ...]:
    """Every player other than the sender the sentence names."""
    hits = reading.names_at_every_word(ctx)
    return tuple(p for h in hits for p in h.players if p != ctx.actor)


_THAT = frozenset({"that", "que", "qu", "что", "чтобы"})


def _doubts(reading: Reading, ctx: Context, last: Draft) -> bool:
    """A sentence without an order that doubts the order before it ("not sure", "je crois");
    not a belief about something else ("je crois que c'est elle la cible", "I think Nick
    is lying" when Nick is not the order's target)."""
    if not reading.may_hold(ctx, _DOUBT):
        return False
    targets = {p for group in last.names for hit in group for p in hit.players}
    unsure = [j for j in range(len(reading.keys)) if reading.may_start(ctx, j, _UNSURE_KINDS)
              and (m := reading.match(ctx, j)) and m.kinds() & _UNSURE_KINDS]  # fmt: skip
    about = bool(unsure) and all(_about_someone(reading, j) for j in unsure)
    for i in range(len(reading.keys)):
        if not reading.may_start(ctx, i, _DOUBT):
            continue
        match = reading.match(ctx, i)
        if match is None or not match.kinds() & {"doubt", "open_choice"}:
            continue
        if i and reading.norms[i - 1] in grammar.NEGATORS:
            continue  # "No hesitation.", "Не сомневаюсь.": the player says he is sure
        after = i + match.length
        if after < len(reading.norms) and reading.norms[after] in _THAT:
            continue
        if about:
            continue  # "Vera l'a défendu, elle est peut-être mafia": a belief about her
        believed = reading.name(ctx, after) if "open_choice" not in match.kinds() else None
        if believed is None or set(believed.players) & (targets | {ctx.actor}):
            # not "Hmm, on second thought make it Dave.": a correction, read as one
            return not _corrects_to_a_name(reading, ctx)
    return False


_UNSURE_KINDS = frozenset({"doubt", "open_choice", "hedge"})
# What may follow a doubt that is about the order to come ("not sure about this one", "no
# idea if this is right", "pas sûr de mon coup", "не уверен в этом"), not about a player or
# a question ("not sure who the mafia is").
_ABOUT_THIS = frozenset({"about", "on", "of", "this", "it", "one", "these", "yet", "still",
                         "really", "honestly", "tbh", "if", "is", "right", "correct", "good",
                         "my", "pick", "picks", "choice", "choices", "call", "move", "target",
                         "tonight", "here", "at", "all", "though", "but", "the", "a", "100%",
                         "100", "%", "entirely", "de", "du", "ce", "cette", "mon", "ma", "choix",
                         "coup", "cible", "ça", "en", "в", "этом", "выборе", "этот", "раз",
                         "насчёт", "насчет", "этого", "пока", "ещё", "еще", "."})  # fmt: skip


def _doubts_ahead(reading: Reading, ctx: Context) -> bool:
    """A sentence of its own before any order that doubts it ("Not sure about this one.",
    "No idea if this is right."): only doubt words and words about "this", no player."""
    if not reading.may_hold(ctx, _UNSURE_KINDS) or _named(reading, ctx):
        return False
    i = 0
    doubted = False
    while i < len(reading.keys):
        match = reading.match(ctx, i) if reading.may_start(ctx, i, _UNSURE_KINDS) else None
        if match is not None and match.kinds() & _UNSURE_KINDS:
            if i and reading.norms[i - 1] in grammar.NEGATORS:
                return False  # "No hesitation."
            doubted, i = True, i + match.length
            continue
        if reading.norms[i] not in _ABOUT_THIS and not reading.sentence.tokens[i].is_punct:
            return False
        i += 1
    return doubted


_RESULT_WORDS = frozenset({"result", "results", "resultat", "resultats", "результат",
                           "результаты", "результатах"})  # fmt: skip


def _asks_the_result(reading: Reading, start: int) -> bool:
    """ "Let me know the result", "dis-moi le résultat": the request is the order's result,
    nothing else in the sentence (no "if", no question mark)."""
    if reading.sentence.question:
        return False
    rest = [n for n in reading.norms[start:] if n not in _FILLER_WORDS]
    return bool(rest) and rest[0] in _RESULT_WORDS and not set(rest) & _IF_WORDS


_FILLER_WORDS = frozenset({"the", "my", "le", "les", "mon", "mes", "du", "des", ".", "!", ",",
                           "asap", "please", "pls", "stp", "svp", "merci", "thanks"})  # fmt: skip
_IF_WORDS = frozenset({"if", "si", "whether", "ли", "если"})
_THIRD_SUBJECTS = frozenset({"he", "she", "they", "he's", "she's", "they're", "il", "elle",
                             "ils", "elles", "он", "она", "они"})  # fmt: skip
_MARKS = frozenset({",", ";", ":", "-", "—", "–"})


def _about_someone(reading: Reading, i: int) -> bool:
    """The doubt word at ``i`` follows a third-person subject in its clause ("so she's
    probably getting shot", "elle est peut-être mafia"): it is about that person (used
    only when every hedge and doubt of the sentence is so: not "Je sais pas, il est…")."""
    for j in range(i - 1, -1, -1):
        norm = reading.norms[j]
        if norm in _MARKS:
            return False
        if norm in _THIRD_SUBJECTS:
            return True
    return False


_OR_WORDS = frozenset({"or", "ou", "или", "либо"})


def _or_someone(reading: Reading, ctx: Context) -> bool:
    """A sentence naming no player that opens with "or" ("Or someone else.", "Ou quelqu'un
    d'autre.", "Или кто-нибудь другой."): another choice the GM must settle."""
    tokens = reading.sentence.tokens
    first = next((j for j, t in enumerate(tokens) if not t.is_punct), None)
    if first is None or reading.norms[first] not in _OR_WORDS:
        return False
    return not any(reading.name(ctx, j) for j, t in enumerate(tokens) if not t.is_punct)


_DANGLING_KINDS = frozenset({"correction", "negation", "filler", "greeting", "no_target"})
_DANGLING_MAX = 8  # tokens: a correction to nobody is short ("Actually, no wait...")


_REASON_MIN = 4  # words: "Или нет, он уже ездил", not "Or not." nor "wait no"


def _with_a_reason(reading: Reading) -> bool:
    """Whether a take-back sentence says why, past its opening words (``_REASON_MIN``)."""
    return sum(not t.is_punct for t in reading.sentence.tokens) >= _REASON_MIN


def _replaces_taken_back(drafts: list[Draft], found: list[Draft]) -> None:
    """ "Тур Осипу... ой, нет, он уже ездил. Тогда Эмилию — в тур!": the order right after
    one taken back with a reason and nothing in its place, the same
    ability to a player, is its correction: read forward, as "actually, make that B"."""
    if not drafts or not found or not drafts[-1].taken_back:
        return
    last, new = drafts[-1], found[0]
    same = new.kind is last.kind and bool(set(new.abilities) & set(last.abilities))
    if same and new.names and new.kind in (Kind.ORDER, Kind.VOTE):
        new.corrects = True


def _meant_for_the_prisoner(
    piece: Piece, draft: Draft, verdict: Verdict, ctx: Context, sit: Situation
) -> Verdict:
    """An order in doubt on a jailed player that reads, by its order word, as the sender's
    ability meant for that player ("Проверяю Богдану", today's prisoner: the Jailer's check
    of the jailed, ``rules.meant_for_reading``) is that order when it passes every rule."""
    if not verdict.doubt or verdict.rule or draft.doer is not None:
        return verdict
    other = meant_for_reading(piece.order, draft.trigger, ctx, sit.roster)
    checked = validate(other, ctx, sit) if other is not None else None
    if other is None or checked is None or checked.rule or checked.doubt:
        return verdict
    piece.order = other
    return checked


def _takes_back_unnamed(
    drafts: list[Draft], found: list[Draft], reading: Reading, ctx: Context
) -> None:
    """ "Стреляю в Гавриила. Нет, поправка, стрелять пока рано.", "Shoot Bob. No wait,
    shooting is too early.": a sentence that names the ability of an earlier order but no
    player, and takes it back (it opens with a take-back word, a correction word comes
    before that ability's word, or a negation after it in its clause: "стрелять не буду"),
    leaves that order in doubt: the GM reads it. A negated order word before the verb ("не
    стреляю") is a cancel, read as one."""
    bare = [d for d in found if not d.names and not d.negated and d.kind is Kind.ORDER]
    abilities = {a for d in bare for a in d.abilities}
    earlier = [d for d in drafts if d.names and abilities & set(d.abilities)]
    if not earlier:
        return
    if not (
        _retracts_start(reading)
        or any(d.corrects for d in bare)
        or any(_negated_after(reading, ctx, d.end) for d in bare)
    ):
        return
    earlier[-1].hedged = True
    earlier[-1].taken_back = True


def _negated_after(reading: Reading, ctx: Context, start: int) -> bool:
    """A negation word after ``start`` in the same clause (up to a punctuation mark):
    "лечить её сегодня точно не надо"."""
    tokens = reading.sentence.tokens
    for i in range(start, len(tokens)):
        if tokens[i].is_punct:
            return False
        if _kind_at(reading, ctx, i, "negation"):
            return True
    return False


def _dangling(reading: Reading, ctx: Context) -> bool:
    """ "check Tomasz. no wait.", "Je découvre Loïc. Non.", "Changed my mind.": after an
    order, a sentence of a correction to nobody, or of one "no"; not "no changes" (a
    negated correction word) nor "Final." (a confirmation)."""
    kinds: list[frozenset[str]] = []
    i, tokens = 0, reading.sentence.tokens
    if len(tokens) > _DANGLING_MAX:
        return False
    while i < len(tokens):
        match = reading.match(ctx, i)
        if reading.keys[i] & ctx.lexicon.affirm_keys:
            return False  # "Final.", "итог."
        if not tokens[i].is_punct:
            kinds.append(match.kinds() if match else frozenset({"?"}))
        i += match.length if match else 1
    if not kinds or not all(k <= _DANGLING_KINDS for k in kinds):
        return False
    if len(kinds) == 1 and kinds[0] & {"negation", "correction"}:
        return True
    return any("correction" in k and not (j and "negation" in kinds[j - 1])
               for j, k in enumerate(kinds))  # fmt: skip


# A sarcasm tag or an eye-roll: the order written is not meant.
def _night_first(ruleset: Ruleset) -> bool:
    """Night N comes before day N: the resolver's own order of the phase kinds (Durarara
    starts on day 0, then night 1, day 1: night first, as Failheap's night 1, day 1)."""
    kinds = ruleset.phases.kinds
    return "day" not in kinds or ("night" in kinds and kinds.index("night") < kinds.index("day"))


# Russian "может" opening a sentence ("Может, лишу голоса X", "а может проверю X") is
# "maybe"; inside one it is "can" ("она может умереть") and says nothing of the order.
_MAYBE_OPENERS = frozenset({"может", "мб", "можно"})
_LEAD_INS = frozenset({"а", "ну", "и", "так", "или"})


def _opens_with_maybe(reading: Reading) -> bool:
    """The sentence opens with a Russian "maybe" word (after "а", "ну"...)."""
    words = [w for w in reading.norms[:5] if w not in _LEAD_INS and any(c.isalnum() for c in w)]
    return bool(words) and words[0] in _MAYBE_OPENERS


_SARCASM = re.compile(r"(?:^|\s)/s(?:\W|$)|[\U0001F644\U0001F612]")

_RETRACT_START = tuple(tuple(t.norm for t in tokenize(p).tokens if not t.is_punct)
                       for lang in grammar.RETRACT_START.values() for p in lang)  # fmt: skip
_RETRACT_FIRST = frozenset(p[0] for p in _RETRACT_START)


def _retracts(reading: Reading, ctx: Context) -> bool:
    """A sentence naming nobody that opens by taking the order before it back ("Or not,
    he's probably fine.", "Ou pas, on verra.", "Или нет, он скорее всего чист")."""
    if not _retracts_start(reading):
        return False
    return not (_named(reading, ctx) or _affirms(reading))


def _retracts_start(reading: Reading) -> bool:
    """The sentence opens with a take-back word ("or not", "ou pas", "нет", "стоп")."""
    first = next((t.norm for t in reading.sentence.tokens if not t.is_punct), None)
    if first not in _RETRACT_FIRST:
        return False  # the first word opens no take-back (most sentences)
    norms = [t.norm for t in reading.sentence.tokens if not t.is_punct]
    return any(tuple(norms[: len(p)]) == p for p in _RETRACT_START)


def _corrects_to_a_name(reading: Reading, ctx: Context) -> bool:
    """A correction word with a player named after it ("hmm, make it Dave")."""
    fixed = [i for i in range(len(reading.keys)) if _kind_at(reading, ctx, i, "correction")]
    return bool(fixed) and any(reading.name(ctx, j) for j in range(fixed[0], len(reading.keys)))


_NOT_OR_FILLER = frozenset({"negation", "filler"})  # the only kinds ``_only_not`` looks at


def _only_not(reading: Reading, ctx: Context) -> bool:
    """ "(pas Jeanne)", "not Bob": names ruled out, which add no order."""
    tokens = reading.sentence.tokens
    if not reading.may_hold(ctx, _NEGATION):
        return False
    kinds = [m.kinds() if reading.may_start(ctx, i, _NOT_OR_FILLER) and (m := reading.match(ctx, i))
             else frozenset() for i in range(len(tokens))]  # fmt: skip
    if not any("negation" in k for k in kinds) or _answers_no(tokens, kinds):
        return False
    return all(t.is_punct or reading.name(ctx, i) or kinds[i] & {"negation", "filler"}
               for i, t in enumerate(tokens))  # fmt: skip


def _answers_no(tokens: Sequence[Token], kinds: list[frozenset[str]]) -> bool:
    """ "Нет, Эмилию.", "No, Tilda.": a sentence opening with a "no" and a comma answers
    the order before it (a correction), it does not rule its names out ("not Bob")."""
    return len(tokens) > 1 and "negation" in kinds[0] and tokens[1].norm == ","


def _bare_names(reading: Reading, ctx: Context, last: Draft) -> list[Draft]:
    """A sentence of names only after an order ("no wait, Frank"): a correction to confirm."""
    if not reading.names_at_every_word(ctx):
        return []  # no name: no correction to one
    hits = _name_only(reading, ctx)
    if hits is None:
        hits = _corrected_names(reading, ctx, last)
    others = [h for h in hits or () if h.players != (ctx.actor,)]
    if not others or last.kind not in (Kind.ORDER, Kind.VOTE) or _only_not(reading, ctx):
        return []
    draft = Draft(last.kind, last.abilities, last.trigger, reading.sentence.line)
    draft.names = [[h] for h in others]
    draft.source = reading.sentence.text
    draft.doer, draft.past = last.doer, last.past  # "Ганс стреляет в Машу. Хотя нет, в Кота."
    same = [[h.players for h in group] for group in last.names] == [[h.players] for h in others]
    if any(_kind_at(reading, ctx, i, "correction") for i in range(len(reading.keys))):
        draft.corrects = True  # "Actually, make that Gwen.": read forward, Gwen
        if same and not _affirms(reading):  # "Vote Colombe. Colombe, I changed my mind."
            draft.guessed = "a correction naming the same player: the order withdrawn?"
    elif not same:
        draft.guessed = "a name alone after the order: a correction?"  # not "… Loïc. Loïc."
    return [draft]


_AFFIRM_WORDS = frozenset(normalize(p) for lang in grammar.AFFIRM.values() for p in lang
                          if " " not in p)  # fmt: skip


def _affirms(reading: Reading) -> bool:
    """A confirmation word as written in the sentence ("Iris, точно.", "Bob. Final."; not
    "finalement", a correction word sharing the stem)."""
    return any(t.norm in _AFFIRM_WORDS for t in reading.sentence.tokens)


# What a correction's "no" also is ("non": no action, "нет": a negation).
_ALSO_NO = frozenset({"no_target", "negation"})


def _corrected_names(reading: Reading, ctx: Context, last: Draft) -> list[NameHit] | None:
    """ "actually no, make it Ollie, Ann can take care of herself": a correction, its names
    up to a comma, then a plain remark naming only the players it replaces; else None."""
    tokens = reading.sentence.tokens
    if not tokens or not _kind_at(reading, ctx, 0, "correction"):
        return None
    hits: list[NameHit] = []
    i = 0
    while i < len(tokens) and not (hits and tokens[i].norm == ","):
        hit = reading.name(ctx, i)
        match = reading.match(ctx, i)
        if hit is not None:
            hits.append(hit)
            i += hit.length
        elif tokens[i].is_punct or (match and match.kinds() <= _CORRECTION_WORDS | _ALSO_NO):
            i += match.length if match else 1  # "non" is also "no action"
        else:
            return None
    replaced = {p for group in last.names for hit in group for p in hit.players}
    rest = [reading.name(ctx, j) for j in range(i, len(tokens))]
    named = {p for hit in rest if hit is not None for p in hit.players} - {ctx.actor}
    if not hits or i >= len(tokens) or not named <= replaced or not _plain_from(reading, ctx, i):
        return None
    return hits


def _name_only(reading: Reading, ctx: Context) -> list[NameHit] | None:
    """The names of a sentence of names and grammar words only; None when it says more
    ("(Kévin est d'accord)" is chat, "no wait, Frank" is a correction)."""
    tokens = reading.sentence.tokens
    hits: list[NameHit] = []
    i = 0
    while i < len(tokens):
        hit = reading.name(ctx, i)
        if hit is not None:
            hits.append(hit)
            i += hit.length
            continue
        if not tokens[i].is_punct and not reading.may_start(ctx, i, _CORRECTION_WORDS):
            return None  # a word of no such phrase: the sentence says more than names
        match = reading.match(ctx, i)
        kinds = match.kinds() if match else frozenset({"?"})
        if "correction" in kinds:  # "Non, Thibault.", "Нет, Эмилию.": also "no action", "not"
            kinds -= {"no_target", "negation"}
        if not tokens[i].is_punct and not kinds <= _CORRECTION_WORDS:
            return None
        i += match.length if match else 1
    return hits


_FORWARDING = [p for ps in grammar.FORWARDED.values() for p in ps]
_FORWARDED = re.compile(
    # the lookahead on the phrases' first letters skips most places of a long PM at once
    r"(?<!\w)(?=["
    + re.escape("".join(sorted({p[0] for p in _FORWARDING})))
    + r"])(?:"
    + "|".join(re.escape(p) for p in _FORWARDING)
    + r")(?!\w)",
    re.IGNORECASE,
)


def _forwards(text: str) -> bool:
    """The PM passes on another player's orders ("on behalf of", "передаю от").

    Speaking for one's own team ("on behalf of the team", "au nom de la famille", "от имени
    клана") is how a team's chosen sender writes: that is no other player's order.
    """
    text = text.replace("’", "'")
    return any(not _OWN_TEAM.match(text, match.end()) for match in _FORWARDED.finditer(text))


# "the team", "my family", "notre équipe", "нашей мафии": the sender's own side, right after
# a forwarding phrase.
_OWN_TEAM = re.compile(
    r"\s*(?:(?:the|my|our|la|ma|notre|l'|de la|du|нашей|нашего|нашу|своей|своего)\s*)?"
    r"(?:team|mafia|family|faction|clan|scum\s?team|wolves|pack|us|équipe|famille|clan|meute|"
    r"loups|nous|мафии|клана|команды|семьи|стаи|нас)(?!\w)",
    re.IGNORECASE,
)


def _by_first_word(phrases: set[tuple[str, ...]]) -> dict[str, tuple[tuple[str, ...], ...]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for words in phrases:
        index.setdefault(words[0], []).append(words)
    return {first: tuple(group) for first, group in index.items()}


# The phrases of a later phase, by their first word (one dict look-up per word of a PM).
_LATER = _by_first_word({tuple(normalize(w) for w in phrase.split())
                         for phrases in grammar.NEXT.values() for phrase in phrases})  # fmt: skip


def _names_a_later_phase(reading: Reading) -> bool:
    """ "je sauve Tom la nuit prochaine", "завтра ночью": the order is for a later phase."""
    norms = reading.norms
    if _LATER.keys().isdisjoint(norms):
        return False  # no word opens one (most sentences)
    return any(tuple(norms[i : i + len(words)]) == words
               for i, norm in enumerate(norms) for words in _LATER.get(norm, ()))  # fmt: skip


# "in case I die" and its kin: what makes a text a will, not a doubt about the order in it
def _without_header(text: str, ctx: Context) -> str:
    """A will's text without a short header naming nobody before its colon ("de maire :
    si je meurs…" in "mon testament de maire : …")."""
    head, colon, rest = text.partition(":")
    tokens = tokenize(head).tokens
    if not colon or len(tokens) > 3 or not rest.strip():
        return text
    for i, token in enumerate(tokens):
        if ctx.players.exact_at(tokens, i) or (
            len(token.norm) >= 4 and ctx.players.fuzzy(token.text)
        ):
            return text
    return rest


_IF_I_DIE = re.compile(
    r"\b(?:au cas où|au cas ou|si jamais je meurs|si je meurs|si je venais à mourir|"
    r"in case i die|if i die|if i'm killed|в случае моей смерти|если я умру|если меня убьют)\b",
    re.IGNORECASE,
)


def _usable(
    ruleset: Ruleset, abilities: frozenset[str] | None, now: Phase, statuses: Collection[str]
) -> frozenset[str]:
    """The sender's abilities usable in this phase (kind, ``not_on``, ``only_on``) and with
    the status they require (``requires_status: mayor``)."""
    usable = set()
    for ability_id in abilities or ():
        ability = ruleset.abilities.get(ability_id)
        if ability is None or not ability.allowed_in(now.kind) or now.id in ability.not_on:
            continue
        needs = ability.effect_params.get("requires_status")
        if ability.effect_params.get("only_on", now.id) == now.id and needs in (None, *statuses):
            usable.add(ability_id)
    return frozenset(usable)


def _kind_at(reading: Reading, ctx: Context, i: int, kind: str) -> bool:
    match = reading.match(ctx, i)
    return bool(match and kind in match.kinds())


def _option(ruleset: Ruleset, name: str) -> object:
    option = ruleset.options.get(name)
    return option.value if option is not None else None


def _asks_about_the_past(reading: Reading, ctx: Context) -> bool:
    """ "(tell me who he visited last night too)": a request for a past phase's results."""
    words = range(len(reading.keys))
    if not reading.may_hold(ctx, _TELL_ME):
        return False
    if not any(reading.may_start(ctx, i, _TELL_ME) and _kind_at(reading, ctx, i, "tell_me")
               for i in words):  # fmt: skip
        return False
    return any(is_previous(reading.norms, i) for i in words)


_OPENS_QUESTION = frozenset({"question", "greeting", "filler"})


def _starts_with_question(reading: Reading, ctx: Context) -> bool:
    for i, _ in enumerate(reading.sentence.tokens):
        if not reading.may_start(ctx, i, _OPENS_QUESTION):
            return False  # no match there, or one that is no question, greeting or filler
        match = reading.match(ctx, i)
        if match is None:
            return False
        if "question" in match.kinds():
            after = i + match.length
            following = (
                reading.sentence.tokens[after] if after < len(reading.sentence.tokens) else None
            )
            if "tell_me" in match.kinds() and _asks_the_result(reading, after):
                return False  # "Let me know the result asap!": what forumbot sends anyway
            return following is None or following.norm != ":"  # "When: N2" is a field
        if not match.kinds() & {"greeting", "filler"}:
            return False
    return False


def _for_player(read: ParseResult, giver: str) -> ParseResult:
    """A giver's part: its orders and candidates marked as written for ``giver``."""
    candidates = tuple(replace(c, orders=_marked(c.orders, giver)) for c in read.candidates)
    return replace(read, orders=_marked(read.orders, giver), candidates=candidates,
                   reason=f"for {giver}: {read.reason}")  # fmt: skip


def _marked(orders: tuple[Order, ...], giver: str) -> tuple[Order, ...]:
    return tuple(replace(o, for_player=giver) for o in orders)


def _only_about(mine: ParseResult, own: str, roster: Roster, allowed: set[str]) -> bool:
    """The delegate's own words hold no order, question or candidate and name nobody but
    the givers and the delegate ("Thanks Vin."): nothing to read."""
    if mine.orders or mine.candidates or mine.questions:
        return False
    folded = own.casefold()
    others = [n for s in roster.slots if s.name not in allowed for n in (s.name, *s.aliases)]
    return not any(re.search(rf"(?<!\w){re.escape(n.casefold())}(?!\w)", folded) for n in others)


def _merged(results: list[ParseResult]) -> ParseResult:
    """One result for the parts of a PM: accepted when every part is, else the GM's."""
    orders = tuple(o for r in results for o in r.orders)
    reason = "; ".join(r.reason for r in results)
    confidence = min((r.confidence for r in results), default=0.0)
    if results and all(r.status is Status.ACCEPTED for r in results):
        return ParseResult(Status.ACCEPTED, orders, reason, confidence)
    if results and all(r.status is Status.REJECTED for r in results):
        rule = next((r.rule for r in results if r.rule), None)
        return ParseResult(Status.REJECTED, (), reason, confidence, rule=rule)
    read = tuple(c for r in results for c in r.candidates)
    if orders:
        read = (Candidate(orders, confidence, "the parts read"), *read)
    questions = tuple(q for r in results for q in r.questions)
    return ParseResult(Status.AMBIGUOUS, (), reason, confidence, read, questions=questions)


def _verdict(status: Status, reason: str) -> ParseResult:
    return ParseResult(status, (), reason, 0.0, rule=reason if status is Status.REJECTED else None)


def parse_order(
    text_or_html: str,
    *,
    ruleset: Ruleset,
    roster: Roster,
    actor: str,
    phase: Phase | str,
    learned: Learned | None = None,
    recipients: Collection[str] | None = None,
    uses_left: Mapping[str, int] | None = None,
    items: Collection[str] = (),
    history: History | None = None,
    parser: OrderParser | None = None,
) -> ParseResult:
    """Turn one PM into structured orders, or say why it cannot be done with certainty.

    Args:
        text_or_html: the PM body (plain text, BBCode or HTML).
        ruleset: the game's ruleset.
        roster: the game's players (names, aliases, roles, who is alive).
        actor: the PM's sender.
        phase: the phase the orders are for (``night2`` or a Phase).
        learned: nicknames and misspellings the GM has taught for this game.
        recipients: every recipient of the PM when known (hand-off and multi-recipient rules).
        uses_left: ability id -> uses the sender has left (limited abilities).
        items: item ids the sender holds (items may grant abilities).
        history: the game's earlier orders, results and hand-offs; None when unknown (rules
            that look back, "not the same player two nights running", then queue the order).
        parser: a warm :class:`OrderParser` for this ruleset (faster for many PMs).

    Returns:
        The result: status, orders, candidates, reason, rule and confidence. Never raises
        for any text.
    """
    parser = parser or OrderParser(ruleset)
    return parser.parse(text_or_html, roster=roster, actor=actor, phase=phase, learned=learned,
                        recipients=recipients, uses_left=uses_left, items=items,
                        history=history)  # fmt: skip
