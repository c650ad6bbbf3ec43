"""``SMFAdapter``: the thin HTTP side for SMF 2.0 and 2.1 (login, topic, PMs, reply, send PM)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
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
    NotPermitted,
    PendingApproval,
    PMLimitReached,
    ReplyRefusedNewerPost,
)
from forum_adapters.markup import Form, HtmlElement, fingerprint, html_fingerprint, parse_html
from forum_adapters.pages import InboxPage
from forum_adapters.smf import parse
from forum_adapters.smf.urls import URLS

_MEMBER = re.compile(r"[;&?]member=(\d+)|smf_member_id\s*=\s*(\d+)")
_PASSWORD = re.compile(r"password|user ?name|does not exist|not activated|incorrect", re.I)
_PM_WINDOW = timedelta(minutes=2)  # shown times may drop the seconds


class SMFAdapter(AdapterCore):
    """SMF 2.0.x / 2.1.x adapter (see ``fixtures/smf20/QUIRKS.md``, ``fixtures/smf21/QUIRKS.md``).

    Reading the inbox uses the member's display mode; in SMF's stock "all at once" mode,
    opening any inbox page marks the whole inbox read: the engine offers no way to read a PM
    and leave it unread, so a GM running the bot on their own account loses the "new" marks.
    """

    engine: ClassVar[str] = "smf"
    default_post_interval: ClassVar[float] = 6.0  # spamWaitTime 5 s, compared in whole seconds

    def url(self, name: str, **values: object) -> str:
        """Build one of ``URLS`` for this forum."""
        return URLS[name].format(base=self.base_url, **values)

    # -- session ---------------------------------------------------------------------------
    def login(self) -> None:
        """Log in with the bot's account (plain password; both versions accept it).

        Raises:
            LoginFailed: wrong user name or password, or too many failures.
            CaptchaRequired: the login form asks for visual verification.
            Banned: the account is banned.
        """
        for _ in range(2):
            root, response = self.fetch(self.url("login"), what="log in", need_login=False)
            if parse.is_logged_in(root):
                self._remember_member(response, root)
                return
            if parse.has_captcha(root):
                raise CaptchaRequired(self.username, "login form")
            form = parse.login_form(root, self.base_url)
            if form is None:
                raise LayoutChanged(response.url, "the login form (form#frmLogin)")
            fields = form.with_values(
                user=self.username,
                passwrd=self.password(),
                hash_passwrd="",
                cookielength="3153600",
                cookieneverexp="on",
            )
            answer = self.http.post(form.action, fields)
            page = parse_html(answer.content)
            if parse.is_logged_in(page):
                self._remember_member(answer, page)
                self.landed(page, answer)
                self.save_cookies()
                return
            message = parse.error_message(page) or ""
            if page.xpath("//*[@id='fatal_error']"):
                # Login flood control names its seconds; a failed session check names none.
                # Neither judged the password: a fresh form (new session token), once more.
                self.http.sleep(self.flood_wait(parse.fatal_number(page) or 0))
                continue
            self._login_refused(answer, page, message)
        raise LoginFailed(self.username, "the forum kept refusing the login form")

    def _login_refused(self, answer: requests.Response, page: HtmlElement, message: str) -> None:
        if parse.has_captcha(page):
            raise CaptchaRequired(self.username, "after failed logins")
        if "action=reminder" in answer.url:
            raise LoginFailed(self.username, "too many failed logins (SMF sent us to the reminder)")
        if message and re.search(r"\bbanned\b", message, re.I):
            raise Banned("log in", message)
        if message and _PASSWORD.search(message):
            raise LoginFailed(self.username, message)
        raise LoginFailed(self.username, message or "the forum did not log us in")

    def _remember_member(self, response: requests.Response, root: HtmlElement) -> None:
        """Learn the bot's member id (2.1 head script, login redirect) and display name
        (2.1 profile menu, 2.0 greeting): posts show the display name, not the login name."""
        shown = root.xpath(
            "//*[@id='profile_menu_top']//*[contains(@class,'textmenu')]/text()"
            " | //li[contains(@class,'greeting')]/span/text()"
        )
        if shown and shown[0].strip():
            self.display_name = shown[0].strip()
        sources = [r.headers.get("Location", "") for r in response.history] + [response.url]
        sources += root.xpath("//script[not(@src)]/text()")
        for text in sources:
            match = _MEMBER.search(text or "")
            if match:
                self.user_id = int(match.group(1) or match.group(2))
                return

    def _is_logged_in(self, root: HtmlElement) -> bool:
        return parse.is_logged_in(root)

    def _error_text(self, root: HtmlElement) -> str | None:
        return parse.error_message(root)

    def _zone_shown(self, root: HtmlElement, response: requests.Response) -> tzinfo | None:
        return parse.shown_offset(root, self.now(response), self.date_order)

    def _is_error_page(self, root: HtmlElement) -> bool:
        return bool(root.xpath("//*[@id='fatal_error']"))

    # -- reading ---------------------------------------------------------------------------
    def topic_page(self, url: str, topic_id: int) -> parse.TopicPage:
        """Fetch and parse one topic page (logging in once if needed)."""
        root, response = self.fetch(url, what=f"read topic {topic_id}")
        return self.read_page(parse.parse_topic_page, root, response)

    def iter_posts(self, thread: ThreadRef, *, after: PostId | None = None) -> Iterator[Post]:
        """Yield posts newer than ``after``, starting on the page that holds ``after``.

        An idle poll (nothing new) costs one request; reading N new pages costs N.
        """
        topic = thread.topic_id
        if after is None:
            url: str | None = self.url("topic", topic=topic, start=0)
        else:
            url = self.url("topic_at", topic=topic, msg=after)
        mark = after or 0  # high-water mark: never yield a post twice, even if pages shift
        visited: set[str] = set()
        while url:
            visited.add(url)
            try:
                page = self.topic_page(url, topic)
            except NotFound:
                if after is None or url == self.url("topic", topic=topic, start=0):
                    raise
                url = self.url("topic", topic=topic, start=0)  # that post was deleted
                continue
            for post in page.posts:
                if post.post_id > mark:
                    mark = post.post_id
                    self.remember_seen(topic, post.post_id)
                    yield post
            url = page.next_url
            if url in visited:
                raise LayoutChanged(url or "", "a page index that moves on (it points back)")

    def iter_pms(self, *, after: PMId | None = None) -> Iterator[PrivateMessage]:
        """Yield inbox PMs newer than ``after``, oldest first (newest-first pages, so an
        idle poll costs one request)."""
        found: list[PrivateMessage] = []
        url: str | None = self.url("inbox")
        while url:
            root, response = self.fetch(url, what="read the PM inbox")
            page = self.read_page(parse.parse_inbox_page, root, response)
            fresh = [row for row in page.rows if after is None or row.pm_id > after]
            for row in fresh:
                pm = page.messages.get(row.pm_id) or self._read_pm(row.view_url, row.pm_id)
                found.append(replace(pm, was_unread=row.unread))
            url = page.next_url if len(fresh) == len(page.rows) and page.rows else None
        yield from sorted(found, key=lambda pm: pm.pm_id)

    def inbox_page(self) -> InboxPage:
        """The newest inbox page (list and, in "all at once" mode, bodies): one request."""
        root, response = self.fetch(self.url("inbox"), what="read the PM inbox")
        return self.read_page(parse.parse_inbox_page, root, response)

    def _read_pm(self, url: str, pm_id: PMId) -> PrivateMessage:
        root, response = self.fetch(url, what=f"read PM {pm_id}")
        page = self.read_page(parse.parse_inbox_page, root, response)
        if pm_id not in page.messages:
            raise LayoutChanged(response.url, f"the body of PM {pm_id}")
        return page.messages[pm_id]

    # -- writing ---------------------------------------------------------------------------
    def reply(
        self,
        thread: ThreadRef,
        body: str,
        *,
        last_seen: PostId | None = None,
        on_submit: SubmitHook | None = None,
    ) -> PostRef:
        """Post ``body`` (BBCode) in the topic and return the post, read back from the topic.

        Args:
            thread: the topic.
            body: the message, BBCode.
            last_seen: the newest post the caller has read (default: the newest this adapter
                yielded); SMF refuses the reply if someone posted after it.
            on_submit: called right before each POST that could write.

        Raises:
            ReplyRefusedNewerPost: someone posted after ``last_seen``; nothing was posted.
            PendingApproval: SMF holds the reply for a moderator's approval (the topic shows
                it to the bot only, marked; or the form said so and the topic does not show
                it); it is posted: never send it again.
            FloodControl: still too soon after waiting as the forum asked.
            ActionRefused: any other refusal, with the forum's words.
        """
        topic = thread.topic_id
        known = self._last_seen.get(topic)
        seen: list[PostId | None] = [last_seen or (PostId(known) if known else None)]
        action = f"reply to topic {topic}"

        def prepare() -> Submission:
            form_url = (
                self.url("reply_form_after", topic=topic, msg=seen[0])
                if seen[0]
                else self.url("reply_form", topic=topic)
            )
            root, response = self.fetch(form_url, what=action)
            if self.user_id is None:
                self._remember_member(response, root)
            form = parse.post_form(root, self.base_url)
            if form is None:
                raise LayoutChanged(form_url, "the reply form (form#postmodify)")
            newest = form.get("last_msg")  # the topic's newest post, whatever the URL said
            if seen[0] is None and newest:
                seen[0] = PostId(int(newest))
            elif _newer(newest, seen[0]):
                raise ReplyRefusedNewerPost(action, seen[0], int(newest or 0))
            last = {"last_msg": str(seen[0])} if seen[0] else {}  # SMF re-checks it on submit
            fields = form.with_values(message=body, goback="1", **last, **_submit(form))
            held = {"not_approved": "1"} if parse.form_needs_approval(form) else {}
            return Submission(form.action, fields, seen=seen[0], extra=held)

        def outcome(answer: requests.Response, sub: Submission) -> PostRef | float:
            return self._reply_outcome(answer, sub, topic, body, action)

        def find(sub: Submission) -> PostRef | None:
            return self.find_post(thread, body, after=sub.seen)

        ref = self.write(WriteSteps(action, prepare, outcome, find), on_submit)
        if ref.awaiting_approval:  # found after an answer that never came
            raise PendingApproval(action, _HELD_IN_TOPIC, ref.post_id)
        return ref

    def _reply_outcome(
        self, answer: requests.Response, sub: Submission, topic: int, body: str, action: str
    ) -> PostRef | float:
        """The confirmed post, or seconds to wait before trying again; raises on refusals.

        Refusals are told apart by the page's structure, in any language: a form sent back
        with a newer ``last_msg`` (new replies) or another session token (the session timed
        out), or a fatal error naming its seconds (flood control)."""
        seen = sub.seen
        page = parse_html(answer.content)
        mine = self._own_post_on(page, answer, body, seen)
        if mine is not None and mine.awaiting_approval:
            notice = parse.approval_notice(page, mine.post_id) or _HELD_IN_TOPIC
            raise PendingApproval(action, notice, mine.post_id)
        if mine is not None:
            return mine
        if not parse.is_logged_in(page):
            return 0.0  # the session ended meanwhile: the next form load logs in again
        message = parse.error_message(page) or ""
        returned = parse.post_form(page, self.base_url)
        if returned is not None and _newer(returned.get("last_msg"), seen):
            newest = returned.get("last_msg")
            raise ReplyRefusedNewerPost(action, seen, int(newest) if newest else None)
        refused = self._refused(page, sub)
        if refused is not None:
            return refused
        if message:
            self.check_page(answer, page, action)
            raise ActionRefused(action, message)
        if returned is not None and parse.has_captcha(page):
            raise CaptchaRequired(self.username, "reply form")
        return self._confirm_reply(topic, body, sub, action)

    def _confirm_reply(self, topic: int, body: str, sub: Submission, action: str) -> PostRef:
        """The reply read back from the topic. Held for approval when the topic shows it
        marked so, or when the form said it would be and the topic does not show it."""
        mine = self.find_post(ThreadRef(topic), body, after=sub.seen)
        if mine is not None and mine.awaiting_approval:
            raise PendingApproval(action, _HELD_IN_TOPIC, mine.post_id)
        if mine is None and sub.extra.get("not_approved"):
            raise PendingApproval(action, _HELD_BY_FORM)
        if mine is None:
            raise ActionRefused(
                action,
                "the forum answered, but the reply is not in the topic (held for a moderator's "
                "approval? check the topic before sending it again)",
            )
        return mine

    def _own_post_on(
        self, page: HtmlElement, answer: requests.Response, body: str, seen: PostId | None
    ) -> PostRef | None:
        try:
            topic_page = self.read_page(parse.parse_topic_page, page, answer)
        except LayoutChanged:
            return None
        return self._match_own(topic_page.posts, body, seen)

    def find_post(
        self, thread: ThreadRef, body: str, *, after: PostId | None = None
    ) -> PostRef | None:
        """Read the topic after ``after`` and return our post with this text, if it is there
        (matched on the member id: SMF shows the display name, not the login name)."""
        self.know_myself()
        posts = list(self.iter_posts(thread, after=after))
        return self._match_own(posts, body, after)

    def _match_own(self, posts: Sequence[Post], body: str, after: PostId | None) -> PostRef | None:
        post = self.own_post(posts, body, after)
        if post is None:
            return None
        # SMF accepted it against last_msg, so nothing before it is unseen.
        self.remember_seen(post.topic_id, post.post_id)
        url = self.url("topic_at", topic=post.topic_id, msg=post.post_id)
        return PostRef(post.topic_id, post.post_id, f"{url}#msg{post.post_id}",
                       awaiting_approval=post.awaiting_approval)  # fmt: skip

    def send_pm(
        self, to: Sequence[str], subject: str, body: str, *, on_submit: SubmitHook | None = None
    ) -> PMRef:
        """Send one PM to every name in ``to`` and confirm it in the sent items.

        Raises:
            CaptchaRequired: the PM form asks for verification (accounts with few posts).
            FloodControl: still too soon after waiting as the forum asked.
            ActionRefused: unknown recipient or any other refusal, with the forum's words.
        """
        action = f"send a PM to {', '.join(to)}"

        def prepare() -> Submission:
            try:
                root, response = self.fetch(self.url("pm_form"), what=action)
            except NotPermitted as exc:  # 2.1 refuses the form itself once the hour is full
                raise _pm_limit(action, exc.message) or exc from None
            form = parse.post_form(root, self.base_url)
            if form is None:
                raise LayoutChanged(self.url("pm_form"), "the PM form (form#postmodify)")
            if parse.has_captcha(root):
                raise CaptchaRequired(self.username, "PM form (accounts with few posts)")
            recipients = ", ".join(f'"{name}"' for name in to)
            fields = form.with_values(
                to=recipients, subject=subject, message=body, outbox="1", **_submit(form)
            )
            return Submission(form.action, fields, since=self.now(response) - _PM_WINDOW)

        def outcome(answer: requests.Response, sub: Submission) -> PMRef | float:
            return self._pm_outcome(answer, sub, (to, subject, body), action)

        def find(sub: Submission) -> PMRef | None:
            return self.find_sent_pm(to, subject, body, since=sub.since)

        return self.write(WriteSteps(action, prepare, outcome, find), on_submit)

    def _pm_outcome(
        self,
        answer: requests.Response,
        sub: Submission,
        pm: tuple[Sequence[str], str, str],
        action: str,
    ) -> PMRef | float:
        """The confirmed PM, or seconds to wait before trying again; raises on refusals.

        A fatal error naming a number after the submit is flood control (or the hour's limit
        reached meanwhile: the next form load then refuses, naming the limit)."""
        to, subject, body = pm
        page = parse_html(answer.content)
        if not parse.is_logged_in(page):
            return 0.0  # the session ended meanwhile: the next form load logs in again
        message = parse.error_message(page) or ""
        refused = self._refused(page, sub)
        if refused is not None:
            return refused
        if message and parse.post_form(page, self.base_url) is not None:
            raise ActionRefused(action, message)
        if message:
            self.check_page(answer, page, action)
            raise ActionRefused(action, message)
        # SMF confirms with a redirect to "done=sent" but names no id: the id comes from
        # the sent items (kept there by outbox=1 on 2.0, always on 2.1).
        confirmed = any("done=sent" in hop.url for hop in [*answer.history, answer])
        sent = self.find_sent_pm(to, subject, body, since=self.now(answer) - _PM_WINDOW)
        if sent is not None:
            return sent
        if confirmed:
            return PMRef(None, tuple(to), subject)
        raise ActionRefused(action, "the forum answered, but the PM is not in sent items")

    def _refused(self, page: HtmlElement, sub: Submission) -> float | None:
        """Seconds to wait before a fresh form when SMF refused the submit for a passing
        reason (flood control, a timed-out session), judged by structure; else None."""
        if parse.post_form(page, self.base_url) is not None and parse.session_changed(
            page, sub.fields
        ):
            return 1.0
        shown = parse.fatal_number(page)
        return self.flood_wait(shown) if shown is not None else None

    def find_sent_pm(
        self, to: Sequence[str], subject: str, body: str, *, since: datetime | None = None
    ) -> PMRef | None:
        """The newest sent PM to these members with this subject and text since ``since``."""
        root, response = self.fetch(self.url("sent"), what="read sent PMs")
        page = self.read_page(parse.parse_inbox_page, root, response)
        wanted_names = {name.casefold() for name in to}
        wanted_text = fingerprint(body)
        newest_first = sorted(page.messages.values(), key=lambda pm: pm.pm_id, reverse=True)
        for pm in newest_first:
            names = {r.name.casefold() for r in pm.recipients}
            if (
                pm.subject == subject
                and (since is None or pm.sent_at >= since)
                and wanted_names <= names
                and wanted_text in html_fingerprint(pm.body_html)
            ):
                return PMRef(pm.pm_id, tuple(to), subject)
        return None


_HELD_IN_TOPIC = (
    "the topic shows the reply to the bot only, marked as awaiting a moderator's approval"
)
_HELD_BY_FORM = (
    "the reply form said the post must wait for a moderator's approval, and the topic does "
    "not show it yet"
)
LIFT_PM_LIMIT = (
    "SMF limits ordinary members to a number of PMs an hour (Admin > Configuration > "
    "Security and Moderation > Spam: 'Max PMs per hour', stock 20); members with the "
    "'send_mail' permission are exempt, so put the bot in a membergroup that has it."
)
_ONE_NUMBER = re.compile(r"(?<!\d)\d{1,6}(?!\d)")


def _pm_limit(action: str, message: str) -> PMLimitReached | None:
    """SMF's PM-per-hour refusal of the PM form: a fatal error on loading the form (the only
    one SMF raises there for a member who may send PMs) naming one number, the limit, in
    any language ("exceeded the limit of 20 personal messages per hour")."""
    numbers = _ONE_NUMBER.findall(message or "")
    if len(numbers) != 1:
        return None
    return PMLimitReached(action, message, int(numbers[0]), LIFT_PM_LIMIT)


def _submit(form: Form) -> dict[str, str]:
    """The submit button to send (2.1 names it ``post``; 2.0's is unnamed)."""
    return {"post": form.submits["post"]} if "post" in form.submits else {}


def _newer(value: str | None, seen: PostId | None) -> bool:
    return bool(value and value.isdigit() and seen is not None and int(value) > seen)
