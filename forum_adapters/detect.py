"""Which engine a forum runs (from a URL or a page), and topic URL normalisation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qs, urlsplit, urlunsplit

from forum_adapters.errors import ForumNotSupported

SMF = "smf"
PHPBB = "phpbb"

_PHPBB_SCRIPTS = ("viewtopic.php", "viewforum.php", "ucp.php", "memberlist.php", "posting.php")
_SMF_QUERY = re.compile(r"(?:^|[?;&])(topic|board|action|msg)=", re.IGNORECASE)
_SMF_PATH_TOPIC = re.compile(r"/(topic|board),(\d+)(?:\.(\w+))?(?:\.html)?", re.IGNORECASE)
_SMF_TOPIC = re.compile(r"(?:^|[?;&/])topic[=,](\d+)", re.IGNORECASE)
_SMF_MSG = re.compile(r"(?:^|[?;&.])msg=?(\d+)", re.IGNORECASE)

# Page markers, most specific first. phpBB's prosilver puts id="phpbb" on <body>; SMF pages
# define smf_scripturl in a script (2.0 and 2.1) and credit "Simple Machines" in the footer.
_PAGE_MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (PHPBB, re.compile(r'<body[^>]+id="phpbb"|Powered by <a[^>]*phpbb\.com|phpbb_alert', re.I)),
    (SMF, re.compile(r"var smf_scripturl|Simple Machines Forum|simplemachines\.org", re.I)),
    (PHPBB, re.compile(r"phpBB|viewtopic\.php", re.I)),
)


@dataclass(frozen=True, slots=True)
class ForumLocation:
    """A normalised forum address.

    Attributes:
        engine: "smf" or "phpbb".
        base_url: SMF: the script URL (``.../index.php``); phpBB: the board folder (ends in /).
        topic_id: the topic, when the URL names one.
        post_id: the post, when the URL names one (phpBB ``viewtopic.php?p=N``, SMF ``msg=N``).
        topic_url: the canonical URL of the topic's first page, or "".
    """

    engine: str
    base_url: str
    topic_id: int | None = None
    post_id: int | None = None

    @property
    def topic_url(self) -> str:
        """The topic's first page in the engine's plain form (no session id, no page)."""
        if self.topic_id is None:
            return ""
        if self.engine == SMF:
            return f"{self.base_url}?topic={self.topic_id}.0"
        return f"{self.base_url}viewtopic.php?t={self.topic_id}"


def detect_engine(url: str | None = None, html: str | None = None) -> str:
    """Name the engine from a URL, else from a page's markup.

    Args:
        url: a forum URL (topic, board, index).
        html: a page from the forum.

    Returns:
        ``"smf"`` or ``"phpbb"``.

    Raises:
        ForumNotSupported: neither tells.
    """
    if url:
        engine = _engine_from_url(url)
        if engine:
            return engine
    if html:
        head = html[:200_000]
        for engine, pattern in _PAGE_MARKERS:
            if pattern.search(head):
                return engine
    raise ForumNotSupported(f"cannot tell the forum engine of {url or 'this page'}")


def _engine_from_url(url: str) -> str | None:
    parts = urlsplit(url)
    path = parts.path.lower()
    if any(path.endswith("/" + script) or path == script for script in _PHPBB_SCRIPTS):
        return PHPBB
    if _SMF_PATH_TOPIC.search(parts.path):
        return SMF
    if _SMF_QUERY.search(parts.query or ""):
        return SMF
    return None


def locate(url: str, engine: str | None = None) -> ForumLocation:
    """Normalise a topic or board URL (session ids, page offsets and anchors are dropped).

    Args:
        url: e.g. ``http://f.example/index.php?topic=2.15``,
            ``http://f.example/index.php/topic,2.0.html``,
            ``https://b.example/forum/viewtopic.php?f=3&t=2&start=20&sid=...``.
        engine: the engine, when already known (else detected from the URL).

    Returns:
        The forum's base URL and the topic (and post) the URL names.

    Raises:
        ForumNotSupported: the engine cannot be told from the URL.
    """
    engine = engine or detect_engine(url)
    parts = urlsplit(url.strip())
    if engine == SMF:
        return _locate_smf(parts)
    return _locate_phpbb(parts)


def _locate_smf(parts: SplitResult) -> ForumLocation:
    scheme, netloc, path, query = parts.scheme, parts.netloc, parts.path, parts.query
    index = path.lower().find("index.php")
    end = index + len("index.php")
    script_path = path[:end] if index >= 0 else path.rstrip("/") + "/index.php"
    base = urlunsplit((scheme, netloc, script_path, "", ""))
    rest = path[index + len("index.php") :] if index >= 0 else ""
    haystack = f"{rest}?{query}"
    topic = _SMF_TOPIC.search(haystack)
    msg = _SMF_MSG.search(haystack)
    return ForumLocation(
        SMF,
        base,
        int(topic.group(1)) if topic else None,
        int(msg.group(1)) if msg else None,
    )


def _locate_phpbb(parts: SplitResult) -> ForumLocation:
    scheme, netloc, path, query = parts.scheme, parts.netloc, parts.path, parts.query
    folder = path if path.endswith("/") else path.rsplit("/", 1)[0] + "/"
    base = urlunsplit((scheme, netloc, folder, "", ""))
    params = parse_qs(query)
    topic = params.get("t", [None])[0]
    post = params.get("p", [None])[0]
    return ForumLocation(
        PHPBB,
        base,
        int(topic) if topic and topic.isdigit() else None,
        int(post) if post and post.isdigit() else None,
    )
