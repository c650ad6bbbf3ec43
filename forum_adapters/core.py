"""What every engine's adapter shares: credentials, the polite session, fetching a page with one
re-login on session loss, waits between posts, and how forum messages map to our errors."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import ClassVar, Generic, Protocol, TypeVar
from zoneinfo import ZoneInfo

import requests

from forum_adapters.base import Post, PostId, SubmitHook
from forum_adapters.errors import (
    Banned,
    FloodControl,
    ForumUnavailable,
    LoginFailed,
    Maintenance,
    NotFound,
    NotPermitted,
    SessionExpired,
)
from forum_adapters.http import HttpSettings, PoliteSession, server_time
from forum_adapters.markup import HtmlElement, fingerprint, html_fingerprint, parse_html, text_of
from forum_adapters.timeparse import DateOrder, as_date_order

_MAINTENANCE = re.compile(
    r"maintenance|board is (?:currently )?(?:disabled|unavailable)|"
    r"техническ|обслуживани|en maintenance",
    re.I,
)
_BANNED = re.compile(r"\bbanned\b|\bbanni|заблокирован|забанен", re.I)
_MISSING = re.compile(r"does not exist|missing or off limits|could not be found|not found", re.I)


Ref = TypeVar("Ref")
Page = TypeVar("Page", covariant=True)


class PageParser(Protocol[Page]):
    """An engine's parser of a listing page (a topic page, a PM folder): the page, its URL, and
    what its dates and links are read against."""

    def __call__(
        self,
        root: HtmlElement,
        url: str,
        *,
        now: datetime,
        tz: tzinfo,
        base_url: str,
        order: DateOrder | None = None,
    ) -> Page: ...


@dataclass
class Submission:
    """One filled-in form, ready to POST: where, what, and what the caller learnt loading it
    (the newest post the form saw, the server's time) for reading the answer."""

    url: str
    fields: list[tuple[str, str]]
    seen: PostId | None = None
    since: datetime | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class WriteSteps(Generic[Ref]):
    """The engine-specific steps of one post or PM, for ``AdapterCore.write``.

    Attributes:
        action: what the bot is doing, for errors ("reply to topic 2").
        prepare: load the form and fill it in (no write yet).
        outcome: the confirmed ref from the forum's answer, or seconds to wait and try again.
        find: look for what was sent after an answer that never came (None: not there).
    """

    action: str
    prepare: Callable[[], Submission]
    outcome: Callable[[requests.Response, Submission], Ref | float]
    find: Callable[[Submission], Ref | None]


class Revealable(Protocol):
    """A password holder that hides its value (``forumbot.credentials.Secret`` fits)."""

    def reveal(self) -> str:
        """Return the secret."""
        ...


class _PlainSecret:
    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"


class AdapterCore:
    """Shared plumbing of the engine adapters (not part of the Protocol).

    Args:
        base_url: SMF: the script URL (``https://f.example/index.php``); phpBB: the board
            folder (``https://b.example/forum/``).
        username: the bot's forum account.
        password: its password (a ``Secret``-like object with ``reveal()``, or a str); None
            reads public topics as a guest (no inbox, no posting).
        http: a ready ``PoliteSession`` (tests inject one); built from the rest when None.
        session: a ``requests.Session`` to wrap (when ``http`` is None).
        settings: politeness settings (when ``http`` is None).
        cookie_file: where to keep cookies between runs (mode 0600).
        tz: the zone the forum shows times in for this account (IANA name or tzinfo); None:
            read it from the pages (phpBB's footer, SMF's header clock), else UTC.
        post_interval: seconds to leave between two posts/PMs (engine default when None).
        date_order: how the forum writes numeric dates (``dmy``: ``05/03/2026`` is 5 March,
            as on French and Russian boards; ``mdy``; ``ymd``); None guesses.
    """

    engine: ClassVar[str] = ""
    default_post_interval: ClassVar[float] = 6.0

    def __init__(
        self,
        base_url: str,
        username: str,
        password: Revealable | str | None,
        *,
        http: PoliteSession | None = None,
        session: requests.Session | None = None,
        settings: HttpSettings | None = None,
        cookie_file: str | Path | None = None,
        tz: str | tzinfo | None = None,
        post_interval: float | None = None,
        date_order: str | None = None,
    ) -> None:
        self.base_url = base_url
        self.username = username
        self._password = _PlainSecret(password) if isinstance(password, str) else password
        self.guest = password is None
        self.http = http or PoliteSession(
            session, settings=settings, cookie_file=cookie_file, is_final=_is_final_5xx
        )
        if self.http.is_final is None:
            self.http.is_final = _is_final_5xx
        self.tz: tzinfo = ZoneInfo(tz) if isinstance(tz, str) else (tz or UTC)
        self.tz_known = tz is not None
        self.post_interval = self.default_post_interval if post_interval is None else post_interval
        self.date_order: DateOrder | None = as_date_order(date_order)
        self.user_id: int | None = None
        self.display_name = username
        self._last_write: float | None = None
        self._landing: tuple[HtmlElement, requests.Response] | None = None
        self._last_seen: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r}, {self.username!r})"

    # -- hooks the engines fill in -------------------------------------------------------
    def login(self) -> None:  # pragma: no cover - every engine overrides it
        """Log in with the bot's account (engine-specific)."""
        raise NotImplementedError

    def _is_logged_in(self, root: HtmlElement) -> bool:  # pragma: no cover
        raise NotImplementedError

    def _error_text(self, root: HtmlElement) -> str | None:  # pragma: no cover
        raise NotImplementedError

    def _is_error_page(self, root: HtmlElement) -> bool:  # pragma: no cover
        raise NotImplementedError

    # -- shared behaviour ----------------------------------------------------------------
    def fetch(
        self, url: str, *, what: str, need_login: bool = True
    ) -> tuple[HtmlElement, requests.Response]:
        """GET a page, check it for forum-wide failures, and log in once if we are a guest.

        Args:
            url: the page.
            what: what the bot is doing, for error messages ("read topic 2").
            need_login: log in (once) when the page is served to a guest.

        Returns:
            The parsed page and the response.

        Raises:
            SessionExpired: still a guest after logging in again.
            Maintenance, Banned, NotFound, NotPermitted, ForumUnavailable: see ``check_page``.
        """
        if need_login and not self.guest and self._first_contact():
            # A bot that keeps its session but has none yet would be shown this page as a
            # guest: log in first and read it once (SMF's login may land on it).
            self.login()
            root, response = self._after_login(url, what)
        else:
            root, response = self._get(url, what)
        if need_login and self.guest and not self._is_logged_in(root):
            if not self.guest_allowed(what):
                raise NotPermitted(what, "guests cannot; give the bot's account and password")
        elif need_login and not self._is_logged_in(root):
            # A guest page (expired session, first run): log in once and ask again. Errors on
            # a guest page ("missing or off limits") are judged only after that.
            self.login()
            root, response = self._after_login(url, what)
            if not self._is_logged_in(root):
                raise SessionExpired(self.username, url)
        self.check_page(response, root, what)
        if not self.tz_known:
            zone = self._zone_shown(root, response)
            if zone is not None:
                self.tz, self.tz_known = zone, True
        return root, response

    def _first_contact(self) -> bool:
        """Whether this bot keeps its session in a cookie file and has no cookie at all yet
        (its first run, or the file was removed): every page would come as a guest's."""
        return self.http.cookie_file is not None and not self.http.session.cookies

    def _zone_shown(self, root: HtmlElement, response: requests.Response) -> tzinfo | None:
        """The member's time zone as the page shows it, if it does (engine-specific)."""
        return None

    def landed(self, root: HtmlElement, response: requests.Response) -> None:
        """Remember the page a login's redirects ended on (engines call it on success)."""
        self._landing = (root, response)

    def _after_login(self, url: str, what: str) -> tuple[HtmlElement, requests.Response]:
        """The wanted page after logging in: the login's own landing page when the forum
        sent us back there (SMF returns to the page a guest asked for), else a fresh GET.
        Each page once: opening SMF's inbox twice would lose its "new" marks."""
        landing, self._landing = self._landing, None
        if landing is not None and _same_page(landing[1].url, url):
            return landing
        return self._get(url, what)

    def _get(self, url: str, what: str) -> tuple[HtmlElement, requests.Response]:
        response = self.http.get(url)
        root = parse_html(response.content)
        if response.status_code >= 500:
            self.check_page(response, root, what)
        return root, response

    def check_page(self, response: requests.Response, root: HtmlElement, what: str) -> None:
        """Raise the right error for a maintenance page, a ban, a missing page or a refusal.

        Raises:
            Maintenance: a 503 maintenance / board-disabled page.
            Banned: the forum says the account is banned.
            NotFound: a 404, or the forum's "does not exist / missing" message.
            NotPermitted: a 403 the forum explains otherwise.
            ForumUnavailable: any other 5xx that reached us.
        """
        status = response.status_code
        message = self._error_text(root) or ""
        if status >= 500:
            text = message or text_of(root)[:300]
            if _MAINTENANCE.search(f"{text} {text_of(root)[:1000]}"):
                raise Maintenance(response.url, text)
            raise ForumUnavailable(response.url, f"HTTP {status}", status=status, body=text)
        if message and _BANNED.search(message):
            raise Banned(what, message)
        if status == 404 or (message and status in (200, 403) and _MISSING.search(message)):
            raise NotFound(what, message)
        if status == 403:
            raise NotPermitted(what, message or "HTTP 403")
        if self._is_error_page(root):
            # SMF 2.0 answers "not allowed" (locked topic, no permission) with HTTP 200.
            raise NotPermitted(what, message or "the forum showed an error page")

    def now(self, response: requests.Response) -> datetime:
        """The server's clock for this response (for "Today at ..." dates)."""
        return server_time(response)

    def read_page(
        self, parser: PageParser[Page], root: HtmlElement, response: requests.Response
    ) -> Page:
        """``parser`` on a fetched page, its dates read on the server's clock and the board's
        zone and date order, its links against the board's address."""
        return parser(root, response.url, now=self.now(response), tz=self.tz,
                      order=self.date_order, base_url=self.base_url)  # fmt: skip

    def wait_before_writing(self) -> None:
        """Sleep until ``post_interval`` has passed since the last post or PM we sent."""
        if self._last_write is not None:
            left = self._last_write + self.post_interval - self.http.clock()
            if left > 0:
                self.http.sleep(left)

    def write(self, steps: WriteSteps[Ref], on_submit: SubmitHook | None = None) -> Ref:
        """Send a post or PM exactly once: prepare the form, POST it, read the answer; after
        a POST whose answer never came, look for it before sending again (3 tries at most).

        ``on_submit`` is called right before each POST that could write, so a caller can
        record that the forum may have it (a send that failed before it is simply retried).

        Raises:
            FloodControl: the forum kept asking to wait.
            ForumUnavailable: the last POST got no answer (it may be on the forum).
        """
        pending: Submission | None = None  # a POST whose answer never came
        for attempt in range(3):
            if pending is not None:
                found = steps.find(pending)
                if found is not None:
                    return found
            submission = steps.prepare()
            self.wait_before_writing()
            if on_submit is not None:
                on_submit()
            try:
                answer = self.http.post(submission.url, submission.fields)
            except ForumUnavailable:
                if attempt == 2:
                    raise
                pending = submission
                continue
            self.wrote()
            pending = None
            result = steps.outcome(answer, submission)
            if not isinstance(result, float):
                return result
            self.http.sleep(result)
        raise FloodControl(steps.action, "the forum kept refusing it", None)

    def wrote(self) -> None:
        """Remember that a post or PM was just sent (for flood-control spacing)."""
        self._last_write = self.http.clock()

    def flood_wait(self, shown: int | None = None) -> float:
        """Seconds to wait after a flood-control refusal: the wait the forum named plus one
        (it compares whole seconds), else what is left of the board's stock interval since
        our last post or PM (all of it when this process has not written yet)."""
        if shown is not None:
            return float(shown) + 1.0
        interval = max(self.post_interval, self.default_post_interval)
        if self._last_write is None:
            return interval
        return max(1.0, self._last_write + interval - self.http.clock())

    def know_myself(self) -> None:
        """Learn the bot's member id (one request) if no page told it yet: after a crash the
        bot must find its own posts by id, since forums show a display name."""
        if self.user_id is None and not self.guest:
            self.login()

    def is_me(self, user_id: int | None, name: str) -> bool:
        """Whether a post's author is the bot (by member id when both are known)."""
        if self.user_id is not None and user_id is not None:
            return user_id == self.user_id
        return name.casefold() in {self.username.casefold(), self.display_name.casefold()}

    def own_post(self, posts: Sequence[Post], body: str, after: int | None) -> Post | None:
        """The newest of ``posts`` after ``after`` that the bot wrote with this text."""
        wanted = fingerprint(body)
        for post in reversed(posts):
            if after is not None and post.post_id <= after:
                continue
            if self.is_me(post.author.id, post.author.name) and wanted in html_fingerprint(
                post.body_html
            ):
                return post
        return None

    def remember_seen(self, topic_id: int, post_id: int) -> None:
        """Track the newest post id read in a topic (the default ``last_seen`` for replies)."""
        if post_id > self._last_seen.get(topic_id, 0):
            self._last_seen[topic_id] = post_id

    def save_cookies(self) -> None:
        """Write the session cookies to the cookie file, if one was given (mode 0600)."""
        self.http.save_cookies()

    def password(self) -> str:
        """The password, for the login form only."""
        if self._password is None:
            raise LoginFailed(self.username or "guest", "no password was given")
        return self._password.reveal()

    @staticmethod
    def guest_allowed(what: str) -> bool:
        """Guests may only read topics (and only public ones)."""
        return what.startswith("read topic")


_SESSION_PARAM = re.compile(r"(?:PHPSESSID|sid)=[0-9a-zA-Z,-]*[;&]?")


def _same_page(a: str, b: str) -> bool:
    """Whether two URLs name the same page (session ids and fragments aside)."""

    def norm(url: str) -> str:
        return _SESSION_PARAM.sub("", url.split("#", 1)[0]).rstrip("?&;")

    return norm(a) == norm(b)


def _is_final_5xx(response: requests.Response) -> bool:
    """A 503 maintenance page is final: retrying within seconds cannot help."""
    return response.status_code == 503 and bool(_MAINTENANCE.search(response.text[:20000]))
