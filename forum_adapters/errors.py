"""The forum adapters' exceptions: one root, ``ForumError``, messages built from typed fields.

Third-party errors (``requests``, ``lxml``) are wrapped once, where they happen, with
``raise ... from exc``. Which exception means what for the caller:

- ``ForumUnavailable`` (and ``RateLimited``, ``Maintenance``): try again later, with backoff.
- ``LoginFailed`` (``CaptchaRequired``), ``NotPermitted`` (``Banned``): a person must act.
- ``SessionExpired``: the forum logged the bot out and one fresh login did not help.
- ``ActionRefused`` (``FloodControl``, ``ReplyRefusedNewerPost``): the forum said no to one
  post or PM; nothing was sent.
- ``LayoutChanged``: the page is not what the parser expects; save ``saved_html`` as a fixture.
- ``ForumNotSupported``: this engine, version or feature is not handled.
"""

from __future__ import annotations


class ForumError(Exception):
    """Root of every error the forum adapters raise on purpose."""


class ForumUnavailable(ForumError):
    """The forum could not be reached or answered with a server error (retryable).

    Attributes:
        url: the address that failed.
        reason: what went wrong, in words.
        original: the wrapped exception, when there is one.
        status: the last HTTP status, when the forum answered.
        body: the last answer's text, when the forum answered.
    """

    def __init__(
        self,
        url: str,
        reason: str,
        original: BaseException | None = None,
        *,
        status: int | None = None,
        body: str = "",
    ) -> None:
        self.url = url
        self.reason = reason
        self.original = original
        self.status = status
        self.body = body
        super().__init__(f"the forum is unavailable ({reason}) at {url}; try again later")


class RateLimited(ForumUnavailable):
    """The forum asked us to slow down (HTTP 429, or 503 with ``Retry-After``).

    Attributes:
        retry_after: seconds the forum asked us to wait, when it said.
    """

    def __init__(self, url: str, retry_after: float | None) -> None:
        self.retry_after = retry_after
        wait = f"wait {retry_after:g} s" if retry_after is not None else "slow down"
        super().__init__(url, f"rate limited: {wait}")


class Maintenance(ForumUnavailable):
    """The forum shows its maintenance / board-disabled page.

    Attributes:
        message: the forum's own text, shortened.
    """

    def __init__(self, url: str, message: str) -> None:
        self.message = message
        super().__init__(url, f"in maintenance mode: {message[:160]}")


class LoginFailed(ForumError):
    """The forum refused the bot's user name or password.

    Attributes:
        username: the account that tried to log in (never the password).
        message: the forum's own words.
    """

    def __init__(
        self,
        username: str,
        message: str,
        advice: str = "check the user name and the password source",
    ) -> None:
        self.username = username
        self.message = message
        super().__init__(f"login as {username!r} failed: {message[:200]} ({advice})")


class CaptchaRequired(LoginFailed):
    """The forum demands a CAPTCHA / visual verification, which a bot cannot solve."""

    def __init__(self, username: str, where: str) -> None:
        self.where = where
        super().__init__(
            username,
            f"the forum demands a CAPTCHA ({where})",
            advice="log in once in a browser to reset the failed-login counter, or ask an "
            "admin to lift the verification for this account",
        )


class NotPermitted(ForumError):
    """The account may not do this: read the topic, read PMs, reply, send PMs.

    Attributes:
        action: what the bot tried ("read topic 12", "reply", "send a PM").
        message: the forum's own words.
    """

    def __init__(self, action: str, message: str) -> None:
        self.action = action
        self.message = message
        super().__init__(f"not permitted to {action}: {message[:200]}")


class Banned(NotPermitted):
    """The bot's account (or its IP) is banned from the forum."""


class NotFound(ForumError):
    """The topic or PM does not exist (or is hidden from this account).

    Attributes:
        what: what was looked for ("topic 9999").
    """

    def __init__(self, what: str, message: str = "") -> None:
        self.what = what
        self.message = message
        super().__init__(f"{what} not found" + (f": {message[:200]}" if message else ""))


class SessionExpired(ForumError):
    """The forum logged the bot out and logging in again once did not restore the session."""

    def __init__(self, username: str, url: str) -> None:
        self.username = username
        self.url = url
        super().__init__(
            f"the forum keeps treating {username!r} as a guest at {url} even after a fresh "
            "login (cookies refused? User-Agent or IP changed?)"
        )


class ActionRefused(ForumError):
    """The forum refused one post or PM and said why; nothing was sent.

    Attributes:
        action: "reply to topic 2", "send a PM to Kleene".
        message: the forum's own words.
    """

    def __init__(self, action: str, message: str) -> None:
        self.action = action
        self.message = message
        super().__init__(f"the forum refused to {action}: {message[:300]}")


class FloodControl(ActionRefused):
    """Posting too soon after the previous post or PM, still refused after waiting.

    Attributes:
        wait_seconds: how long the forum says to wait, when it says.
    """

    def __init__(self, action: str, message: str, wait_seconds: float | None) -> None:
        self.wait_seconds = wait_seconds
        super().__init__(action, message)


class PMLimitReached(FloodControl):
    """The forum's cap on PMs per hour (SMF's ``pm_spam_settings``, stock 20 for ordinary
    members) refused the PM before it was sent: wait for the hour to pass, or lift it.

    Attributes:
        limit: the number of PMs an hour the forum named, when it did.
        how_to_lift: one sentence for the GM on lifting it for the bot.
    """

    def __init__(self, action: str, message: str, limit: int | None, how_to_lift: str) -> None:
        self.limit = limit
        self.how_to_lift = how_to_lift
        super().__init__(action, message, 3600.0)


class ReplyRefusedNewerPost(ActionRefused):
    """Someone posted in the topic after the bot loaded the reply form; nothing was posted.

    Read the new posts and decide again (a vote count may have changed).

    Attributes:
        last_seen: the last post id the bot's form was based on.
        newest: the topic's newest post id the forum reported, when known.
    """

    def __init__(self, action: str, last_seen: int | None, newest: int | None) -> None:
        self.last_seen = last_seen
        self.newest = newest
        super().__init__(
            action,
            f"new posts were made after post {last_seen} (newest now {newest}); "
            "read them and send again",
        )


class PendingApproval(ForumError):
    """The forum accepted the post but holds it for a moderator's approval (new or moderated
    accounts: phpBB's "must be approved", SMF's unapproved-post permissions or a warning
    level past "moderate"). It exists: do not send it again.

    Attributes:
        action: what the bot did.
        message: the forum's own words.
        post_id: the held post's id, when the forum shows it to its author (SMF 2.0/2.1
            and phpBB 3.3 show the held post to the bot, marked).
    """

    def __init__(self, action: str, message: str, post_id: int | None = None) -> None:
        self.action = action
        self.message = message
        self.post_id = post_id
        super().__init__(
            f"the forum accepted the {action.split(' ', 1)[0]} but a moderator must approve it "
            f"before it shows: {message[:200]} (do not send it again)"
        )


class LayoutChanged(ForumError, ValueError):
    """An element the parser needs is missing: the theme or engine version differs.

    Attributes:
        url: the page's address.
        what: the element that was expected.
        saved_html: the page as received, to be saved as a new fixture.
    """

    def __init__(self, url: str, what: str, saved_html: str = "") -> None:
        self.url = url
        self.what = what
        self.saved_html = saved_html
        super().__init__(
            f"unexpected page layout at {url}: {what} not found "
            "(a theme or forum version this adapter does not know yet)"
        )


class ForumNotSupported(ForumError):
    """The engine, its version, or the requested feature is not supported.

    Attributes:
        feature: what is not supported.
    """

    def __init__(self, feature: str) -> None:
        self.feature = feature
        super().__init__(f"not supported: {feature}")


ALL_ERRORS: tuple[type[ForumError], ...] = (
    ForumError,
    ForumUnavailable,
    RateLimited,
    Maintenance,
    LoginFailed,
    CaptchaRequired,
    NotPermitted,
    Banned,
    NotFound,
    SessionExpired,
    ActionRefused,
    FloodControl,
    PMLimitReached,
    ReplyRefusedNewerPost,
    PendingApproval,
    LayoutChanged,
    ForumNotSupported,
)
