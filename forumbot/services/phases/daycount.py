"""The open day's vote count: stored posts (and PMs) to the vote counter, GM decisions back.

Doubtful votes the counter queues become GM review items (once each); what the GM decides
on them goes back to the counter as corrections of those posts, so the count, the vote-count
posts and the lynch all follow the GM.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import ReviewKind, ReviewState, VoteKind
from forumbot.db.models import Game, Phase, RawPM, RawPost, ReviewItem, VoteEvent
from forumbot.services import games, phases
from forumbot.services.context import Runtime
from forumbot.services.pipeline import StoredPost, Tally, VoteRequest


def tally(rt: Runtime, game_id: int) -> Tally | None:
    """The vote count of the open day from the stored posts (None without a vote counter)."""
    if rt.pipeline.votes is None:
        return None
    with rt.sessions() as session:
        game = session.get_one(Game, game_id)
        phase = phases.current(game)
        if phase is None or phase.kind.value != "day":
            return None
        config = games.config_of(game)
        posts = _posts_in(session, game, phase)
        pms = _pms_in(session, game, phase, config.credentials.username)
        request = VoteRequest(
            posts=posts,
            ruleset=game.ruleset,
            roster={p.display_name: p.role for p in game.players},
            alive=tuple(p.display_name for p in game.players if phases.is_alive(p)),
            hosts=(config.gm, config.credentials.username),
            aliases={p.display_name: tuple(p.aliases) for p in game.players},
            syntax=config.votes.syntax,
            day=phase.number,
            deadline=phase.deadline,
            now=rt.clock.now(),
            pms=pms,
            overrides=_vote_overrides(game),
            corrections=tuple(corrections(session, game, phase)),
        )
    return rt.pipeline.votes(request)


def _posts_in(session: Session, game: Game, phase: Phase) -> list[StoredPost]:
    """The latest revision of every post made during the phase, in thread order."""
    rows = session.scalars(
        select(RawPost)
        .where(RawPost.forum_id == game.forum_id, RawPost.topic_id == game.topic_id)
        .order_by(RawPost.posted_at, RawPost.revision)
    ).all()
    latest: dict[str, RawPost] = {}
    before: dict[str, str] = {}  # the revision before the latest: what an edit changed
    for row in rows:
        if _within(row.posted_at, phase):
            if row.post_id in latest:
                before[row.post_id] = latest[row.post_id].body_html
            latest[row.post_id] = row
    return [
        StoredPost(
            r.post_id,
            r.author_name,
            r.body_html,
            r.posted_at.isoformat(),
            previous_html=before.get(r.post_id),
            edited=r.edited_at is not None or r.post_id in before,
            edited_at=r.edited_at.isoformat() if r.edited_at else None,
        )
        for r in sorted(latest.values(), key=lambda r: int(r.post_id))
    ]


def _pms_in(session: Session, game: Game, phase: Phase, account: str) -> list[StoredPost]:
    """The players' PMs to the bot during the phase (votes, in a game that votes by PM)."""
    players = {p.display_name.casefold() for p in game.players}
    rows = session.scalars(
        select(RawPM)
        .where(RawPM.forum_id == game.forum_id, RawPM.account == account)
        .order_by(RawPM.sent_at, RawPM.id)
    ).all()
    return [
        StoredPost(
            r.pm_id,
            r.sender_name,
            r.body_html,
            r.sent_at.isoformat(),
            tuple(str(x.get("name", "")) for x in r.recipients),
        )
        for r in rows
        if _within(r.sent_at, phase) and r.sender_name.casefold() in players
    ]


_SYNTAX_NAMES = {"pm": "plain_vote"}  # the game file's names -> the vote counter's


def _vote_overrides(game: Game) -> dict[str, Any]:
    """The vote settings the game file states (the ruleset's apply to everything else)."""
    return dict(_stated_votes(game.settings["game_yaml"]))


@functools.lru_cache(maxsize=256)
def _stated_votes(text: str) -> tuple[tuple[str, Any], ...]:
    stated = (yaml.load(text, Loader=games.YAML_LOADER) or {}).get("votes") or {}
    out: dict[str, Any] = {}
    if "channel" in stated:
        out["channel"] = stated["channel"]
    if "syntax" in stated:
        syntax = stated["syntax"] if isinstance(stated["syntax"], list) else [stated["syntax"]]
        out["syntax"] = [_SYNTAX_NAMES.get(str(s), str(s)) for s in syntax]
    return tuple(out.items())


def _within(moment: datetime, phase: Phase) -> bool:
    starts = phase.starts_at is None or moment >= phase.starts_at
    return starts and (phase.deadline is None or moment <= phase.deadline)


def queue_doubtful(rt: Runtime, game_id: int) -> int:
    """Put each vote the counter could not decide into the GM queue (once); returns how many."""
    count = tally(rt, game_id)
    if count is None or not count.queued:
        return 0
    added = 0
    with rt.sessions.begin() as session:
        game = session.get_one(Game, game_id)
        phase = phases.current(game)
        known = dict(games.runtime_state(game).get("vote_items", {}))
        for item in count.queued:
            key = f"{item.get('post')}:{item.get('voter')}:{item.get('raw')}"
            if key in known or phase is None:
                continue
            row = _vote_item(session, game, phase, item)
            known[key] = row.id
            added += 1
        games.set_runtime_state(game, vote_items=known)
    return added


def _vote_item(session: Session, game: Game, phase: Phase, item: Any) -> ReviewItem:
    post = session.scalar(
        select(RawPost).where(RawPost.forum_id == game.forum_id,
                              RawPost.post_id == str(item.get("post")))
        .order_by(RawPost.revision.desc()).limit(1)
    )  # fmt: skip
    voter = next((p for p in game.players if p.display_name == item.get("voter")), None)
    edited = "edit" in str(item.get("kind", ""))
    row = ReviewItem(game_id=game.id, phase_id=phase.id,
                     kind=ReviewKind.EDIT if edited else ReviewKind.VOTE,
                     raw_post_id=post.id if post else None,
                     player_id=voter.id if voter else None,
                     reason=f"{item.get('raw')!r}: {item.get('reason')}",
                     candidates=list(item.get("candidates") or ()))  # fmt: skip
    session.add(row)
    session.flush()
    return row


def corrections(session: Session, game: Game, phase: Phase) -> list[tuple[str, str, str, Any]]:
    """The GM's decisions on doubtful votes as counter corrections:
    (``correct``/``ignore``, post id, voter, meant target or None)."""
    items = session.scalars(
        select(ReviewItem).where(
            ReviewItem.phase_id == phase.id,
            ReviewItem.kind.in_((ReviewKind.VOTE, ReviewKind.EDIT)),
            ReviewItem.state != ReviewState.OPEN,
            ReviewItem.raw_post_id.is_not(None),
        )
    ).all()
    names = {p.id: p.display_name for p in game.players}
    out: list[tuple[str, str, str, Any]] = []
    for item in items:
        post = session.get_one(RawPost, item.raw_post_id)
        voter = names.get(item.player_id or 0, post.author_name)
        if item.state is ReviewState.REJECTED:
            out.append(("ignore", post.post_id, voter, None))
            continue
        vote = session.scalar(
            select(VoteEvent).where(VoteEvent.reason.like(f"% review item {item.id}%"))
        )
        target = names.get(vote.target_id) if vote and vote.target_id else None
        if vote is None or (vote.kind is VoteKind.VOTE and target is None):
            continue
        out.append(("correct", post.post_id, voter, target))
    return out
