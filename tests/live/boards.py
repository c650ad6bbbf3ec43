"""Real forum engines on loopback for the live tests: start, query, stop (see
``../shared/live-boards/README.md``), and players who act through the boards' own forms.

A board is started once per test session in a temporary folder and stopped at the end. Tests
share it, so each test makes its own topic and reads the inbox after the newest PM it saw.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from forum_adapters import HttpSettings, PhpBBAdapter, PoliteSession, SMFAdapter
from forum_adapters.markup import parse_html
from forum_adapters.phpbb import parse as phpbb_parse
from forum_adapters.smf import parse as smf_parse

ROOT = Path(__file__).resolve().parents[2]
KIT_ENV = "FORUMBOT_LIVE_BOARDS"


def kit_dir() -> Path:
    """Where the kits are: ``$FORUMBOT_LIVE_BOARDS``, else ``../shared/live-boards`` beside the
    repository (CI's read-only copy of ``shared/``)."""
    override = os.environ.get(KIT_ENV)
    return Path(override) if override else ROOT.parent / "shared" / "live-boards"


def require_kit(*programs: str, kit: str) -> Path:
    """The kit folder, or skip the test where it (or a program it needs) is absent; in CI
    (``CI=true``) a missing kit fails instead, so live tests never vanish silently."""
    folder = kit_dir()
    missing = [] if (folder / kit).exists() else [str(folder / kit)]
    missing += [p for p in programs if shutil.which(p) is None and not Path(p).exists()]
    if missing:
        why = f"live board kit incomplete: {', '.join(missing)} not found (set ${KIT_ENV})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return folder


def _mariadbd() -> str:
    return shutil.which("mariadbd") or "/usr/sbin/mariadbd"


def quiet_http() -> PoliteSession:
    """A session for loopback: no rate spacing, one attempt per request."""
    return PoliteSession(settings=HttpSettings(rate=0, attempts=1))


@dataclass
class Board:
    """One running board: engine, folder, URL, accounts, and a way into its database."""

    engine: str  # "phpbb" or "smf"
    version: str  # "3.3", "2.1", "2.0"
    folder: Path
    kit: Path
    url: str = ""  # the adapter's base URL (phpBB: board folder with "/"; SMF: index.php)
    bot: tuple[str, str] = ("ModBot", "")
    gm: tuple[str, str] = ("GameMaster", "")
    passwords: dict[str, str] = field(default_factory=dict)
    bot_id: int = 0
    pid: int = 0
    _players: dict[str, Player] = field(default_factory=dict, repr=False)
    _web: tuple[list[str], dict[str, str], str, str] = field(default=([], {}, "", ""), repr=False)

    @property
    def script(self) -> Path:
        """The kit's control script."""
        return self.kit / ("phpbb.sh" if self.engine == "phpbb" else "smf.sh")

    @property
    def forum_url(self) -> str:
        """The board's game forum (where a new topic goes)."""
        if self.engine == "phpbb":
            return f"{self.url}viewforum.php?f=3"
        return f"{self.url}?board=2.0"

    def topic_url(self, topic_id: int) -> str:
        """A topic's first page, as a player would paste it."""
        if self.engine == "phpbb":
            return f"{self.url}viewtopic.php?t={topic_id}"
        return f"{self.url}?topic={topic_id}.0"

    # -- lifecycle ------------------------------------------------------------------------
    def start(self, port: int | None = None) -> None:
        """Start (or restart) the board's servers; reuses the folder's data."""
        args = [str(self.script), "start", str(self.folder)]
        if port:
            args.append(str(port))
        if self.engine == "smf":
            args += ["--version", self.version]
        out = subprocess.run(args, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"{' '.join(args)}: {out.stderr.strip()}"
        found = re.search(r"url=(\S+) pid=(\d+)", out.stdout)
        assert found, out.stdout + out.stderr
        base, self.pid = found.group(1), int(found.group(2))
        self.url = base if self.engine == "phpbb" else f"{base}/index.php"
        if self.engine == "smf":
            self._web = _launch_of(self.pid)

    def stop(self) -> None:
        """Stop the board's servers (their process groups only)."""
        subprocess.run([str(self.script), "stop", str(self.folder)], check=False, timeout=60,
                       capture_output=True)  # fmt: skip

    def web_pgid(self) -> int:
        """The web server's process group (it leads its own)."""
        pid_file = self.folder / ("server.pid" if self.engine == "phpbb" else "run/web.pid")
        return int(pid_file.read_text().strip()) if pid_file.exists() else self.pid

    def restart(self) -> None:
        """Start the board's web server again on the same port and data (after a test stopped
        it), stopping first whatever of it still runs.

        phpBB: ``phpbb.sh`` stops and starts ``php -S`` at once (it binds with SO_REUSEADDR).
        SMF: ``smf.sh start`` refuses a port that still has connections in TIME_WAIT (up to
        a minute after the server that closed them died), so the web server the kit started
        is relaunched as the kit launched it: the same command line, environment, folder and
        log, read from ``/proc`` when the board started; MariaDB keeps running."""
        if self.engine == "phpbb":
            self.stop()
            self.start(self.port)
            return
        _stop_group(self.web_pgid())
        argv, env, cwd, log = self._web
        with open(log, "ab") as out:
            web = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=out, start_new_session=True)  # fmt: skip
        threading.Thread(target=web.wait, daemon=True).start()  # reaped when it stops
        (self.folder / "run" / "web.pid").write_text(f"{web.pid}\n", encoding="utf-8")
        self.pid = web.pid
        quiet = quiet_http()
        for _ in range(200):
            try:
                if quiet.session.get(self.url, timeout=5).status_code == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"SMF's web server did not answer again on {self.url}")

    @property
    def port(self) -> int:
        """The web server's port."""
        found = re.search(r":(\d+)", self.url.split("//", 1)[1])
        assert found
        return int(found.group(1))

    # -- the database ---------------------------------------------------------------------
    def sql(self, query: str) -> list[tuple[str, ...]]:
        """Run SQL on the board's own database; rows as strings (no header)."""
        if self.engine == "phpbb":
            with sqlite3.connect(self.folder / "board.sqlite3") as db:
                rows = db.execute(query).fetchall()
            return [tuple("" if v is None else str(v) for v in row) for row in rows]
        out = subprocess.run([str(self.script), "sql", str(self.folder), query], check=True,
                             capture_output=True, text=True, timeout=60)  # fmt: skip
        lines = [line for line in out.stdout.splitlines() if line]
        return [tuple(line.split("\t")) for line in lines[1:]]

    def set_flood(self, seconds: int) -> None:
        """Set the post/PM flood interval (phpBB per user, SMF per IP)."""
        if self.engine == "phpbb":
            self.cli("config:set", "flood_interval", str(seconds))
        else:
            self.sql(f"UPDATE smf_settings SET value='{seconds}' WHERE variable='spamWaitTime'")

    def set_pm_limit(self, per_hour: int) -> None:
        """SMF: the PMs an ordinary member may send an hour (0: none; stock 20)."""
        self.sql(f"UPDATE smf_settings SET value='10,5,{per_hour}' "
                 "WHERE variable='pm_spam_settings'")  # fmt: skip

    def cli(self, *args: str) -> str:
        """phpBB's own console on this board."""
        out = subprocess.run([str(self.script), "cli", str(self.folder), *args], check=True,
                             capture_output=True, text=True, timeout=60)  # fmt: skip
        return out.stdout

    def end_sessions(self, user_id: int) -> None:
        """Delete a member's sessions and autologin keys on the board (logged out for real)."""
        if self.engine == "phpbb":
            self.sql(f"DELETE FROM phpbb_sessions WHERE session_user_id = {user_id}")
            self.sql(f"DELETE FROM phpbb_sessions_keys WHERE user_id = {user_id}")
        else:
            self.sql("DELETE FROM smf_sessions")
            self.sql(
                f"UPDATE smf_members SET password_salt = 'x{user_id}' WHERE id_member = {user_id}"
            )

    def post_url(self) -> str:
        """The URL pattern of a reply's POST."""
        return r"posting\.php\?mode=reply" if self.engine == "phpbb" else r"action=post2"

    def pm_url(self) -> tuple[str, str]:
        """The URL pattern of a PM's sending POST, and a field only that POST carries."""
        if self.engine == "phpbb":
            return r"ucp\.php\?i=pm&mode=compose", "post"
        return r"action=pm;sa=send2", "message"

    # -- language packs -------------------------------------------------------------------
    def install_language(self, code: str, name: str, strings: dict[str, str]) -> None:
        """Install a language pack on the board: its English files copied under the new
        language, with ``strings`` (language key -> translation) put in place of the English
        ones, as a translated pack has them. The page structure is the engine's own."""
        if self.engine == "phpbb":
            target = self.folder / "phpBB" / "language" / code
            if not target.exists():
                shutil.copytree(target.parent / "en", target)
                self.sql(f"INSERT INTO phpbb_lang (lang_iso, lang_dir, lang_english_name, "
                         f"lang_local_name, lang_author) VALUES ('{code}', '{code}', '{name}', "
                         f"'{name}', 'tests')")  # fmt: skip
            overrides = "".join(f"\n$lang[{_php(k)}] = {_php(v)};" for k, v in strings.items())
            for file in ("common.php", "posting.php", "ucp.php"):
                with (target / file).open("a", encoding="utf-8") as out:
                    out.write(overrides + "\n")
            return
        folder = self.folder / "forum" / "Themes" / "default" / "languages"
        overrides = "".join(f"\n$txt[{_php(k)}] = {_php(v)};" for k, v in strings.items())
        for english in folder.glob("*.english.php"):
            copy = english.with_name(english.name.replace(".english.", f".{name.lower()}."))
            text = english.read_text(encoding="utf-8").rstrip()
            text = text[:-2].rstrip() if text.endswith("?>") else text
            extra = overrides if english.name.split(".")[0] in ("Errors", "Post", "index") else ""
            copy.write_text(f"{text}{extra}\n", encoding="utf-8")

    def set_bot_language(self, language: str) -> None:
        """The bot's account reads the board in ``language`` (phpBB dir, SMF file name)."""
        if self.engine == "phpbb":
            self.sql(
                f"UPDATE phpbb_users SET user_lang = '{language}' WHERE user_id = {self.bot_id}"
            )
        else:
            self.sql(
                f"UPDATE smf_members SET lngfile = '{language}' WHERE id_member = {self.bot_id}"
            )

    # -- what the board saw ---------------------------------------------------------------
    def log_lines(self) -> list[str]:
        """The web server's request lines so far (one per request)."""
        if self.engine == "phpbb":
            text = (self.folder / "logs" / "access.log").read_text(errors="replace")
            return [line for line in text.splitlines() if re.search(r"\[\d{3}\]: [A-Z]+ ", line)]
        text = (self.folder / "logs" / "web.log").read_text(errors="replace")
        return [line for line in text.splitlines() if re.search(r"\[\d{3}\]: [A-Z]+ ", line)]

    def posts_by(self, user_id: int, topic_id: int) -> list[tuple[int, str]]:
        """(post id, raw text) of a member's posts in a topic, from the database."""
        if self.engine == "phpbb":
            rows = self.sql(f"SELECT post_id, post_text FROM phpbb_posts WHERE poster_id={user_id}"
                            f" AND topic_id={topic_id} ORDER BY post_id")  # fmt: skip
        else:
            rows = self.sql(f"SELECT id_msg, REPLACE(body, CHAR(10), ' ') FROM smf_messages "
                            f"WHERE id_member={user_id}"
                            f" AND id_topic={topic_id} ORDER BY id_msg")  # fmt: skip
        return [(int(r[0]), r[1] if len(r) > 1 else "") for r in rows]

    def pms_from(self, user_id: int) -> list[tuple[int, str, str, str]]:
        """(PM id, subject, recipient names comma-joined, raw text) of every PM a member
        sent, oldest first."""
        if self.engine == "phpbb":
            rows = self.sql(
                "SELECT m.msg_id, m.message_subject, group_concat(u.username, ','), "
                "replace(m.message_text, char(10), ' ') FROM "
                "phpbb_privmsgs m JOIN phpbb_privmsgs_to t ON t.msg_id = m.msg_id AND "
                f"t.user_id != m.author_id JOIN phpbb_users u ON u.user_id = t.user_id "
                f"WHERE m.author_id = {user_id} GROUP BY m.msg_id ORDER BY m.msg_id"
            )
        else:
            rows = self.sql(
                "SELECT p.id_pm, p.subject, GROUP_CONCAT(m.member_name ORDER BY m.id_member), "
                "REPLACE(REPLACE(p.body, CHAR(10), ' '), CHAR(9), ' ') FROM "
                "smf_personal_messages p JOIN smf_pm_recipients r ON r.id_pm = p.id_pm JOIN "
                f"smf_members m ON m.id_member = r.id_member WHERE p.id_member_from = {user_id} "
                "GROUP BY p.id_pm ORDER BY p.id_pm"
            )
        return [(int(r[0]), r[1], r[2], r[3]) for r in rows]

    # -- who acts on it -------------------------------------------------------------------
    def adapter(self, name: str | None = None, **kwargs: Any) -> PhpBBAdapter | SMFAdapter:
        """The real adapter logged in as ``name`` (the bot by default), fast on loopback."""
        user = name or self.bot[0]
        password = self.bot[1] if user == self.bot[0] else self.passwords[user]
        cls = PhpBBAdapter if self.engine == "phpbb" else SMFAdapter
        kwargs.setdefault("http", quiet_http())
        kwargs.setdefault("post_interval", 0)
        return cls(self.url, user, password, **kwargs)

    def player(self, name: str) -> Player:
        """A player acting through the board's forms (one logged-in session per name).

        On phpBB a player's waits end at the next tick of the wall clock when that comes
        first: the board runs on this machine's clock, and the wait that matters to a player
        there is phpBB's refusal of a form submitted in the second it was made (the bot's
        adapter waits ``FORM_MIN_AGE``, 2.1 s, for a remote board's clock; a player here
        needs at most 1 s, and the adapter still takes a fresh form if the board refuses
        one). SMF players wait as the adapter says (its login flood control needs it)."""
        if name not in self._players:
            sleep = _until_tick if self.engine == "phpbb" else time.sleep
            http = PoliteSession(settings=HttpSettings(rate=0, attempts=1), sleep=sleep)
            self._players[name] = Player(self, name, self.adapter(name, http=http))
        return self._players[name]


@dataclass
class Player:
    """A member who posts, edits and sends PMs through the board's forms (as a browser would:
    load the form, fill it, submit)."""

    board: Board
    name: str
    adapter: PhpBBAdapter | SMFAdapter

    def new_topic(self, subject: str, body: str) -> int:
        """Open a topic in the game forum; returns its id."""
        if isinstance(self.adapter, PhpBBAdapter):
            url = f"{self.board.url}posting.php?mode=post&f=3"
        else:
            url = f"{self.board.url}?action=post;board=2.0"
        answer = self._submit(url, subject=subject, message=body)
        found = re.search(r"[?&;]t(?:opic)?=(\d+)", answer.url)
        assert found, f"no topic id after posting a topic: {answer.url}"
        return int(found.group(1))

    def reply(self, topic_id: int, body: str) -> int:
        """Reply in a topic through the reply form; returns the new post id."""
        from forum_adapters import ThreadRef

        for _ in range(5):
            try:
                return int(self.adapter.reply(ThreadRef(topic_id), body).post_id)
            except Exception as exc:  # someone posted meanwhile: a player just reloads
                if type(exc).__name__ != "ReplyRefusedNewerPost":
                    raise
                self.adapter._last_seen.pop(topic_id, None)
        raise AssertionError("could not reply")

    def edit(self, topic_id: int, post_id: int, body: str) -> None:
        """Edit one of this player's posts through the edit form."""
        if isinstance(self.adapter, PhpBBAdapter):
            self._submit(f"{self.board.url}posting.php?mode=edit&p={post_id}", message=body)
        else:
            url = f"{self.board.url}?action=post;msg={post_id};topic={topic_id}.0"
            self._submit(url, message=body)

    def send_pm(self, to: list[str], subject: str, body: str) -> int:
        """Send a PM through the compose form; returns its id (from the board's database)."""
        self.adapter.send_pm(to, subject, body)
        me = self.adapter.user_id
        return max(row[0] for row in self.board.pms_from(int(me or 0)))

    def _submit(self, form_url: str, **values: str) -> Any:
        """Load a form, fill it in and submit it; after a flood refusal, wait as a patient
        player would and start again with a fresh form (SMF's ``seqnum`` is one-use)."""
        for _ in range(4):
            if isinstance(self.adapter, PhpBBAdapter):
                form = self.adapter._load_form(form_url, "post")
                fields = form.with_values(**values, post="Submit")
            else:
                root, _ = self.adapter.fetch(form_url, what="post")
                found = smf_parse.post_form(root, self.board.url)
                assert found is not None, f"no form at {form_url}"
                form = found
                fields = form.with_values(**values, goback="1", **_smf_submit(form.submits))
            answer = self.adapter.http.post(form.action, fields)
            parser = phpbb_parse if self.board.engine == "phpbb" else smf_parse
            message = parser.error_message(parse_html(answer.content)) or ""
            if not re.search(r"less than|so soon|flood", message, re.I):
                assert not message, message
                return answer
            time.sleep(6)
        raise AssertionError("flood control never let the player post")


def _until_tick(seconds: float) -> None:
    """Sleep ``seconds``, or only until just after the wall clock's next whole second."""
    time.sleep(max(0.0, min(seconds, 1.02 - time.time() % 1.0)))


def _launch_of(pid: int) -> tuple[list[str], dict[str, str], str, str]:
    """How a running process was launched: its command line, environment, working folder
    and the file its standard output goes to (Linux ``/proc``)."""
    proc = Path(f"/proc/{pid}")
    argv = proc.joinpath("cmdline").read_bytes().decode().split("\0")[:-1]
    pairs = proc.joinpath("environ").read_bytes().decode().split("\0")[:-1]
    env = dict(pair.split("=", 1) for pair in pairs)
    return argv, env, os.readlink(proc / "cwd"), os.readlink(proc / "fd" / "1")


def _stop_group(pgid: int) -> None:
    """TERM a process group that may already be gone, and wait until it is."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(pgid, signal.SIGKILL)


def _php(text: str) -> str:
    """A PHP single-quoted string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _smf_submit(submits: dict[str, str]) -> dict[str, str]:
    return {"post": submits["post"]} if "post" in submits else {}


PHPBB_PLAYERS = ["Conia", "Akonyl", "bob", "Kleene", "Zoé", "Маша", "CTU", "Mr Fox"]
SMF_PLAYERS = ["Conia", "Akonyl", "CTU", "bob", "Kleene", "Zoé", "Маша", "Dr Watson", "player_42"]


def start_board(kind: str, folder: Path) -> Board:
    """Start a fresh board of ``kind`` ("phpbb", "smf21", "smf20") in ``folder``."""
    if kind == "phpbb":
        kit = require_kit("php", kit="phpbb-3.3.10.tar.gz")
        board = Board("phpbb", "3.3", folder, kit, bot=("ModBot", "modbot123"),
                      gm=("GameMaster", "gamemaster123"), bot_id=58,
                      passwords=dict.fromkeys(PHPBB_PLAYERS, "player123"))  # fmt: skip
        board.passwords["GameMaster"] = "gamemaster123"
    else:
        version = "2.1" if kind == "smf21" else "2.0"
        tarball = "smf-2.1.4.tar.gz" if version == "2.1" else "smf-2.0.19.tar.gz"
        kit = require_kit("php", "curl", _mariadbd(), kit=tarball)
        board = Board("smf", version, folder, kit, bot=("ModBot", "ModBotPass1"),
                      gm=("GameMaster", "GMpass2026"), bot_id=2,
                      passwords=dict.fromkeys(SMF_PLAYERS, "PlayerPass1"))  # fmt: skip
        board.passwords["GameMaster"] = "GMpass2026"
    board.start()
    return board
