"""forumbot's own command line, run as a separate process against a live board (as the GM
runs it: its own database file, its own data folder, the password in the environment)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from forumbot.cli import main
from tests.live.boards import ROOT, Board

PASSWORD_ENV = "FORUMBOT_PASSWORD"


@dataclass
class BotCli:
    """``forumbot ...`` for one game on one board, in ``workdir``."""

    board: Board
    workdir: Path

    @property
    def database(self) -> str:
        """The bot's own database (SQLite in the work folder)."""
        return f"sqlite:///{self.workdir / 'fb.sqlite3'}"

    def env(self) -> dict[str, str]:
        """The environment of a bot process: password, data folder, database."""
        env = dict(os.environ)
        env.update({PASSWORD_ENV: self.board.bot[1], "XDG_DATA_HOME": str(self.workdir / "data"),
                    "FORUMBOT_DATABASE_URL": self.database, "PYTHONUNBUFFERED": "1"})  # fmt: skip
        return env

    def __call__(self, *args: str, ok: bool = True, timeout: float = 300) -> str:
        """Run ``forumbot ARGS`` (its real command line, in this process: a new Python for
        each command cost 4-7 s of imports on the loaded CI machine); its output (stdout and
        stderr). Asserts success when ``ok``, and that it took at most ``timeout`` seconds
        (it cannot be cut short in-process). The fault runs stay separate processes."""
        began = time.monotonic()
        overrides = {k: v for k, v in self.env().items() if os.environ.get(k) != v}
        with contextlib.chdir(self.workdir):
            done = CliRunner().invoke(main, list(args), env=overrides, catch_exceptions=True)
        crash = ""
        if done.exception is not None and not isinstance(done.exception, SystemExit):
            crash = "".join(traceback.format_exception(done.exception))
        out = done.stdout + done.stderr + crash
        self.stdout = done.stdout
        if ok:
            assert done.exit_code == 0, f"forumbot {' '.join(args)} failed:\n{out}"
        took = time.monotonic() - began
        assert took <= timeout, f"forumbot {' '.join(args)} took {took:.0f} s (> {timeout:g})"
        return out

    def faulty(self, fault: str, url: str, *args: str, field: str = "message") -> int:
        """Run ``forumbot ARGS`` with ``fault`` ("kill" or "stop-web") right after the first
        POST to a URL matching ``url`` that carries form field ``field``; its exit code."""
        env = self.env()
        env.update(FAULT=fault, FAULT_URL=url, FAULT_FIELD=field, PYTHONPATH=str(ROOT),
                   FAULT_WEB_PGID=str(self.board.web_pgid()))  # fmt: skip
        done = subprocess.run([sys.executable, "-m", "tests.live.faulty_run", *args], env=env,
                              capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
        self.last_output = done.stdout + done.stderr
        return done.returncode

    def forum(self, command: str, *args: str, url: str | None = None) -> str:
        """``forumbot forum COMMAND`` as the bot."""
        return self(
            "forum", command, "--url", url or self.board.url, "--user", self.board.bot[0],
            "--password-env", PASSWORD_ENV, "--rate", "0", *args,
        )  # fmt: skip

    def start_game(self, topic_url: str, roles: dict[str, str]) -> Path:
        """``forumbot init`` on the topic, roles filled in, the game starting now."""
        game = self.workdir / "game.yaml"
        self("init", topic_url, "--user", self.board.bot[0], "--out", str(game))
        data = yaml.safe_load(game.read_text(encoding="utf-8"))
        for player in data["players"]:
            player["role"] = roles[player["name"]]
        data["ruleset"] = "failheap"  # the GM fills in what init left blank (FILL_IN)
        data["credentials"]["password_env"] = PASSWORD_ENV
        data["forum"].update(requests_per_second=5, post_interval=0)
        data["votes"] = {"syntax": ["bold_vote"]}
        now = datetime.now(UTC)
        data["schedule"].update(start=now.strftime("%Y-%m-%d %H:%M"), timezone="UTC",
                                day={"length": "48h", "starts": now.strftime("%H:%M")},
                                night={"length": "24h"})  # fmt: skip
        game.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        self.name = str(data["name"])
        return game

    def reject_queue(self, note: str) -> list[int]:
        """The GM rejects every open queue item (``forumbot queue``), until none is left."""
        done: list[int] = []
        for _ in range(3):
            listing = self("queue", self.name)
            items = [int(n) for n in re.findall(r"^#(\d+) \[", listing, re.M)]
            if not items:
                break
            for item in items:
                self("queue", self.name, "--reject", str(item), "--note", note, "--gm",
                     "GameMaster", ok=False)  # fmt: skip
            done += items
        return done

    def status(self) -> dict[str, Any]:
        """``forumbot status GAME --json``."""
        self("status", self.name, "--json")
        return dict(json.loads(self.stdout))
