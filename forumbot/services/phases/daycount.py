"""The open day's vote count: stored posts (and PMs) to the vote counter, GM decisions back.

Doubtful votes the counter queues become GM review items (once each); what the GM decides
on them goes back to the counter as corrections of those posts, so the count, the vote-count
posts and the lynch all follow the GM.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import OrderStatus, PhaseKind, ReviewKind, ReviewState, VoteKind
from forumbot.db.models import Game, LearnedMapping, Phase, RawPM, RawPost, ReviewItem, VoteEvent
from forumbot.db.models import Order as OrderRow
from forumbot.services import domain, games, phases, slots
from forumbot.services.alerts import raise_alert
from forumbot.services.context import Runtime
from forumbot.votecount import VoteCountJob, render_vote_count
from parsers.roster import Roster
from parsers.votes import (
    NO_LYNCH,
    Channel,
    CountResult,
    DayEvent,
    DayEventKind,
    DaySetup,
    PostInput,
    QueueItem,
    count_votes,
)
from parsers.votes.config import rules_for
from parsers.votes.detect import unread_votes_warning
from resolver.engine import resolve_phase
from resolver.hooks import HOOKS
from resolver.model import GameState, Order, Ruleset
from resolver.model.events import EventKind
from resolver.rng import PurposeRng


@dataclass(frozen=True, slots=True)
class DayCount:
    """The open day's vote count, and its vote-count post (BBCode)."""

    result: CountResult
    post: str

    @property
    def votes(self) -> dict[str, tuple[str, ...]]:
        """Per target, its voters in the order they voted."""
        return {w.target: tuple(v.name for v in w.voters) for w in self.result.wagons}


def tally(rt: Runtime, game_id: int) -> DayCount | None:
    """The vote count of the open day from the stored posts (None: no day is open)."""
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        phase = phases.current(game)
        if phase is None or phase.kind.value != "day":
            return None
        return count_day(session, game, phase, rt.clock.now())


def count_day(session: Session, game: Game, phase: Phase, now: datetime) -> DayCount:
    """The vote count of one Day as of ``now``: what the runtime, the vote-count posts and
    the GM page all show (one count, from the stored posts)."""
    config = games.config_of(game)
    ruleset = domain.ruleset_of(game)  # the game file's votes: laid over the ruleset's vote:
    rules = rules_for(ruleset)
    posts = _posts_in(session, game, phase)
    if rules.channel is not Channel.THREAD:
        posts += _pms_in(session, game, phase, config.credentials.username)
    hosts = (config.gm, config.credentials.username)
    before = domain.state_before(game, phase, ruleset)  # a past Day as it began
    roster = _with_learned(domain.roster_of(game, game.players, hosts, before), session, game)
    day = DaySetup(
        number=phase.number,
        deadline=phase.deadline,
        events=tuple(corrections(session, game, phase)),
        ended=phase.deadline is not None and now >= phase.deadline,
        added_votes=added_votes(session, game, phase, ruleset, before),
    )
    zone = config.schedule.timezone
    result = count_votes(posts, roster, rules, day)
    job = VoteCountJob(game.ruleset, rules, roster, day, posts, result, zone=zone)
    return DayCount(result, render_vote_count(job, now, zone=zone))


def added_votes(
    session: Session, game: Game, phase: Phase, ruleset: Ruleset, before: GameState
) -> tuple[tuple[str, int], ...]:
    """The votes the ruleset puts in the Day's log without a voter (seed 004's penalties
    «+1 в лог»: the GM's, the late posts', the skipped votes' of earlier Days), as the
    resolver counts them: the Day resolved with its orders and no votes, read from its
    tally (the lynch step's ``vote_extras``, the resolver's one rule). None for a ruleset
    without such votes."""
    if getattr(HOOKS.get(ruleset.hooks or ""), "vote_extras", None) is None:
        return ()
    result = resolve_phase(
        before,
        day_orders(session, game, phase),
        ruleset,
        rng=PurposeRng(game.seed),
        votes={},
        phase=phase.name,
        absent=absentees(session, game, phase),
    )
    tally = next((e for e in result.events if e.kind is EventKind.VOTE_TALLY), None)
    rows = tally.data.get("tally", []) if tally is not None else []
    return tuple((str(row["target"]), int(row["extra"])) for row in rows if row.get("extra"))


def _with_learned(roster: Roster, session: Session, game: Game) -> Roster:
    """The GM's decisions on queued names, remembered for the game: each name he resolved
    ("CP" meant crazypianist) is an alias of its player from then on."""
    rows = session.scalars(
        select(LearnedMapping).where(
            LearnedMapping.game_id == game.id, LearnedMapping.kind == "player"
        )
    ).all()
    learned: dict[str, list[str]] = {}
    for row in rows:
        learned.setdefault(row.value, []).append(row.text)
    slots = tuple(replace(s, aliases=(*s.aliases, *learned.get(s.name, ()))) for s in roster.slots)
    return replace(roster, slots=slots)


def _posts_in(session: Session, game: Game, phase: Phase) -> tuple[PostInput, ...]:
    """The latest revision of every post made during the phase, in thread order."""
    rows = session.scalars(
        select(RawPost)
        .where(RawPost.forum_id == game.forum_id, RawPost.topic_id == game.topic_id)
        .order_by(RawPost.posted_at, RawPost.revision)
    ).all()
    latest: dict[str, RawPost] = {}
    before: dict[str, str] = {}  # the revision before the latest: what an edit changed
    gone = slots.cutoffs(session, game)  # replaced accounts: their later posts are not votes
    for row in rows:
        mine = not _after_leaving(row.author_name, row.posted_at, gone)
        if _within(row.posted_at, phase) and mine:
            if row.post_id in latest:
                before[row.post_id] = latest[row.post_id].body_html
            latest[row.post_id] = row
    ordered = sorted(latest.values(), key=lambda r: int(r.post_id))
    posts = (domain.thread_post(r, n, before.get(r.post_id)) for n, r in enumerate(ordered))
    return tuple(_as_slot(post, gone) for post in posts)


def _after_leaving(author: str, when: datetime, gone: dict[str, datetime]) -> bool:
    """Whether a post or PM is by a replaced account, made after it left its slot."""
    left = gone.get(author.casefold())
    return left is not None and _aware(when) >= _aware(left)


def _as_slot(post: PostInput, gone: dict[str, datetime]) -> PostInput:
    """A replaced account's earlier post, matched to its slot by name (the slot's account id
    is the new account's)."""
    return replace(post, author_id=None) if post.author.casefold() in gone else post


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def absentees(session: Session, game: Game, phase: Phase) -> tuple[str, ...]:
    """The living players with no post in the thread during the whole phase (a PM is no
    participation: seed 003's "un vote envoyé sans participation de jour")."""
    seats = domain.roster_of(game, game.players)
    posted = set()
    for post in _posts_in(session, game, phase):
        slot = seats.by_author(post.author)
        if slot is not None:
            posted.add(slot.name)
    living = [p.display_name for p in game.players if phases.is_alive(p)]
    return tuple(name for name in living if name not in posted)


def _pms_in(session: Session, game: Game, phase: Phase, account: str) -> tuple[PostInput, ...]:
    """The players' PMs to the bot during the phase (votes, in a game that votes by PM)."""
    players = {p.display_name.casefold() for p in game.players}
    rows = session.scalars(
        select(RawPM)
        .where(RawPM.forum_id == game.forum_id, RawPM.account == account)
        .order_by(RawPM.sent_at, RawPM.id)
    ).all()
    gone = slots.cutoffs(session, game)
    return tuple(
        _as_slot(domain.pm_vote(r), gone)
        for r in rows
        if _within(r.sent_at, phase)
        and r.sender_name.casefold() in players
        and not _after_leaving(r.sender_name, r.sent_at, gone)
    )


def _within(moment: datetime, phase: Phase) -> bool:
    starts = phase.starts_at is None or moment >= phase.starts_at
    return starts and (phase.deadline is None or moment <= phase.deadline)


def queue_doubtful(rt: Runtime, game_id: int) -> int:
    """Put each vote the counter could not decide into the GM queue (once); returns how many."""
    count = tally(rt, game_id)
    if count is not None and not count.result.events:
        warn_unread_votes(rt, game_id)
    if count is None or not count.result.queue:
        return 0
    added = 0
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        phase = phases.current(game)
        known = set(session.scalars(select(ReviewItem.problem_key).where(
            ReviewItem.game_id == game.id,
            ReviewItem.kind.in_((ReviewKind.VOTE, ReviewKind.EDIT)),
        )))  # fmt: skip
        for item in count.result.queue:
            key = f"{item.post_id}:{item.voter}:{item.raw}"
            if key in known or phase is None:
                continue
            _vote_item(session, game, phase, item, key)
            known.add(key)
            added += 1
    return added


def warn_unread_votes(rt: Runtime, game_id: int) -> bool:
    """Alert the GM once a Day when its posts hold votes in a syntax the game does not read
    (a thread voting ``[b]vote: X[/b]`` under a ``$Name`` ruleset would count nothing)."""
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        phase = phases.current(game)
        if phase is None:
            return False
        key = f"{phase.name}:vote-syntax"
        if session.scalar(select(ReviewItem.id).where(
            ReviewItem.game_id == game.id, ReviewItem.problem_key == key
        )):  # fmt: skip
            return False  # once a Day, even after the GM saw it
        config = games.config_of(game)
        rules = rules_for(domain.ruleset_of(game))
        hosts = {config.gm.casefold(), config.credentials.username.casefold()}
        bodies = [
            p.html for p in _posts_in(session, game, phase) if p.author.casefold() not in hosts
        ]
        warning = unread_votes_warning(bodies, rules)
        if warning is None:
            return False
        raise_alert(session, game, key, f"{phase.name}: {warning}")
        return True


def day_orders(session: Session, game: Game, phase: Phase) -> list[Order]:
    """The orders a phase resolves with: the late posts' penalties, then its accepted orders
    in the order they were sent (votes are counted apart)."""
    return [*late_posts(session, game, phase), *_accepted(session, game, phase)]


def _accepted(session: Session, game: Game, phase: Phase) -> list[Order]:
    """The phase's accepted orders, in the order they were sent (votes are counted apart)."""
    rows = session.scalars(
        select(OrderRow)
        .where(
            OrderRow.phase_id == phase.id,
            OrderRow.status == OrderStatus.ACCEPTED,
            OrderRow.ability.is_distinct_from("vote"),  # votes come from the vote count
            OrderRow.ability.is_distinct_from("handoff"),  # the runtime's (services/handoffs)
        )
        .order_by(OrderRow.received_at, OrderRow.id)
    ).all()
    return domain.resolver_orders(rows, {p.id: p.display_name for p in game.players})


def late_posts(session: Session, game: Game, phase: Phase) -> list[Order]:
    """Players' posts in the game thread after the previous Day ended and before this one
    (seed 004 п.09а): one order of the ruleset's ``from_late_posts`` ability per post, for
    its author, so the resolver applies the ruleset's penalty (none without such an ability)."""
    ability = next((a for a in domain.ruleset_of(game).abilities.values()
                    if a.effect_params.get("from_late_posts")), None)  # fmt: skip
    days = [p for p in game.phases if p.kind is PhaseKind.DAY and p.sequence < phase.sequence]
    ended = max(days, key=lambda p: p.sequence).deadline if days else None
    if ability is None or phase.kind is not PhaseKind.DAY or ended is None or not phase.starts_at:
        return []
    players = {p.display_name.casefold(): p.display_name for p in game.players
               if phases.is_alive(p)}  # fmt: skip
    rows = session.scalars(select(RawPost).where(
        RawPost.forum_id == game.forum_id, RawPost.topic_id == game.topic_id,
        RawPost.posted_at > ended, RawPost.posted_at < phase.starts_at,
    ).order_by(RawPost.posted_at, RawPost.id)).all()  # fmt: skip
    first = {r.post_id: r for r in reversed(rows)}  # a post once, whatever its revisions
    reason = str(ability.effect_params["from_late_posts"])
    return [
        Order(
            players[r.author_name.casefold()], ability.id, (), {"reason": reason, "post": r.post_id}
        )
        for r in sorted(first.values(), key=lambda r: (r.posted_at, r.id))
        if r.author_name.casefold() in players
    ]


def _vote_item(session: Session, game: Game, phase: Phase, item: QueueItem, key: str) -> ReviewItem:
    post = session.scalar(
        select(RawPost).where(RawPost.forum_id == game.forum_id,
                              RawPost.post_id == str(item.post_id))
        .order_by(RawPost.revision.desc()).limit(1)
    )  # fmt: skip
    voter = next((p for p in game.players if p.display_name == item.voter), None)
    edited = "edit" in item.kind
    row = ReviewItem(game_id=game.id, phase_id=phase.id,
                     kind=ReviewKind.EDIT if edited else ReviewKind.VOTE,
                     raw_post_id=post.id if post else None,
                     player_id=voter.id if voter else None,
                     reason=f"{item.raw!r}: {item.reason}",
                     candidates=[{"target": c, "written": item.written} if item.written
                                 else c for c in item.candidates],
                     problem_key=key)  # fmt: skip
    session.add(row)
    session.flush()
    return row


def corrections(session: Session, game: Game, phase: Phase) -> list[DayEvent]:
    """The GM's decisions on doubtful votes as counter corrections of their posts (a vote
    read as the GM meant it, or ignored)."""
    items = session.scalars(
        select(ReviewItem).where(
            ReviewItem.phase_id == phase.id,
            ReviewItem.kind.in_((ReviewKind.VOTE, ReviewKind.EDIT)),
            ReviewItem.state != ReviewState.OPEN,
            ReviewItem.raw_post_id.is_not(None),
        )
    ).all()
    names = {p.id: p.display_name for p in game.players}
    out: list[DayEvent] = []
    for item in items:
        post = session.get_one(RawPost, item.raw_post_id)
        voter = names.get(item.player_id or 0, post.author_name)
        if item.state is ReviewState.REJECTED:
            out.append(DayEvent(DayEventKind.IGNORE, post.post_id, voter, None))
            continue
        vote = session.scalar(
            select(VoteEvent).where(VoteEvent.review_item_id == item.id).order_by(VoteEvent.id)
        )
        target = names.get(vote.target_id) if vote and vote.target_id else None
        if vote is not None and vote.kind is VoteKind.NO_LYNCH:
            target = NO_LYNCH  # the GM read it as a no-lynch vote (None would be an unvote)
        if vote is None or (vote.kind is VoteKind.VOTE and target is None):
            continue
        out.append(DayEvent(DayEventKind.CORRECT, post.post_id, voter, target))
    return out
