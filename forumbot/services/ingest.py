"""Reading the forum: fetch new posts and PMs, store them raw first, then parse them.

Fetching and parsing are separate steps with their own high-water marks: ``last_post_id`` /
``last_pm_id`` on the game say what was fetched; ``pm_row`` says which stored PM was
last turned into orders. A crash between the two loses nothing (the raw row is there and is
parsed on the next poll) and repeats nothing (each PM is parsed once, in its transaction).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rapidfuzz.distance import Levenshtein
from sqlalchemy import select
from sqlalchemy.orm import Session

from forum_adapters.base import PMId, Post, PostId, PrivateMessage, ThreadRef
from forum_adapters.errors import LayoutChanged
from forum_adapters.markup import strip_controls
from forumbot.db.enums import GameStatus, OrderStatus, PhaseStatus, PlayerStatus, ReviewKind
from forumbot.db.models import (
    Game,
    LearnedMapping,
    Order,
    Phase,
    Player,
    RawPM,
    RawPost,
    ReviewItem,
)
from forumbot.db.repo import IncomingPM, IncomingPost, store_pm, store_post
from forumbot.logs import event
from forumbot.services import domain, games, handoffs, phases, receipts, slots
from forumbot.services.context import Runtime
from parsers.orders import ParseResult, Status


@dataclass(frozen=True, slots=True)
class PollReport:
    """How many new posts and PMs one poll stored, and how many PMs it parsed."""

    posts: int
    pms: int
    parsed: int


def poll_game(rt: Runtime, game_id: int) -> PollReport:
    """Fetch what is new on the forum, store it raw, then parse the PMs not yet parsed.

    A thread page the adapter cannot read (``LayoutChanged``) does not keep the inbox
    waiting: the PMs are still read, stored and answered, then the page's error is raised
    for the guard to alert the GM, and nothing is resolved on a thread half read.
    """
    unreadable: list[LayoutChanged] = []
    posts, pms = fetch(rt, game_id, unreadable)
    parsed = parse_new_pms(rt, game_id)
    event(rt.log, "poll.done", game=game_id, posts=posts, pms=pms, parsed=parsed)
    if unreadable:
        raise unreadable[0]
    return PollReport(posts, pms, parsed)


def fetch(rt: Runtime, game_id: int, unreadable: list[LayoutChanged]) -> tuple[int, int]:
    """Store new thread posts and inbox PMs; each is committed with its high-water mark.

    A thread page that cannot be read stops the posts there (the mark stays before it) and
    goes into ``unreadable``; the inbox is read all the same.
    """
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        access = games.access_of(game)
        after_post = PostId(int(game.last_post_id)) if game.last_post_id else None
        after_pm = PMId(int(game.last_pm_id)) if game.last_pm_id else None
        forum_id = game.forum_id
    adapter = rt.adapter(access)
    thread = ThreadRef(int(access.topic_id), access.topic_url)
    new_posts = new_pms = 0
    try:
        for post in adapter.iter_posts(thread, after=after_post):
            with rt.sessions.begin() as session:
                store_post(session, forum_id, _incoming_post(post, thread.url))
                session.get_one(Game, game_id).last_post_id = str(post.post_id)
            new_posts += 1
            _progress(rt, "posts", new_posts)
    except LayoutChanged as exc:
        unreadable.append(exc)
    for pm in adapter.iter_pms(after=after_pm):
        with rt.sessions.begin() as session:
            store_pm(session, forum_id, access.username, _incoming_pm(pm))
            session.get_one(Game, game_id).last_pm_id = str(pm.pm_id)
        new_pms += 1
        _progress(rt, "pms", new_pms)
    return new_posts, new_pms


def parse_new_pms(rt: Runtime, game_id: int) -> int:
    """Turn every stored PM not yet parsed into orders, queue items and receipts."""
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        mark = game.pm_row
        account = games.config_of(game).credentials.username
        ids = session.scalars(
            select(RawPM.id)
            .where(RawPM.forum_id == game.forum_id, RawPM.account == account, RawPM.id > mark)
            .order_by(RawPM.id)
        ).all()
    for row_id in ids:
        with rt.sessions.begin() as session:
            game = session.get_one(Game, game_id)
            handle_pm(rt, session, game, session.get_one(RawPM, row_id))
            game.pm_row = row_id
    with rt.sessions.begin() as session:  # and tell players how the GM decided their PMs
        receipts.follow_up(session, session.get_one(Game, game_id))
    return len(ids)


# Characters of a PM's HTML the bot hands on to the order parser; a longer PM is the GM's
# unread (a 5 MB PM would hold the worker for minutes). Four times the parser's own bound
# (64 KB of text, parsers.orders.parse.MAX_PM_BYTES), so the markup of a PM the parser
# reads never stops it here: the parser queues what is over 64 KB itself.
MAX_ORDER_PM = 4 * 64 * 1024


def handle_pm(rt: Runtime, session: Session, game: Game, raw: RawPM) -> str:
    """Read one PM from a player: orders applied, late, or queued for the GM. Returns which."""
    player = _player_named(game, raw.sender_name)
    if player is None:
        twin = _look_alike(game, raw.sender_name)
        if twin is None:
            return "ignored"  # the GM, or someone outside the game
        _queue_stranger(session, game, raw, twin)
        return "queued"
    if player.status is PlayerStatus.REPLACED:  # his slot is another account's now
        _queue_replaced(session, game, raw, player)
        return "queued"
    if len(raw.body_html) > MAX_ORDER_PM:  # a 5 MB PM would hold the worker for minutes
        phase = next(iter(phases.order_phases(game)), None)
        why = (f"too long to read automatically ({len(raw.body_html):,} characters; orders "
               f"are read up to {MAX_ORDER_PM:,}): read it yourself")  # fmt: skip
        _queue(session, game, phase, player, raw, why, [])
        receipts.draft_receipt(session, game, player, raw, phase, None, "queued")
        return "queued"
    text = strip_controls(raw.body_html)  # "\x1b[0mcheck Zed" reads as "check Zed"
    if handoffs.applies(game):  # seed 000: orders a delegate writes for who handed them over
        text, parts = handoffs.split(session, game, player, text)
        if parts:
            handoffs.handle_parts(session, game, player, parts, _steps(session, game, raw))
            if not text.strip():
                return "delegated"
    read = _read_order(session, game, player, raw, text)
    if read is None:
        _queue(session, game, None, player, raw, "no phase is open for orders", [])
        return "queued"
    phase, reading = read
    # a queued reading's candidates count too: the den's victim sent after 19:00 is late
    read_orders = reading.orders or tuple(o for c in reading.candidates for o in c.orders)
    abilities = [domain.order_fields(o)[0] for o in read_orders]
    ended = _vote_after_day(game, raw, abilities)
    early = phases.too_early(phase, raw.sent_at, abilities)
    if ended is not None:  # "vote X" by PM while no day is open: it counts for no day
        phase = ended
        _store_orders(session, game, phase, player, raw, reading, OrderStatus.LATE)
        outcome = "late"
    elif phases.is_late(phase, raw.sent_at, abilities, dead=not phases.is_alive(player)):
        _store_orders(session, game, phase, player, raw, reading, OrderStatus.LATE)
        outcome = "late"
    elif early is not None and reading.status is Status.ACCEPTED:
        outcome = _early(session, game, phase, player, raw, reading, early)
    elif others := _other_games_of(session, game, raw):
        # One bot account, one inbox: a PM from a player of several games is never applied
        # to a game it may not be meant for. The GM places it (the reading is a candidate).
        why = (
            f"{player.display_name} also plays in {', '.join(others)} on this forum and PMs "
            "reach one inbox: which game is this PM for?"
        )
        _store_orders(session, game, phase, player, raw, reading, OrderStatus.AMBIGUOUS)
        _queue(session, game, phase, player, raw, why, _as_candidates(reading))
        outcome = "queued"
    elif why := handoffs.not_counted(game, player, raw, reading):
        _store_orders(session, game, phase, player, raw, reading, OrderStatus.REJECTED)
        _queue(session, game, phase, player, raw, why, [])
        outcome = "queued"
    elif reading.status is Status.ACCEPTED:
        reading, refused = handoffs.refusals(session, game, player, phase, reading)
        if refused is not None:
            _store_orders(session, game, phase, player, raw, refused, OrderStatus.REJECTED)
            _queue(session, game, phase, player, raw, refused.reason, [])
        if reading.orders or refused is None:
            _store_orders(session, game, phase, player, raw, reading, OrderStatus.ACCEPTED)
        outcome = "accepted" if reading.orders or refused is None else "queued"
    else:
        status = (
            OrderStatus.AMBIGUOUS if reading.status is Status.AMBIGUOUS else OrderStatus.REJECTED
        )
        _store_orders(session, game, phase, player, raw, reading, status)
        _queue(session, game, phase, player, raw, reading.reason, _as_candidates(reading))
        outcome = "queued"
    opens = early[1] if early is not None and outcome == "early" else None
    receipts.draft_receipt(session, game, player, raw, phase, reading, outcome, opens=opens)
    return outcome


def _vote_after_day(game: Game, raw: RawPM, abilities: list[str]) -> Phase | None:
    """The day that had ended when a PM holding only votes was sent, in a game that votes
    by PM and while no day was open (the vote counter counts it for no day)."""
    if not abilities or any(a != "vote" for a in abilities):
        return None
    if domain.ruleset_of(game).vote.channel != "pm":
        return None
    return phases.day_ended_before(game, raw.sent_at)


def _early(
    session: Session,
    game: Game,
    phase: Phase,
    player: Player,
    raw: RawPM,
    reading: ParseResult,
    early: tuple[str, datetime],
) -> str:
    """An order sent before its ability's window opened: refused, or queued for the GM when
    the ability says so (``window_early: gm``). Returns the receipt's outcome."""
    ability, opens = early
    policy = domain.ruleset_of(game).abilities[ability].effect_params.get("window_early")
    if policy == "gm":
        local = opens.astimezone(phases.schedule_of(game).timezone)
        why = f"{ability} sent before its window opened ({local:%d/%m %H:%M}): count it?"
        _store_orders(session, game, phase, player, raw, reading, OrderStatus.AMBIGUOUS)
        _queue(session, game, phase, player, raw, why, _as_candidates(reading))
        return "queued"
    _store_orders(session, game, phase, player, raw, reading, OrderStatus.REJECTED)
    return "early"


def _steps(session: Session, game: Game, raw: RawPM) -> handoffs.Steps:
    """The reading steps of one PM, for the parts a delegate wrote for someone else."""

    def late(phase: Phase, player: Player, reading: ParseResult) -> bool:
        abilities = [domain.order_fields(o)[0] for o in reading.orders]
        return phases.is_late(phase, raw.sent_at, abilities, dead=not phases.is_alive(player))

    return handoffs.Steps(
        read=lambda player, text: _read_order(session, game, player, raw, text),
        late=late,
        store=lambda phase, player, reading, status: _store_orders(
            session, game, phase, player, raw, reading, status
        ),
        queue=lambda phase, player, why, candidates: _queue(
            session, game, phase, player, raw, why, list(candidates)
        ),
        candidates=_as_candidates,
    )


def _read_order(
    session: Session, game: Game, player: Player, raw: RawPM, text: str
) -> tuple[Phase, ParseResult] | None:
    """Parse for the open phase; an order the open phase refuses may be for the next one."""
    candidates = phases.order_phases(game)
    if not candidates:
        return None
    ruleset, parser = domain.ruleset_of(game), domain.parser_of(game)
    learned = domain.learned_of(
        session.scalars(select(LearnedMapping).where(LearnedMapping.game_id == game.id))
    )
    # The parser sees every slot (dead players too, for orders on the dead), who is alive,
    # every recipient of the PM, what the GM taught for this game, and the game's state and
    # history: roles, statuses, uses and items as the last resolved phase left them, the
    # orders applied so far (the rules that look back), the hand-offs, the PM's send time.
    orders = session.scalars(select(Order).where(Order.game_id == game.id)).all()
    when = raw.sent_at if raw.sent_at.tzinfo else raw.sent_at.replace(tzinfo=UTC)
    sent = when.astimezone(phases.schedule_of(game).timezone).isoformat()
    inputs = domain.order_inputs(game, player, orders, sent)
    best: tuple[tuple[bool, int, float], Phase, ParseResult] | None = None
    for phase in candidates:
        reading = parser.parse(
            text, roster=inputs.roster, actor=player.display_name, phase=phase.name,
            learned=learned, recipients=domain.recipients_of(raw), uses_left=inputs.uses_left,
            items=inputs.items, history=inputs.history,
        )  # fmt: skip
        if phase.status is PhaseStatus.FROZEN and not _extends(phase, reading):
            continue  # a frozen phase takes only a tie-break's kind of order
        if reading.status is Status.ACCEPTED and _acts(reading):
            return phase, reading
        rank = _rank(reading, domain.fits_phase(ruleset, phase.name, reading))
        if best is None or rank > best[0]:
            best = (rank, phase, reading)  # else the most confident reading, the open phase on ties
    return (best[1], best[2]) if best is not None else None


def _extends(phase: Phase, reading: ParseResult) -> bool:
    abilities = [domain.order_fields(o)[0] for o in reading.orders]
    return bool(abilities) and all(a and phases.extends_past(phase, a) for a in abilities)


def _rank(reading: ParseResult, fits: bool) -> tuple[bool, int, float]:
    """A reading for a phase its abilities are used in comes first (a charm refused by a rule
    at night is not "for later?" on the next day), then the surer reading."""
    status = {Status.ACCEPTED: 2, Status.AMBIGUOUS: 1}.get(reading.status, 0)
    return (fits, status, reading.confidence)


def _acts(reading: ParseResult) -> bool:
    """Whether a reading orders an ability (a bare cancel may be meant for the next phase)."""
    return any(order.ability not in _NO_ACTION for order in reading.orders)


_NO_ACTION = frozenset({"", "cancel", "none"})


def _store_orders(
    session: Session,
    game: Game,
    phase: Phase,
    player: Player,
    raw: RawPM,
    reading: ParseResult,
    status: OrderStatus,
) -> None:
    """Store each order; an accepted one supersedes the player's earlier one for that ability
    (the last valid order before the deadline wins)."""
    for order in reading.orders or (None,):
        ability, targets, params = domain.order_fields(order) if order else (None, [], {})
        if status is OrderStatus.ACCEPTED and ability:
            for old in session.scalars(
                select(Order).where(
                    Order.phase_id == phase.id,
                    Order.player_id == player.id,
                    Order.ability == ability,
                    Order.status == OrderStatus.ACCEPTED,
                )
            ):
                old.status = OrderStatus.SUPERSEDED
        session.add(
            Order(
                game_id=game.id,
                phase_id=phase.id,
                player_id=player.id,
                raw_pm_id=raw.id,
                ability=ability,
                targets=targets,
                params=params,
                status=status,
                confidence=reading.confidence,
                reason=reading.reason,
                received_at=raw.sent_at,
            )
        )
    session.flush()


def _queue(
    session: Session,
    game: Game,
    phase: Phase | None,
    player: Player,
    raw: RawPM,
    reason: str,
    candidates: list[Any],
) -> None:
    session.add(
        ReviewItem(
            game_id=game.id,
            phase_id=phase.id if phase else None,
            kind=ReviewKind.ORDER,
            raw_pm_id=raw.id,
            player_id=player.id,
            reason=reason or "unclear order",
            candidates=candidates,
        )
    )
    session.flush()


def final_read(rt: Runtime, game_id: int) -> int:
    """Read a day's posts once more at its deadline, so edits made to older posts count.

    Polling reads only what is newer than the last post seen; an edited vote in an older
    post is caught here, once per day, as a new revision of that post. Returns the number
    of revisions found.
    """
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        start = _reread_from(session, game, rt.clock.now())
        if start is None:
            return 0
        access, forum_id = games.access_of(game), game.forum_id
    phase_id, before = start
    edits = 0
    thread = ThreadRef(int(access.topic_id), access.topic_url)
    after = PostId(before) if before is not None else None
    for post in rt.adapter(access).iter_posts(thread, after=after):
        with rt.sessions.begin() as session:
            row, new = store_post(session, forum_id, _incoming_post(post, thread.url))
            edits += int(new and row.revision > 0)
    with rt.sessions.begin() as session:
        phase = session.get_one(Phase, phase_id)
        phase.reread = True
        event(rt.log, "poll.final_read", game=game_id, phase=phase.name, edits=edits)
    return edits


def _reread_from(session: Session, game: Game, now: datetime) -> tuple[int, int | None] | None:
    """(day's phase id, the game topic's last post before the day, None if the day opened the
    topic) when the open day's deadline passed and it was not re-read yet; else None. The
    re-read starts there: post ids may be board-wide (phpBB), so "first - 1" is another
    topic's."""
    phase = phases.current(game)
    if phase is None or phase.kind.value != "day" or phase.status.value != "open":
        return None
    if phase.deadline is None or now < phase.deadline or phase.starts_at is None:
        return None
    if phase.reread:
        return None
    first = session.scalar(
        select(RawPost.post_id)
        .where(
            RawPost.forum_id == game.forum_id,
            RawPost.topic_id == game.topic_id,
            RawPost.posted_at >= phase.starts_at,
        )
        .order_by(RawPost.posted_at)
        .limit(1)
    )
    if first is None:
        return None
    ids = session.scalars(
        select(RawPost.post_id)
        .distinct()
        .where(RawPost.forum_id == game.forum_id, RawPost.topic_id == game.topic_id)
    )
    earlier = [int(post_id) for post_id in ids if int(post_id) < int(first)]  # ids are text
    return phase.id, max(earlier, default=None)


def _other_games_of(session: Session, game: Game, raw: RawPM) -> list[str]:
    """Other active games on this forum, read through the same account, where the PM's
    sender plays too."""
    rows = session.scalars(
        select(Game).where(
            Game.forum_id == game.forum_id,
            Game.id != game.id,
            Game.status.in_((GameStatus.RUNNING, GameStatus.PAUSED)),
        )
    )
    return [
        other.name
        for other in rows
        if games.config_of(other).credentials.username == raw.account
        and _player_named(other, raw.sender_name) is not None
    ]


def _as_candidates(reading: ParseResult) -> list[Any]:
    """The parser's candidates, or its accepted reading as the one candidate."""
    if reading.candidates:
        return [c.as_json() for c in reading.candidates]
    orders = [dict(zip(("ability", "targets", "params"), domain.order_fields(o), strict=True))
              for o in reading.orders]  # fmt: skip
    if not orders:
        return []
    return [{"orders": orders, "score": reading.confidence, "why": reading.reason}]


def _queue_stranger(session: Session, game: Game, raw: RawPM, twin: Player) -> None:
    """A PM from an account that only looks like a player's: to the GM, never applied."""
    why = (f"not from a player: {raw.sender_name!r} is another account that looks like "
           f"{twin.display_name!r} (an impostor?); nothing applied, no receipt sent")  # fmt: skip
    phase = next(iter(phases.order_phases(game)), None)
    session.add(ReviewItem(game_id=game.id, phase_id=phase.id if phase else None,
                           kind=ReviewKind.ORDER, raw_pm_id=raw.id, player_id=None,
                           reason=why, candidates=[]))  # fmt: skip
    session.flush()


def _queue_replaced(session: Session, game: Game, raw: RawPM, player: Player) -> None:
    """A PM from an account that was replaced: to the GM, never applied, no receipt."""
    holder = slots.slot_names(game.players).get(player.id, "?")
    why = (f"not from a player any more: {player.display_name} was replaced by {holder}; "
           "nothing applied, no receipt sent")  # fmt: skip
    phase = next(iter(phases.order_phases(game)), None)
    session.add(ReviewItem(game_id=game.id, phase_id=phase.id if phase else None,
                           kind=ReviewKind.ORDER, raw_pm_id=raw.id, player_id=None,
                           reason=why, candidates=[]))  # fmt: skip
    session.flush()


# Letters of other scripts that look like Latin ones (the usual impostor's swaps).
_CONFUSABLE = str.maketrans(
    dict(zip("аеорсухкмтвнієѕјԁӏАВЕКМНОРСТХУΑΒΕΖΗΙΚΜΝΟΡΤΥΧαιονρτυχ",
             "aeopcyxkmtbhiesjdlABEKMHOPCTXYABEZHIKMNOPTYXaiovptux", strict=True))
)  # fmt: skip


def _skeleton(name: str) -> str:
    """A name reduced to what the eye sees: NFKC, no invisible or separator characters,
    look-alike letters of other scripts as Latin, case folded."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] in "LN")
    return text.translate(_CONFUSABLE).casefold().replace("0", "o").replace("1", "l")


def _look_alike(game: Game, name: str) -> Player | None:
    """The player whose name ``name`` imitates (same skeleton, or one letter off in a name
    of five letters or more), if any; the GM and the bot are never look-alikes."""
    config = games.config_of(game)
    own = {_skeleton(n) for n in (config.gm, config.credentials.username) if n}
    sender = _skeleton(name)
    if not sender or sender in own:
        return None
    for player in game.players:
        for known in (player.display_name, *player.aliases):
            target = _skeleton(known)
            if sender == target or (min(len(sender), len(target)) >= 5
                                    and Levenshtein.distance(sender, target) <= 1):  # fmt: skip
                return player
    return None


def _player_named(game: Game, name: str) -> Player | None:
    folded = name.casefold()
    for player in game.players:
        names = [player.display_name, *player.aliases]
        if any(n.casefold() == folded for n in names):
            return player
    return None


def _incoming_post(post: Post, thread_url: str | None) -> IncomingPost:
    """A post read from the thread at ``thread_url`` (the GM queue links to it from there)."""
    return IncomingPost(
        topic_id=str(post.topic_id),
        post_id=str(post.post_id),
        author_name=post.author.name,
        author_user_id=_str(post.author.id),
        posted_at=post.posted_at,
        edited_at=post.edited_at,
        body_html=post.body_html,
        page_url=thread_url,
    )


def _incoming_pm(pm: PrivateMessage) -> IncomingPM:
    return IncomingPM(
        pm_id=str(pm.pm_id),
        sender_name=pm.sender.name,
        sender_user_id=_str(pm.sender.id),
        sent_at=pm.sent_at,
        subject=pm.subject,
        body_html=pm.body_html,
        recipients=tuple({"user_id": _str(r.id), "name": r.name} for r in pm.recipients),
    )


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def _progress(rt: Runtime, what: str, count: int) -> None:
    if rt.progress is not None:
        rt.progress(what, count)
    if count % 100 == 0:
        event(rt.log, "poll.catching_up", fetched=count, what=what)
