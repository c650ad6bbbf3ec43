"""A stateful SMF 2.1 forum on loopback for runtime tests and the benchmark.

It serves pages built from the recorded SMF 2.1.4 pages of ``fixtures/smf21`` (a post block,
a PM block and an inbox row cut from them, with ids, names, dates and bodies swapped in),
keeps the topic, the bot's inbox and sent box in memory, logs the bot in with a cookie,
accepts replies and PMs, and counts every request. Dates follow the test's fake clock.
"""

from __future__ import annotations

import html
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "smf21"  # the recorded SMF 2.1 pages
SESSION_VAR, SESSION_ID = "a968aa90d9a9", "45bccdc8431b54aebdebecc5dd367261"
MEMBERS = {"GameMaster": 1, "ModBot": 2}
FOOTER = '<div id="footer"><ul><li class="copyright">Powered by SMF 2.1.4</li></ul></div>'


def _cut(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i : text.index(end, i)]


def _post_template() -> str:
    page = (DEMO / "topic_p1.html").read_text(encoding="utf-8")
    block = _cut(page, '<div class="windowbg" id="msg3">', '<hr class="post_separator">')
    body = _cut(block, 'id="msg_3">', "</div>")
    block = block.replace(body, 'id="msg_3">@@BODY@@')
    block = block.replace("Nov 27, 2026, 06:06 PM", "@@DATE@@")
    block = block.replace("the profile of Conia", "the profile of @@AUTHOR@@")
    block = block.replace(">Conia<", ">@@AUTHOR@@<").replace("u=3", "u=@@UID@@")
    return re.sub(r'(msg|msg=|msg_|subject_|modified_|quote=|quote\(|msgid="|Selected_)3\b',
                  r"\g<1>@@ID@@", block)  # fmt: skip


def _pm_template() -> tuple[str, str]:
    page = (DEMO / "pm_inbox_p1.html").read_text(encoding="utf-8")
    block = _cut(page, '<div class="windowbg" id="msg13">', '<div class="windowbg" id="msg14">')
    body = _cut(block, 'id="msg_13">', "</div>")
    block = block.replace(body, 'id="msg_13">@@BODY@@')
    i = page.index("deletelisting13")
    row = page[page.rfind("<tr", 0, i) : page.index("</tr>", i) + 5]
    out = []
    for text in (block, row):
        text = text.replace("Nov 28, 2026, 09:32 PM", "@@DATE@@")
        text = text.replace("Re: Your role - Loopback Village", "@@SUBJECT@@")
        text = text.replace("the profile of Kleene", "the profile of @@AUTHOR@@")
        text = text.replace(">Kleene<", ">@@AUTHOR@@<").replace("u=7", "u=@@UID@@")
        text = text.replace('u=2">ModBot<', 'u=@@TOID@@">@@TO@@<')
        out.append(re.sub(r"(?<![0-9])13(?![0-9])", "@@ID@@", text))
    return out[0], out[1]


POST, (PM_BLOCK, PM_ROW) = _post_template(), _pm_template()


@dataclass
class ForumData:
    """What the forum holds."""

    topic_id: int = 5
    title: str = "Test Village"
    posts: list[dict] = field(default_factory=list)
    inbox: list[dict] = field(default_factory=list)
    sent: list[dict] = field(default_factory=list)
    next_id: int = 100
    requests: int = 0
    down: int = 0  # answer 503 to this many next requests
    body_encoding: str = "utf-8"  # what the bytes are in (the header always says UTF-8)
    unknown_members: set[str] = field(default_factory=set)  # PMs to them are refused
    racing_posts: list[tuple[str, str]] = field(default_factory=list)  # (author, body): each
    # is posted the moment the bot opens the reply form, as a player who posts just then


class SMFTestForum:
    """Start with ``with SMFTestForum(clock) as forum:``; ``forum.base_url`` is the script."""

    def __init__(self, clock, bot: str = "ModBot", password: str = "pw") -> None:
        self.clock, self.bot, self.password = clock, bot, password
        self.data = ForumData()
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/index.php"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> SMFTestForum:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- what players do --------------------------------------------------------------------
    def add_post(self, author: str, body_html: str) -> int:
        with self.lock:
            self.data.next_id += 1
            self.data.posts.append({"id": self.data.next_id, "author": author,
                                    "at": self.clock.now(), "body": body_html})  # fmt: skip
            return self.data.next_id

    def add_pm(self, sender: str, subject: str, body_html: str, cc: tuple[str, ...] = ()) -> int:
        """A PM to the bot (``cc``: other recipients of the same PM)."""
        with self.lock:
            self.data.next_id += 1
            self.data.inbox.append({"id": self.data.next_id, "from": sender, "to": self.bot,
                                    "subject": subject, "at": self.clock.now(),
                                    "body": body_html, "cc": cc})  # fmt: skip
            return self.data.next_id

    # --- pages --------------------------------------------------------------------------------
    def page(self, content: str, logged_in: bool, canonical: str = "") -> str:
        logout = (f'<a href="{self.base_url}?action=logout;{SESSION_VAR}={SESSION_ID}">Logout</a>'
                  if logged_in else "")  # fmt: skip
        head = f'<link rel="canonical" href="{canonical}">' if canonical else ""
        head += f'<meta charset="{self.data.body_encoding}">'
        script = (f'<script>var smf_session_id = "{SESSION_ID}"; '
                  f'var smf_session_var = "{SESSION_VAR}";</script>')  # fmt: skip
        return (f"<!DOCTYPE html><html><head><title>{html.escape(self.data.title)}</title>"
                f"{head}{script}</head><body>{logout}{content}{FOOTER}</body></html>")  # fmt: skip

    def topic_page(self, logged_in: bool) -> str:
        blocks = [_fill(POST, id=p["id"], author=p["author"], uid=_uid(p["author"]),
                        date=_date(p["at"]), body=p["body"]) for p in self.data.posts]  # fmt: skip
        canonical = f"{self.base_url}?topic={self.data.topic_id}.0"
        return self.page("\n".join(blocks), logged_in, canonical)

    def pm_page(self, folder: list[dict], logged_in: bool) -> str:
        rows, blocks = [], []
        for pm in sorted(folder, key=lambda m: m["id"], reverse=True):
            values = {"id": pm["id"], "author": pm["from"], "uid": _uid(pm["from"]),
                      "date": _date(pm["at"]), "subject": html.escape(pm["subject"]),
                      "to": pm["to"], "toid": _uid(pm["to"]), "body": pm["body"]}  # fmt: skip
            rows.append(_fill(PM_ROW, **values))
            block = _fill(PM_BLOCK, **values)
            others = "".join(f', <a href="{self.base_url}?action=profile;u={_uid(n)}">{n}</a>'
                             for n in pm.get("cc", ()))  # fmt: skip
            blocks.append(block.replace(f'">{pm["to"]}</a>', f'">{pm["to"]}</a>{others}', 1))
        form = f'<form action="{self.base_url}?action=pm;sa=pmactions" method="post">'
        content = f"{form}<table>{''.join(rows)}</table></form>{''.join(blocks)}"
        return self.page(content, logged_in)

    def reply_form(self) -> str:
        last = self.data.posts[-1]["id"] if self.data.posts else 0
        return self.page(
            f'<form action="{self.base_url}?action=post2;start=0;board=2" method="post" '
            'name="postmodify" id="postmodify">'
            f'<input type="hidden" name="topic" value="{self.data.topic_id}">'
            '<textarea class="editor" name="message" id="message"></textarea>'
            f'<input type="hidden" name="last_msg" value="{last}">'
            f'<input type="hidden" name="{SESSION_VAR}" value="{SESSION_ID}">'
            '<input type="hidden" name="seqnum" value="1">'
            '<input type="submit" value="Post" name="post"></form>', True)  # fmt: skip

    def pm_form(self) -> str:
        return self.page(
            f'<form action="{self.base_url}?action=pm;sa=send2" method="post" name="postmodify" '
            'id="postmodify"><input type="text" name="to" value="">'
            '<input type="text" name="subject" value="">'
            '<textarea class="editor" name="message" id="message"></textarea>'
            f'<input type="hidden" name="{SESSION_VAR}" value="{SESSION_ID}">'
            '<input type="submit" value="Send message" name="post"></form>', True)  # fmt: skip

    def login_page(self) -> str:
        return self.page(
            f'<form action="{self.base_url}?action=login2" name="frmLogin" id="frmLogin" '
            'method="post"><input type="text" name="user"><input type="password" name="passwrd">'
            f'<input type="hidden" name="{SESSION_VAR}" value="{SESSION_ID}">'
            '<input type="submit" value="Log in"></form>', False)  # fmt: skip


def _fill(template: str, **values: object) -> str:
    for key, value in values.items():
        template = template.replace(f"@@{key.upper()}@@", str(value))
    return template


def _uid(name: str) -> int:
    return MEMBERS.setdefault(name, len(MEMBERS) + 1)


def _date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%b %d, %Y, %I:%M %p")


def _handler(forum: SMFTestForum) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self._serve("GET", {})

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            self._serve("POST", dict(parse_qsl(self.rfile.read(size).decode("utf-8"))))

        def _serve(self, method: str, form: dict[str, str]) -> None:
            with forum.lock:
                forum.data.requests += 1
                if forum.data.down > 0:
                    forum.data.down -= 1
                    return self._send(503, "<html><body>Service Unavailable</body></html>")
                known = "fbsession=ok" in (self.headers.get("Cookie") or "")
                status, body, cookie, location = _route(forum, method, self.path, form, known)
            self._send(status, body, cookie, location)

        def _send(self, status: int, body: str, cookie: bool = False, location: str = "") -> None:
            data = body.encode(forum.data.body_encoding, "replace")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=UTF-8")
            self.send_header("Date", format_datetime(forum.clock.now(), usegmt=True))
            self.send_header("Content-Length", str(len(data)))
            if cookie:
                self.send_header("Set-Cookie", "fbsession=ok; Path=/")
            if location:
                self.send_header("Location", location)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _route(forum: SMFTestForum, method: str, path: str, form: dict[str, str], logged_in: bool):
    query = path.split("?", 1)[1] if "?" in path else ""
    params = dict(re.findall(r"([a-z_]+)=([^;&#]*)", query))
    d = forum.data
    if params.get("action") == "login2" and method == "POST":
        if form.get("user") == forum.bot and form.get("passwrd") == forum.password:
            return 200, forum.page("<p>Welcome</p>", True), True, ""
        return 200, forum.page('<div class="errorbox">Password incorrect</div>', False), False, ""
    if params.get("action") == "login":
        return 200, (forum.page("", True) if logged_in else forum.login_page()), False, ""
    if not logged_in:
        return 200, forum.page("<p>Please log in</p>", False), False, ""
    if params.get("action") == "post2" and method == "POST":
        d.next_id += 1
        d.posts.append({"id": d.next_id, "author": forum.bot, "at": forum.clock.now(),
                        "body": html.escape(form.get("message", ""))})  # fmt: skip
        return 302, "", False, f"{forum.base_url}?topic={d.topic_id}.new#new"
    if params.get("action") == "post":
        if d.racing_posts:
            author, body = d.racing_posts.pop(0)
            d.next_id += 1
            d.posts.append({"id": d.next_id, "author": author, "at": forum.clock.now(),
                            "body": body})  # fmt: skip
        return 200, forum.reply_form(), False, ""
    if params.get("action") == "pm" and params.get("sa") == "send2" and method == "POST":
        to = [t.strip().strip('"') for t in form.get("to", "").split(",")]
        if unknown := [t for t in to if t in d.unknown_members]:  # SMF's answer: the form again
            error = ('<div class="errorbox">The following recipients could not be found: '
                     f"{html.escape(', '.join(unknown))}</div>")  # fmt: skip
            return 200, forum.pm_form().replace("<form", error + "<form", 1), False, ""
        d.next_id += 1
        d.sent.append({"id": d.next_id, "from": forum.bot, "to": ", ".join(to),
                       "subject": form.get("subject", ""), "at": forum.clock.now(),
                       "body": html.escape(form.get("message", ""))})  # fmt: skip
        return 302, "", False, f"{forum.base_url}?action=pm;f=inbox;done=sent"
    if params.get("action") == "pm" and params.get("sa") == "send":
        return 200, forum.pm_form(), False, ""
    if params.get("action") == "pm":
        folder = d.sent if params.get("f") == "sent" else d.inbox
        return 200, forum.pm_page(folder, True), False, ""
    if "topic" in params:
        return 200, forum.topic_page(True), False, ""
    return 200, forum.page("<p>Board index</p>", True), False, ""
