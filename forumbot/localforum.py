"""A forum in a folder: a file-backed adapter for the demo and the tests (no network).

``LocalForum`` implements the adapter Protocol of ``forum_adapters.base`` over a JSON file
(``state.json``): a topic's posts, the bot's inbox, and the bot's sent PMs. Replies and PMs
the bot sends are appended to the file, so the forum is stateful across runs. A recorded SMF
2.1 topic and inbox (real pages) are imported with ``import_smf_pages``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from forum_adapters.base import (
    PMId,
    PMRef,
    Post,
    PostId,
    PostRef,
    PrivateMessage,
    SubmitHook,
    ThreadRef,
    UserId,
    UserRef,
)
from forum_adapters.errors import ReplyRefusedNewerPost
from forum_adapters.markup import fingerprint, html_fingerprint, parse_html
from forum_adapters.smf import parse as smf_parse
from forumbot.clock import Clock, SystemClock

STATE_FILE = "state.json"


@dataclass
class ForumState:
    """Everything the local forum holds (JSON-friendly)."""

    topic_id: int = 1
    title: str = ""
    posts: list[dict[str, Any]] = field(default_factory=list)
    inbox: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def next_post_id(self) -> int:
        """The id the next post gets."""
        return max((int(p["post_id"]) for p in self.posts), default=0) + 1

    def next_pm_id(self) -> int:
        """The id the next PM gets (inbox and sent share one counter, as on SMF)."""
        ids = [int(p["pm_id"]) for p in self.inbox + self.sent]
        return max(ids, default=0) + 1


class LocalForum:
    """The file-backed adapter. ``requests`` counts calls, as a real forum would count pages."""

    engine: ClassVar[str] = "file"

    def __init__(self, root: str | Path, username: str, *, clock: Clock | None = None) -> None:
        self.root = Path(root)
        self.username = username
        self.clock = clock or SystemClock()
        self.requests = 0
        self.state = load_state(self.root)

    # --- the adapter Protocol --------------------------------------------------------------

    def iter_posts(self, thread: ThreadRef, *, after: PostId | None = None) -> Iterator[Post]:
        """The topic's posts newer than ``after``, oldest first (one 'request')."""
        self.requests += 1
        self.reload()
        for raw in sorted(self.state.posts, key=lambda p: int(p["post_id"])):
            if after is None or int(raw["post_id"]) > int(after):
                yield _post(raw, self.state.topic_id)

    def iter_pms(self, *, after: PMId | None = None) -> Iterator[PrivateMessage]:
        """Inbox PMs newer than ``after``, oldest first (one 'request')."""
        self.requests += 1
        self.reload()
        for raw in sorted(self.state.inbox, key=lambda p: int(p["pm_id"])):
            if after is None or int(raw["pm_id"]) > int(after):
                yield _pm(raw)

    def reply(
        self,
        thread: ThreadRef,
        body: str,
        *,
        last_seen: PostId | None = None,
        on_submit: SubmitHook | None = None,
    ) -> PostRef:
        """Append the bot's reply to the topic and return where it landed (refused, as on a
        real forum, when the topic has posts newer than ``last_seen``)."""
        self.requests += 1
        self.reload()
        newest = self.state.next_post_id() - 1
        if last_seen is not None and newest > int(last_seen):
            raise ReplyRefusedNewerPost(f"reply to topic {thread.topic_id}", last_seen, newest)
        if on_submit is not None:
            on_submit()
        post = self.add_post(self.username, body, self.clock.now())
        return PostRef(self.state.topic_id, PostId(post["post_id"]), f"local:msg{post['post_id']}")

    def send_pm(
        self, to: Sequence[str], subject: str, body: str, *, on_submit: SubmitHook | None = None
    ) -> PMRef:
        """Record a PM from the bot in its sent box."""
        self.requests += 1
        self.reload()
        if on_submit is not None:
            on_submit()
        pm_id = self.state.next_pm_id()
        self.state.sent.append(
            {
                "pm_id": pm_id,
                "to": list(to),
                "subject": subject,
                "body": body,
                "sent_at": self.clock.now().isoformat(),
            }
        )
        self.save()
        return PMRef(PMId(pm_id), tuple(to), subject)

    def find_post(
        self, thread: ThreadRef, body: str, *, after: PostId | None = None
    ) -> PostRef | None:
        """The bot's own reply with this text after ``after``, if the topic holds it."""
        wanted = fingerprint(body)
        for post in self.iter_posts(thread, after=after):
            if post.author.name == self.username and wanted in html_fingerprint(post.body_html):
                return PostRef(post.topic_id, post.post_id, f"local:msg{post.post_id}")
        return None

    def find_sent_pm(
        self, to: Sequence[str], subject: str, body: str, *, since: datetime | None = None
    ) -> PMRef | None:
        """The bot's sent PM with these recipients, subject and text, if it is there."""
        self.requests += 1
        self.reload()
        for raw in reversed(self.state.sent):
            same = raw["to"] == list(to) and raw["subject"] == subject and raw["body"] == body
            if same and (since is None or datetime.fromisoformat(raw["sent_at"]) >= since):
                return PMRef(PMId(raw["pm_id"]), tuple(to), subject)
        return None

    # --- beyond the Protocol: the sent box and scripted players -----------------------------

    def sent_bodies(self) -> list[dict[str, Any]]:
        """The sent box with bodies (tests and the demo show them)."""
        return list(self.state.sent)

    def add_post(self, author: str, body_html: str, at: datetime) -> dict[str, Any]:
        """A member posts in the topic."""
        self.reload()
        post = {"post_id": self.state.next_post_id(), "author": author, "author_id": None,
                "posted_at": at.astimezone(UTC).isoformat(), "body_html": body_html}  # fmt: skip
        self.state.posts.append(post)
        self.save()
        return post

    def edit_post(self, post_id: int, body_html: str, at: datetime) -> None:
        """A member edits one of their posts."""
        self.reload()
        for post in self.state.posts:
            if int(post["post_id"]) == post_id:
                post["body_html"], post["edited_at"] = body_html, at.astimezone(UTC).isoformat()
        self.save()

    def add_pm(self, sender: str, subject: str, body_html: str, at: datetime) -> dict[str, Any]:
        """A member sends the bot a PM."""
        self.reload()
        pm = {"pm_id": self.state.next_pm_id(), "sender": sender, "sender_id": None,
              "recipients": [self.username], "subject": subject, "body_html": body_html,
              "sent_at": at.astimezone(UTC).isoformat()}  # fmt: skip
        self.state.inbox.append(pm)
        self.save()
        return pm

    def reload(self) -> None:
        """Read the folder again: other processes (players, tests) may have written to it."""
        self.state = load_state(self.root)

    def save(self) -> None:
        """Write the forum back to its folder."""
        save_state(self.root, self.state)


def load_state(root: Path) -> ForumState:
    """Read ``state.json`` (an empty forum when there is none)."""
    path = root / STATE_FILE
    if not path.exists():
        return ForumState()
    data = json.loads(path.read_text(encoding="utf-8"))
    return ForumState(**data)


def save_state(root: Path, state: ForumState) -> None:
    """Write ``state.json`` atomically."""
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / (STATE_FILE + ".tmp")
    data = {"topic_id": state.topic_id, "title": state.title, "posts": state.posts,
            "inbox": state.inbox, "sent": state.sent}  # fmt: skip
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(root / STATE_FILE)


def _post(raw: dict[str, Any], topic_id: int) -> Post:
    author_id = raw.get("author_id")
    return Post(
        post_id=PostId(int(raw["post_id"])),
        topic_id=topic_id,
        author=UserRef(UserId(int(author_id)) if author_id else None, raw["author"]),
        posted_at=datetime.fromisoformat(raw["posted_at"]),
        body_html=raw["body_html"],
        page=int(raw.get("page", 1)),
        edited_at=datetime.fromisoformat(raw["edited_at"]) if raw.get("edited_at") else None,
    )


def _pm(raw: dict[str, Any]) -> PrivateMessage:
    sender_id = raw.get("sender_id")
    return PrivateMessage(
        pm_id=PMId(int(raw["pm_id"])),
        sender=UserRef(UserId(int(sender_id)) if sender_id else None, raw["sender"]),
        recipients=tuple(UserRef(None, name) for name in raw.get("recipients", ())),
        sent_at=datetime.fromisoformat(raw["sent_at"]),
        subject=raw.get("subject", ""),
        body_html=raw["body_html"],
    )


# --- importing a recorded SMF topic and inbox ---------------------------------------------


def import_smf_pages(
    topic_pages: Sequence[Path],
    inbox_pages: Sequence[Path],
    *,
    captured: datetime,
    base_url: str,
    bot: str,
) -> ForumState:
    """Read recorded SMF topic pages and "all at once" inbox pages with the SMF adapter's
    own page parsers, into a forum state. ``captured`` is the server clock ("Today")."""
    state = ForumState()
    for path in topic_pages:
        root = parse_html(path.read_bytes())
        page = smf_parse.parse_topic_page(
            root, f"{base_url}?topic=0.0", now=captured, tz=UTC, base_url=base_url
        )
        state.topic_id, state.title = page.topic_id, state.title or page.title
        state.posts.extend(_post_record(post) for post in page.posts)
    for path in inbox_pages:
        root = parse_html(path.read_bytes())
        inbox = smf_parse.parse_inbox_page(
            root, f"{base_url}?action=pm", now=captured, tz=UTC, base_url=base_url
        )
        for pm in sorted(inbox.messages.values(), key=lambda m: m.pm_id):
            state.inbox.append(_pm_record(pm, bot))
    return state


def _post_record(post: Post) -> dict[str, Any]:
    return {"post_id": int(post.post_id), "author": post.author.name,
            "author_id": post.author.id, "posted_at": post.posted_at.isoformat(),
            "body_html": post.body_html, "page": post.page,
            "edited_at": post.edited_at.isoformat() if post.edited_at else None}  # fmt: skip


def _pm_record(pm: PrivateMessage, bot: str) -> dict[str, Any]:
    recipients = [r.name for r in pm.recipients] or [bot]
    return {"pm_id": int(pm.pm_id), "sender": pm.sender.name, "sender_id": pm.sender.id,
            "recipients": recipients, "subject": pm.subject, "body_html": pm.body_html,
            "sent_at": pm.sent_at.isoformat()}  # fmt: skip
