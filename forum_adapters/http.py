"""Politeness in one place: User-Agent, per-forum request budget, timeouts, retries, cookies.

Every adapter talks to its forum through one ``PoliteSession``. It spaces requests (default
at most one a second), retries with exponential backoff and jitter (tenacity) on timeouts,
connection errors and 5xx answers -- never on 4xx, and never a POST unless the caller says
the POST is safe to repeat -- and persists cookies to an owner-only file between runs.
The clock and ``sleep`` are injectable so that tests never really wait.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import requests
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from forum_adapters.errors import ForumUnavailable, RateLimited

# Identifies the client honestly without matching phpBB's or SMF's stock spider lists
# ("Googlebot", "Crawler", ...): a client taken for a spider gets a session that cannot log in.
DEFAULT_USER_AGENT = "forumbot/0.1 (forum Mafia game moderator; python-requests)"
DEFAULT_RATE = 1.0  # requests per second, per forum
DEFAULT_TIMEOUT = (10.0, 30.0)  # connect, read (seconds)
MAX_REDIRECTS = 10


@dataclass(frozen=True, slots=True)
class HttpSettings:
    """How politely to talk to one forum.

    Attributes:
        user_agent: one identified User-Agent for the whole session (SMF and phpBB bind
            sessions to it: changing it mid-session logs the bot out).
        rate: at most this many requests per second (0 or less: no spacing).
        timeout: connect and read timeouts, seconds.
        attempts: tries per request on retryable failures (1 = no retry).
        backoff_initial: first backoff wait, seconds; doubles each retry, plus jitter.
        backoff_max: longest single backoff wait, seconds.
    """

    user_agent: str = DEFAULT_USER_AGENT
    rate: float = DEFAULT_RATE
    timeout: tuple[float, float] = DEFAULT_TIMEOUT
    attempts: int = 4
    backoff_initial: float = 1.0
    backoff_max: float = 30.0


class _Retryable(Exception):
    """Internal: a failure worth another try (wraps the response or exception)."""

    def __init__(self, reason: str, response: requests.Response | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.response = response


class PoliteSession:
    """A ``requests.Session`` wrapper with a request budget, retries and cookie persistence.

    Args:
        session: the session to use (tests mount adapters on it); a new one when None.
        settings: politeness settings.
        cookie_file: where cookies are loaded from and saved to (mode 0600), or None.
        clock: monotonic clock in seconds (injectable).
        sleep: how to wait (injectable; tests pass a fake that only advances ``clock``).
        is_final: for a 5xx answer, True when retrying is pointless (a maintenance page);
            such responses are returned to the caller to classify.
    """

    def __init__(
        self,
        session: requests.Session | None = None,
        *,
        settings: HttpSettings | None = None,
        cookie_file: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        is_final: Callable[[requests.Response], bool] | None = None,
    ) -> None:
        self.session = session or requests.Session()
        self.settings = settings or HttpSettings()
        self.session.headers["User-Agent"] = self.settings.user_agent
        self.cookie_file = Path(cookie_file) if cookie_file else None
        self.clock = clock
        self.sleep = sleep
        self.is_final = is_final
        self.request_count = 0
        self._next_allowed = 0.0
        if self.cookie_file is not None:
            load_cookies(self.session, self.cookie_file)

    def get(self, url: str, **kwargs: Any) -> requests.Response:
        """GET ``url`` politely, retrying retryable failures. See ``request``."""
        return self.request("GET", url, **kwargs)

    def post(
        self, url: str, data: Mapping[str, Any] | list[tuple[str, Any]], **kwargs: Any
    ) -> requests.Response:
        """POST a form once (no automatic retry: the forum may have accepted it)."""
        return self.request("POST", url, data=data, retry=False, **kwargs)

    def request(
        self, method: str, url: str, *, retry: bool | None = None, **kwargs: Any
    ) -> requests.Response:
        """Send one request within the budget; retry timeouts, connection errors and 5xx.

        Args:
            method: HTTP method.
            url: absolute URL.
            retry: whether failures may be retried (default: only for GET and HEAD).
            **kwargs: passed to ``requests.Session.request`` (data, params, allow_redirects).

        Returns:
            The response (any status below 500 except 429; the caller reads 4xx pages).

        Raises:
            RateLimited: 429, or a 5xx with ``Retry-After`` after the last try.
            ForumUnavailable: timeouts, connection errors, 5xx after the last try.
        """
        if retry is None:
            retry = method.upper() in ("GET", "HEAD")
        kwargs.setdefault("timeout", self.settings.timeout)
        follow = kwargs.pop("allow_redirects", True)
        response = self._attempts(method, url, retry, allow_redirects=False, **kwargs)
        # Redirects are followed here, not by requests, so every hop is in the budget and
        # counted. Forums answer a POST with 302/303: the next hop is a GET.
        history: list[requests.Response] = []
        while follow and response.is_redirect and len(history) < MAX_REDIRECTS:
            history.append(response)
            target = urljoin(response.url, response.headers["Location"])
            hop = {"allow_redirects": False, **_timeout(kwargs)}
            response = self._attempts("GET", target, True, **hop)
        response.history = history
        return response

    def _attempts(self, method: str, url: str, retry: bool, **kwargs: Any) -> requests.Response:
        attempts = self.settings.attempts if retry else 1
        retrying = Retrying(
            stop=stop_after_attempt(max(1, attempts)),
            wait=wait_exponential(
                multiplier=self.settings.backoff_initial, max=self.settings.backoff_max
            )
            + wait_random(0, self.settings.backoff_initial),  # jitter
            retry=retry_if_exception_type(_Retryable),
            sleep=self.sleep,
            reraise=False,
        )
        try:
            return retrying(self._send_once, method, url, **kwargs)
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise self._give_up(url, last) from last

    def _send_once(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        self._throttle()
        self.request_count += 1
        try:
            response = self.session.request(method, url, **kwargs)
        except (requests.Timeout, requests.ConnectionError) as exc:
            raise _Retryable(_plain_reason(exc)) from exc
        if response.status_code == 429:
            raise RateLimited(url, _retry_after(response))
        if response.status_code >= 500:
            if self.is_final is not None and self.is_final(response):
                return response
            raise _Retryable(f"HTTP {response.status_code}", response)
        return response

    def _give_up(self, url: str, last: BaseException | None) -> ForumUnavailable:
        if isinstance(last, _Retryable) and last.response is not None:
            response = last.response
            retry_after = _retry_after(response)
            if retry_after is not None and response.status_code == 503:
                return RateLimited(url, retry_after)
            return ForumUnavailable(
                url, last.reason, last, status=response.status_code, body=response.text
            )
        reason = last.reason if isinstance(last, _Retryable) else repr(last)
        return ForumUnavailable(url, reason, last.__cause__ if last else None)

    def _throttle(self) -> None:
        now = self.clock()
        if now < self._next_allowed:
            self.sleep(self._next_allowed - now)
            now = self.clock()
        interval = 1.0 / self.settings.rate if self.settings.rate > 0 else 0.0
        self._next_allowed = now + interval

    def save_cookies(self) -> None:
        """Write the session's cookies to ``cookie_file`` (mode 0600), if one was given."""
        if self.cookie_file is not None:
            save_cookies(self.session, self.cookie_file)


def _plain_reason(exc: requests.RequestException) -> str:
    """A network failure in a few plain words (never urllib3's text)."""
    text = str(exc)
    if isinstance(exc, requests.Timeout):
        return "no answer in time"
    if "refused" in text.lower():
        return "connection refused: nothing answers at that address"
    if "Name or service not known" in text or "getaddrinfo" in text or "resolve" in text:
        return "the host name does not resolve"
    if "reset" in text.lower() or "aborted" in text.lower() or "RemoteDisconnected" in text:
        return "the connection dropped before the answer came"
    return "could not connect"


def _timeout(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {"timeout": kwargs["timeout"]} if "timeout" in kwargs else {}


def server_time(response: requests.Response, fallback: datetime | None = None) -> datetime:
    """The server's clock from the ``Date`` header (aware UTC), or ``fallback``/now."""
    header = response.headers.get("Date")
    if header:
        try:
            return parsedate_to_datetime(header).astimezone(UTC)
        except (TypeError, ValueError):
            pass
    return fallback or datetime.now(UTC)


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, (when - datetime.now(UTC)).total_seconds())


def save_cookies(session: requests.Session, path: Path) -> None:
    """Save cookies as JSON to ``path``, readable by its owner only (0600)."""
    rows = [
        {
            "name": c.name,
            "value": c.value,
            "domain": c.domain,
            "path": c.path,
            "expires": c.expires,
            "secure": c.secure,
        }
        for c in session.cookies
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(rows, handle, indent=1)
    os.chmod(path, 0o600)


def load_cookies(session: requests.Session, path: Path) -> None:
    """Load cookies saved by ``save_cookies``; a missing or unreadable file is ignored."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    now = time.time()
    for row in rows if isinstance(rows, list) else []:
        expires = row.get("expires")
        if expires is not None and expires < now:
            continue
        session.cookies.set(
            row["name"],
            row["value"],
            domain=row.get("domain", ""),
            path=row.get("path", "/"),
            expires=expires,
            secure=bool(row.get("secure")),
        )
