"""``PhpBBAdapter``: the thin HTTP side for phpBB 3.2 / 3.3 (login, topic, PMs, reply, send PM)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta, tzinfo
from typing import ClassVar

import requests

from forum_adapters.base import (
    PMId,
    PMRef,
    Post,
    PostId,
    PostRef,
    PrivateMessage,
    SubmitHook,
    ThreadRef,
)
from forum_adapters.core import AdapterCore, Submission, WriteSteps
from forum_adapters.errors import (
    ActionRefused,
    Banned,
    CaptchaRequired,
    LayoutChanged,
    LoginFailed,
    NotFound,
    PendingApproval,
    ReplyRefusedNewerPost,
)
from forum_adapters.http import server_time
from forum_adapters.markup import Form, HtmlElement, parse_html
from forum_adapters.pages import InboxPage
from forum_adapters.phpbb import parse
from forum_adapters.phpbb.urls import URLS

FORM_MIN_AGE = 2.1  # phpBB refuses a form posted in the second it was made (QUIRKS.md)
_NEW_POST_ID = re.compile(r"[?&]p=(\d+)")
_TOO_MANY = re.compile(r"maximum number of (?:allowed )?login attempts|confirmation code", re.I)
_PM_WINDOW = timedelta(minutes=2)
_HELD_IN_TOPIC = "the topic shows the reply to the bot only, marked as not yet approved"
FORM_LIFETIME = 7200  # phpBB's stock form_token_lifetime, seconds


class PhpBBAdapter(AdapterCore):
    """phpBB 3.2 / 3.3 adapter (prosilver-based styles; see ``fixtures/phpbb33/QUIRKS.md``).

    phpBB marks a PM read when it is opened, and offers no "mark unread": the bot opens only
    PMs newer than the last one it read, so a GM sharing the account sees those as read.
    """

    engine: ClassVar[str] = "phpbb"
    default_post_interval: ClassVar[float] = 16.0  # flood_interval 15 s, posts and PMs alike

    def url(self, name: str, **values: object) -> str:
        """Build one of ``URLS`` for this board."""
        return URLS[name].format(base=self.base_url, **values)

    # -- session ---------------------------------------------------------------------------
    def login(self) -> None:
        """Log in with "remember me" (the autologin cookie outlives the session).

        Raises:
            LoginFailed: wrong user name or password.
            CaptchaRequired: phpBB demands a CAPTCHA (after 3 failed logins).
            Banned: the account or IP is banned.
        """
        for _ in range(2):
            root, response = self.fetch(self.url("login"), what="log in", need_login=False)
            if parse.is_logged_in(root):
                self._remember_user(root)
                return
            if parse.has_captcha(root):
                raise CaptchaRequired(self.username, "login form, after failed logins")
            form = parse.login_form(root, self.base_url)
            if form is None:
                raise LayoutChanged(response.url, "the login form (form#login)")
            loaded = self.http.clock()
            fields = form.with_values(
                username=self.username, password=self.password(), autologin="on"
            )
            fields.append(("login", form.submits.get("login", "Login")))
            self._wait_form_age(loaded)
            answer = self.http.post(form.action, fields)
            page = parse_html(answer.content)
            if parse.is_logged_in(page):
                self._remember_user(page)
                self.landed(page, answer)
                self.save_cookies()
                return
            message = parse.error_message(page) or parse.info_message(page) or ""
            if _token_refused(answer, fields):
                continue  # submitted in the second the form was made: a fresh form, once
            self._login_refused(page, message)
        raise LoginFailed(self.username, "the board kept refusing the login form")

    def _login_refused(self, page: HtmlElement, message: str) -> None:
        if parse.has_captcha(page) or _TOO_MANY.search(message):
            raise CaptchaRequired(self.username, "after failed logins")
        if re.search(r"\bbanned\b", message, re.I):
            raise Banned("log in", message)
        raise LoginFailed(self.username, message or "the board did not log us in")

    def _remember_user(self, root: HtmlElement) -> None:
        for href in root.xpath("//a[contains(@href,'mode=viewprofile')][@title]/@href"):
            match = re.search(r"[?&]u=(\d+)", href)
            if match:
                self.user_id = int(match.group(1))
                return

    def _wait_form_age(self, loaded: float) -> None:
        left = loaded + FORM_MIN_AGE - self.http.clock()
        if left > 0:
            self.http.sleep(left)

    def _is_logged_in(self, root: HtmlElement) -> bool:
        return parse.is_logged_in(root)

    def _zone_shown(self, root: HtmlElement, response: requests.Response) -> tzinfo | None:
        return parse.board_zone(root)  # phpBB names the member's zone in every page's footer

    def _error_text(self, root: HtmlElement) -> str | None:
        return parse.info_message(root) or parse.error_message(root)

    def _is_error_page(self, root: HtmlElement) -> bool:
        return parse.info_message(root) is not None

    # -- reading ---------------------------------------------------------------------------
    def topic_page(self, url: str, topic_id: int) -> parse.TopicPage:
        """Fetch and parse one topic page (logging in once if needed)."""
        root, response = self.fetch(url, what=f"read topic {topic_id}")
        return self.read_page(parse.parse_topic_page, root, response)

    def iter_posts(self, thread: ThreadRef, *, after: PostId | None = None) -> Iterator[Post]:
        """Yield posts newer than ``after``, starting on the page that holds ``after``
        (``viewtopic.php?p=N``): an idle poll costs one request, N new pages cost N. A page
        of another topic (post ids are board-wide) is never read as this one's."""
        topic = thread.topic_id
        first_url = self.url("topic", topic=topic)
        url = first_url if after is None else self.url("topic_at", post=after)
        try:
            page = self.topic_page(url, topic)
        except NotFound:
            if after is None:
                raise
            page = self.topic_page(first_url, topic)  # that post was deleted: start over
        if page.topic_id != topic:
            # Post ids are board-wide: ``after`` was another topic's post (or moved there).
            if url == first_url:
                raise LayoutChanged(url, f"topic {topic}'s page (it shows topic {page.topic_id})")
            page = self.topic_page(first_url, topic)
        mark = after or 0  # high-water mark: never yield a post twice, even if pages shift
        visited = {url}
        while True:
            for post in page.posts:
                if post.post_id > mark:
                    mark = post.post_id
                    self.remember_seen(topic, post.post_id)
                    yield post
            if not page.next_url:
                return
            if page.next_url in visited:
                raise LayoutChanged(page.next_url, "a page index that moves on (it points back)")
            visited.add(page.next_url)
            page = self.topic_page(page.next_url, topic)

    def iter_pms(self, *, after: PMId | None = None) -> Iterator[PrivateMessage]:
        """Yield inbox PMs newer than ``after``, oldest first; one list request when idle,
        plus one request per new PM (opening it marks it read: phpBB has no way around it)."""
        fresh = []
        url: str | None = self.url("inbox")
        while url:
            root, response = self.fetch(url, what="read the PM inbox")
            page = self.read_page(parse.parse_pm_list, root, response)
            new_rows = [row for row in page.rows if after is None or row.pm_id > after]
            fresh.extend(new_rows)
            url = page.next_url if page.rows and len(new_rows) == len(page.rows) else None
        for row in sorted(fresh, key=lambda r: r.pm_id):
            root, response = self.fetch(row.view_url, what=f"read PM {row.pm_id}")
            yield parse.parse_pm_view(
                root,
                response.url,
                now=self.now(response),
                tz=self.tz,
                order=self.date_order,
                was_unread=row.unread,
            )

    def inbox_page(self) -> InboxPage:
        """The newest inbox page (the list only; no PM is opened): one request."""
        root, response = self.fetch(self.url("inbox"), what="read the PM inbox")
        return self.read_page(parse.parse_pm_list, root, response)

    # -- writing ---------------------------------------------------------------------------
    def reply(
        self,
        thread: ThreadRef,
        body: str,
        *,
        last_seen: PostId | None = None,
        on_submit: SubmitHook | None = None,
    ) -> PostRef:
        """Post ``body`` (BBCode) in the topic; return the post phpBB redirected to.

        Args:
            thread: the topic.
            body: the message, BBCode.
            last_seen: the newest post the caller has read (default: the newest this adapter
                yielded). If the topic has newer posts, nothing is posted.
            on_submit: called right before each POST that could write.

        Raises:
            ReplyRefusedNewerPost: the topic has posts newer than ``last_seen``.
            PendingApproval: phpBB holds the reply for a moderator's approval (its message
                page, or the topic showing it marked "unapproved"); never send it again.
            FloodControl: still refused after waiting the flood interval.
            ActionRefused: any other refusal, with the board's words.
        """
        topic = thread.topic_id
        known = self._last_seen.get(topic)
        seen: list[PostId | None] = [last_seen or (PostId(known) if known else None)]
        action = f"reply to topic {topic}"

        def prepare() -> Submission:
            form = self._load_form(self.url("reply_form", topic=topic), action)
            current = PostId(int(form.get("topic_cur_post_id") or 0)) or None
            if seen[0] is None:
                seen[0] = current
            elif current is not None and current > seen[0]:
                raise ReplyRefusedNewerPost(action, seen[0], current)
            fields = form.with_values(message=body, post=form.submits.get("post", "Submit"))
            return Submission(form.action, fields, seen=seen[0])

        refusals: list[str] = []

        def outcome(answer: requests.Response, sub: Submission) -> PostRef | float:
            return self._reply_outcome(answer, sub, topic, action, refusals)

        def find(sub: Submission) -> PostRef | None:
            return self.find_post(thread, body, after=sub.seen)

        ref = self.write(WriteSteps(action, prepare, outcome, find), on_submit)
        if ref.awaiting_approval:  # found after an answer that never came
            raise PendingApproval(action, _HELD_IN_TOPIC, ref.post_id)
        return ref

    def _load_form(self, url: str, action: str) -> Form:
        root, response = self.fetch(url, what=action)
        loaded = self.http.clock()  # after the fetch: it may have logged in and loaded again
        if self.user_id is None:
            self._remember_user(root)
        form = parse.post_form(root, self.base_url)
        if form is None:
            raise LayoutChanged(response.url, "the posting form (form#postform)")
        if parse.has_captcha(root):
            raise CaptchaRequired(self.username, f"the form to {action}")
        self._wait_form_age(loaded)
        return form

    def _reply_outcome(
        self,
        answer: requests.Response,
        sub: Submission,
        topic: int,
        action: str,
        refusals: list[str],
    ) -> PostRef | float:
        """The confirmed post, or seconds to wait before trying again; raises on refusals.

        Read by structure, in any language: a redirect to the new post is success; a
        message page that refreshes to the topic holds it for a moderator; the form sent
        back with a newer ``topic_cur_post_id`` means new posts; with an error box, a
        passing refusal (see ``_form_refused``)."""
        for hop in [*answer.history, answer]:
            match = _NEW_POST_ID.search(hop.headers.get("Location", "") or "")
            if match and hop.status_code in (301, 302, 303):
                return self._confirm_post(answer, topic, PostId(int(match.group(1))), action)
        page = parse_html(answer.content)
        if parse.held_for_approval(page, topic):
            raise PendingApproval(action, parse.info_message(page) or "")
        if not parse.is_logged_in(page):
            return 0.0  # the session ended meanwhile: the next form load logs in again
        message = parse.error_message(page) or ""
        form = parse.post_form(page, self.base_url)
        if form is not None and not message:
            newest = form.get("topic_cur_post_id")
            if newest and sub.seen is not None and int(newest) > sub.seen:
                raise ReplyRefusedNewerPost(action, sub.seen, int(newest))
        if form is not None and message:
            return self._form_refused(answer, sub, (action, message), refusals)
        self.check_page(answer, page, action)
        raise ActionRefused(action, message or parse.info_message(page) or "no post was made")

    def _form_refused(
        self,
        answer: requests.Response,
        sub: Submission,
        refusal: tuple[str, str],
        refusals: list[str],
    ) -> float:
        """Seconds to wait after phpBB sent the form back with an error box; nothing was
        written. phpBB's box names no cause in its markup, so: a form submitted in the second
        it was made (or past its lifetime, by the form's own ``creation_time`` against the
        server's clock) failed its token; any other refusal is taken for flood control and
        waited out (all of the board's interval, then twice that), and the same refusal a
        third time is the board's answer, raised with its words.

        Raises:
            ActionRefused: the third refusal of this post or PM.
        """
        if _token_refused(answer, sub.fields):
            return FORM_MIN_AGE
        action, message = refusal
        refusals.append(message)
        if len(refusals) >= 3:
            raise ActionRefused(action, message)
        return self.flood_wait() * len(refusals)

    def _confirm_post(
        self, answer: requests.Response, topic: int, post_id: PostId, action: str
    ) -> PostRef:
        page = parse_html(answer.content)
        if not page.xpath(f"//div[@id='p{post_id}']"):
            root, answer = self.fetch(self.url("topic_at", post=post_id), what=action)
            page = root
            if not page.xpath(f"//div[@id='p{post_id}']"):
                raise ActionRefused(action, f"post {post_id} is not in the topic after posting")
        self.remember_seen(topic, post_id)
        return PostRef(topic, post_id, f"{self.url('topic_at', post=post_id)}#p{post_id}")

    def find_post(
        self, thread: ThreadRef, body: str, *, after: PostId | None = None
    ) -> PostRef | None:
        """The bot's own post with this text after ``after`` (by member id), if it is there.

        Not found in order, the topic's newest posts are read once more, newest first: phpBB
        pages a topic by its approved posts only, so the bot's own posts held for approval
        (shown to it alone) past the last full page are on no page; newest first, they lead.
        """
        self.know_myself()
        topic = thread.topic_id
        posts = list(self.iter_posts(thread, after=after))
        post = self.own_post(posts, body, after)
        if post is None:
            post = self._own_held_post(topic, body, after)
        if post is None:
            return None
        url = f"{self.url('topic_at', post=post.post_id)}#p{post.post_id}"
        return PostRef(topic, post.post_id, url, awaiting_approval=post.awaiting_approval)

    def _own_held_post(self, topic: int, body: str, after: PostId | None) -> Post | None:
        """The bot's post with this text, held for approval, on the topic's newest-first page."""
        page = self.topic_page(self.url("topic_newest_first", topic=topic), topic)
        if page.topic_id != topic:
            return None
        held = [post for post in page.posts if post.awaiting_approval]
        return self.own_post(sorted(held, key=lambda post: post.post_id), body, after)

    def send_pm(
        self, to: Sequence[str], subject: str, body: str, *, on_submit: SubmitHook | None = None
    ) -> PMRef:
        """Send one PM to every name in ``to`` (added through phpBB's own "Add" button, so
        phpBB resolves the names), and return its id from phpBB's confirmation page.

        Raises:
            CaptchaRequired: the PM form asks for a CAPTCHA.
            FloodControl: still refused after waiting the flood interval.
            ActionRefused: an unknown recipient or another refusal, with the board's words.
        """
        action = f"send a PM to {', '.join(to)}"

        def prepare() -> Submission:
            form, server_now = self._pm_form_with_recipients(to, action)
            fields = form.with_values(
                subject=subject, message=body, post=form.submits.get("post", "Submit")
            )
            return Submission(form.action, fields, since=server_now - _PM_WINDOW)

        refusals: list[str] = []

        def outcome(answer: requests.Response, sub: Submission) -> PMRef | float:
            return self._pm_outcome(answer, sub, (to, subject, action), refusals)

        def find(sub: Submission) -> PMRef | None:
            return self.find_sent_pm(to, subject, body, since=sub.since)

        return self.write(WriteSteps(action, prepare, outcome, find), on_submit)

    def _pm_outcome(
        self,
        answer: requests.Response,
        sub: Submission,
        pm: tuple[Sequence[str], str, str],
        refusals: list[str],
    ) -> PMRef | float:
        """The confirmed PM, or seconds to wait before trying again; raises on refusals."""
        to, subject, action = pm
        page = parse_html(answer.content)
        pm_id = parse.sent_pm_id(page)
        if pm_id is not None:
            return PMRef(PMId(pm_id), tuple(to), subject)
        message = parse.error_message(page) or ""
        if not parse.is_logged_in(page):
            return 0.0  # the session ended meanwhile: the next form load logs in again
        if message and parse.post_form(page, self.base_url) is not None:
            return self._form_refused(answer, sub, (action, message), refusals)
        self.check_page(answer, page, action)
        raise ActionRefused(action, message or parse.info_message(page) or "no PM was sent")

    def _pm_form_with_recipients(self, to: Sequence[str], action: str) -> tuple[Form, datetime]:
        form = self._load_form(self.url("compose"), action)
        fields = form.with_values(username_list="\n".join(to), add_to=form.submits["add_to"])
        answer = self.http.post(form.action, fields)
        page = parse_html(answer.content)
        loaded = self.http.clock()
        filled = parse.post_form(page, self.base_url)
        message = parse.error_message(page)
        if filled is None or message:
            self.check_page(answer, page, action)
            raise ActionRefused(action, message or "the board did not take the recipients")
        added = [name for name, value in filled.fields if name.startswith("address_list[u]")]
        if len(added) < len(to):
            raise ActionRefused(action, f"only {len(added)} of {len(to)} recipients were found")
        self._wait_form_age(loaded)
        return filled, self.now(answer)

    def find_sent_pm(
        self, to: Sequence[str], subject: str, body: str, *, since: datetime | None = None
    ) -> PMRef | None:
        """A PM to these people with this subject, sent since ``since``, in outbox or sent
        (phpBB lists only subjects there; the body is not compared)."""
        wanted = {name.casefold() for name in to}
        for folder in ("outbox", "sentbox"):
            root, response = self.fetch(self.url(folder), what="read sent PMs")
            page = self.read_page(parse.parse_pm_list, root, response)
            for row in page.rows:
                recent = since is None or row.sent_at is None or row.sent_at >= since
                if row.subject == subject and recent and row.sender.name.casefold() in wanted:
                    return PMRef(row.pm_id, tuple(to), subject)
        return None


def _token_refused(answer: requests.Response, fields: Sequence[tuple[str, str]]) -> bool:
    """Whether phpBB must have refused the form's token: submitted in the second it was made
    or after its lifetime, by the form's ``creation_time`` against the server's clock."""
    created = dict(fields).get("creation_time", "")
    if not created.isdigit():
        return False
    age = server_time(answer).timestamp() - int(created)
    return age < 1 or age > FORM_LIFETIME
