"""Commands of the runtime: init, run, status, queue, drafts and phase (extend/pause/end)."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import click
from sqlalchemy import select

from forum_adapters import ENGINES, locate
from forumbot import logs
from forumbot.bindings import bind
from forumbot.commands._common import clean_errors, echo_json
from forumbot.credentials import refuse_url_credentials
from forumbot.db.engine import default_data_dir
from forumbot.db.models import Game
from forumbot.gamecheck import load_game_ruleset
from forumbot.gamefile import BLANK, describe_unfilled, load_game_file, parse_duration
from forumbot.runtime import worker as runner
from forumbot.runtime.app import build_runtime, read_thread
from forumbot.runtime.terminal import run_queue
from forumbot.services import leases
from forumbot.services.initgame import draft_game_file
from forumbot.services.phases.controls import end_now, extend, pause, reresolve, resume
from forumbot.services.receipts import note_ran_before
from forumbot.services.status import status as game_status

DB_HELP = "Database URL (default: $FORUMBOT_DATABASE_URL, else a SQLite file)."


def _runtime(database: str | None, worker: str | None = None) -> Any:
    return build_runtime(database, worker)


@click.command(name="init")
@click.argument("url")
@click.option("--user", "username", required=True, help="The bot's forum user name.")
@click.option("--engine", default="auto", type=click.Choice(["auto", *ENGINES]))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("game.yaml"))
@click.option(
    "--cookies",
    "cookie_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Keep the login between runs in this file (as with 'forumbot forum').",
)
@clean_errors
def init(url: str, username: str, engine: str, out: Path, cookie_file: Path | None) -> None:
    """Write a game file to fill in from an existing game thread (password: $FORUMBOT_PASSWORD)."""
    refuse_url_credentials(url, "URL")
    if out.exists():
        raise click.ClickException(f"{out} exists; choose another --out")
    engine = locate(url, None if engine == "auto" else engine).engine
    reader = functools.partial(read_thread, cookie_file=cookie_file)  # each page read once
    out.write_text(draft_game_file(url, engine, username, reader), encoding="utf-8")
    click.echo(f"Wrote {out}. Fill in what is marked {BLANK}: "
               f"{describe_unfilled(load_game_file(out))}")  # fmt: skip
    click.echo(f"Then check it: forumbot game check {out}")


@click.command(name="run")
@click.argument(
    "game_files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--database", default=None, help=DB_HELP)
@click.option("--worker", default=None, help="This worker's name (default: host-pid).")
@click.option("--once", is_flag=True, help="One cycle of each game, then exit (for cron).")
@click.option("--log-json", is_flag=True, help="Logs as one JSON object per line.")
@clean_errors
def run(game_files: tuple[Path, ...], database: str | None, worker: str | None, once: bool,
        log_json: bool) -> None:  # fmt: skip
    """Run every active game: poll, parse, keep the phase clock, publish (Ctrl+C stops).

    With --once, exits with status 1 when a game's cycle failed (login refused, password
    unset, forum down...): the log above says why; the next run retries.
    """
    runner.stop_on_sigterm()
    playing = [check_game_file(path) for path in game_files]  # refused before the forum
    logs.setup(as_json=log_json)
    rt = _runtime(database, worker)
    try:  # a cron --once overlapping a worker waits a little, then leaves it the games
        with leases.one_worker(rt.engine, rt.sessions, rt.worker, rt.clock.now(),
                               wait=ONCE_WAIT if once else 0):  # fmt: skip
            _run(rt, playing, game_files, once)
    except leases.WorkerRunning as exc:
        if not once:
            raise
        click.echo(f"{exc}: this run did nothing", err=True)


ONCE_WAIT = 30.0  # seconds a --once waits for another run's lock before leaving it the games


def _run(rt: Any, playing: list[str], game_files: tuple[Path, ...], once: bool) -> None:
    """The body of ``run`` once the worker lock is held."""
    here = rt.engine.url.render_as_string(hide_password=True)
    # One game, one database: another one would answer everything again.
    since = [bind(default_data_dir(), name, here, rt.clock.now()) for name in playing]
    new_here = [not game_known(rt, name) for name in playing]
    rt.progress = runner.tty_progress()
    ids = runner.register_and_start(rt, game_files)
    for game_id, started, new in zip(ids, since, new_here, strict=True):
        if new and started is not None:  # started before, yet unknown here: a lost database
            with rt.sessions.begin() as session:
                note_ran_before(session, session.get_one(Game, game_id), started)
    if not once:
        runner.run_forever(rt)
        return
    cycled, failed = runner.run_once(rt)
    click.echo(f"cycled games: {cycled}")
    if failed:
        names = ", ".join(game_name(rt, gid) for gid in failed)
        click.echo(f"Error: the cycle failed for {names} (the log above says why); "
                   "nothing was lost, the next run retries", err=True)  # fmt: skip
        sys.exit(1)


def check_game_file(path: Path) -> str:
    """The checks of ``forumbot game check``: the file, then its ruleset and options.

    Returns:
        The game's name.

    Raises:
        ConfigError: the first wrong setting, named.
    """
    config = load_game_file(path)
    load_game_ruleset(config)
    return config.name


def game_known(rt: Any, name: str) -> bool:
    """Whether this database has the game already."""
    with rt.sessions() as session:
        return session.scalar(select(Game.id).where(Game.name == name)) is not None


def game_name(rt: Any, game_id: int) -> str:
    """A game's name for a message (its id if it cannot be read)."""
    with rt.sessions() as session:
        game = session.get(Game, game_id)
        return game.name if game is not None else f"game {game_id}"


@click.command(name="status")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@clean_errors
def status(game: str, database: str | None, as_json: bool) -> None:
    """The game at a glance: phase, time left, alive players, orders in and missing, queue."""

    info = game_status(_runtime(database), game)
    if as_json:
        echo_json(info)
        return
    for key, value in info.items():
        joiner = "; " if key == "votes" else ", "  # a wagon lists its voters with commas
        shown = joiner.join(value) if isinstance(value, list) else value
        click.echo(f"{key.replace('_', ' '):>16}: {shown}")


@click.command(name="queue")
@click.argument("game")
@click.option("--accept", "accept", type=int, help="Accept this item's candidate reading.")
@click.option("--candidate", default=1, show_default=True, help="Which candidate (1 = best).")
@click.option("--edit", "edit", type=int, help="Decide this item with --order instead.")
@click.option("--order", default="", help="Your order for --edit: 'heal Bob'.")
@click.option(
    "--phase",
    "phase",
    default=None,
    help="The phase --accept/--edit stores the order for (one the listing offers).",
)
@click.option("--reject", "reject", type=int, help="Reject this item (give --note).")
@click.option("--note", default="", help="Why (a rejection's reason is told to the player).")
@click.option("--drafts", "drafts", is_flag=True, help="List the drafts waiting for you.")
@click.option("--approve", default=None, help="Approve this draft id, or 'all'.")
@click.option("--hold", type=int, default=None, help="Hold this draft (it is not sent).")
@click.option("--gm", default="gm", help="Your name, recorded with each decision.")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def queue(game: str, database: str | None, **choice: Any) -> None:
    """The GM queue: review items (raw text, candidates, reason) and drafts to approve.

    \b
    forumbot queue GAME                          list the open items
    forumbot queue GAME --accept 12 [--candidate 2] / --edit 12 --order "heal Bob"
                       [--phase night2]          for another phase the listing offers
    forumbot queue GAME --reject 12 --note "why" the note is the reason told to the player
    forumbot queue GAME --drafts                 list the drafts waiting for you
    forumbot queue GAME --approve 31|all / --hold 31
    """

    run_queue(_runtime(database), game, click.echo, **choice)


@click.group(name="phase")
def phase() -> None:
    """GM commands on the phase: extend, end now, pause, resume, redo."""


@phase.command(name="extend")
@click.argument("game")
@click.argument("by")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def phase_extend(game: str, by: str, database: str | None) -> None:
    """Push the deadline back, e.g. ``forumbot phase extend my-game 12h``."""

    deadline = extend(_runtime(database), game, parse_duration(by, "by"))
    click.echo(f"new deadline: {deadline.isoformat()}")


@phase.command(name="end")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def phase_end(game: str, database: str | None) -> None:
    """End the open phase now (it freezes and resolves on the worker's next cycle)."""

    click.echo(f"{end_now(_runtime(database), game)} ends now")


@phase.command(name="pause")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def phase_pause(game: str, database: str | None) -> None:
    """Pause the game's clock (reading goes on)."""

    click.echo(f"game is {pause(_runtime(database), game)}")


@phase.command(name="resume")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def phase_resume(game: str, database: str | None) -> None:
    """Resume a paused game; deadlines move by the time spent paused."""

    click.echo(f"game is {resume(_runtime(database), game)}")


@phase.command(name="redo")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@clean_errors
def phase_redo(game: str, database: str | None) -> None:
    """Resolve the current phase again after a late decision (its drafts must be unsent)."""

    click.echo(f"{reresolve(_runtime(database), game)} will be resolved again on the next cycle")


COMMANDS: tuple[click.Command, ...] = (init, run, status, queue, phase)
