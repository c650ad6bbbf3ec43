"""``forumbot game start`` and ``forumbot player ...``: the start of a game and its roster.

\b
forumbot game start GAME [--opening | --opening-file FILE]   role PMs (and the opening post)
forumbot player list GAME                                      slots, changes, substitutes
forumbot player replace GAME OLD NEW                           NEW takes OLD's slot
forumbot player modkill GAME NAME                              NAME is out (announced)
forumbot player leave GAME NAME [--sub NEW|next]               replaced, else modkilled
forumbot player sub GAME --add NAME / --remove NAME            the substitutes' list
forumbot player penalty GAME NAME --rule RULE [--penalty P]     a host penalty this Day

Every command takes ``--json`` (stable fields, see docs/running.md) and ``--database URL``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from forumbot.commands._common import clean_errors, echo_json
from forumbot.db.models import Game

DB_HELP = "Database URL (default: $FORUMBOT_DATABASE_URL, else a SQLite file)."


def _runtime(database: str | None) -> Any:
    from forumbot.runtime.app import build_runtime

    return build_runtime(database, None)


@click.command(name="start")
@click.argument("game")
@click.option("--opening", is_flag=True, help="Also draft the opening post (from the template).")
@click.option("--opening-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Also draft the opening post, with this BBCode text.")  # fmt: skip
@click.option("--database", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@clean_errors
def start(game: str, opening: bool, opening_file: Path | None, database: str | None,
          as_json: bool) -> None:  # fmt: skip
    """Draft every player's role PM (and the opening post) for your approval.

    GAME is a game file (registered first, as 'run' does) or a registered game's name.
    The drafts are approved with 'forumbot queue GAME --approve ...' (at once when the
    game auto-posts) and sent once by 'forumbot run'. Running it again drafts nothing new.
    """
    from forumbot.services import games
    from forumbot.services.start import draft_start

    rt = _runtime(database)
    ref: str | int = games.register(rt, game) if Path(game).is_file() else game
    text = opening_file.read_text(encoding="utf-8") if opening_file else None
    with rt.sessions.begin() as session:
        row = games.find(session, ref)
        drafted = draft_start(session, row, opening=opening, opening_text=text)
        name = row.name
    if as_json:
        echo_json({"game": name, "messages": [
            {"id": d.id, "key": d.key, "kind": d.kind, "to": list(d.to), "state": d.state,
             "new": d.new} for d in drafted]})  # fmt: skip
        return
    for d in drafted:
        what = f"role PM to {', '.join(d.to)}" if d.to else "opening post"
        click.echo(f"  #{d.id} {what}: {d.state}{'' if d.new else ' (drafted before)'}")
    click.echo(f"{sum(d.new for d in drafted)} new draft(s); approve them with "
               f"'forumbot queue {name} --drafts' then --approve")  # fmt: skip


@click.group(name="player")
def player() -> None:
    """Roster changes: replace a player, modkill, a player leaving, substitutes."""


def _change(database: str | None, game: str, as_json: bool,
            act: Callable[[Any, Game, Any], Any]) -> None:  # fmt: skip
    """Run one roster change in one transaction and print it."""
    from forumbot.services import games

    rt = _runtime(database)
    with rt.sessions.begin() as session:
        row = games.find(session, game)
        view = act(session, row, rt.clock.now())
    if as_json:
        echo_json(view.as_json())
        return
    what = f"{view.player} -> {view.new_player}" if view.new_player else view.player
    shown = f"; role shown: {view.role}" if view.revealed else ""
    click.echo(f"{view.kind} #{view.id}: {what} ({view.phase or 'before the first phase'}){shown}")
    click.echo(f"the post is drafted: forumbot queue {game} --drafts")


def _gm(name: str) -> str:
    return name if name.startswith("gm:") else f"gm:{name}"


COMMON = [
    click.option("--note", default="", help="Why (kept with the change)."),
    click.option("--gm", default="gm", help="Your name, recorded with the change."),
    click.option("--database", default=None, help=DB_HELP),
    click.option("--json", "as_json", is_flag=True),
]


def _common(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(COMMON):
        func = option(func)
    return func


@player.command(name="replace")
@click.argument("game")
@click.argument("old")
@click.argument("new")
@click.option("--user-id", default=None, help="The new account's forum user id, if known.")
@_common
@clean_errors
def replace(game: str, old: str, new: str, user_id: str | None, note: str, gm: str,
            database: str | None, as_json: bool) -> None:  # fmt: skip
    """NEW takes OLD's slot: role, votes, orders, receipts and result PMs follow the slot."""
    from forumbot.services import roster

    _change(database, game, as_json, lambda s, g, now: roster.replace(
        s, g, old, new, by=_gm(gm), at=now, user_id=user_id, note=note))  # fmt: skip


@player.command(name="modkill")
@click.argument("game")
@click.argument("name")
@_common
@clean_errors
def modkill(game: str, name: str, note: str, gm: str, database: str | None,
            as_json: bool) -> None:  # fmt: skip
    """NAME is removed from the game (dead from now on), announced in a drafted post."""
    from forumbot.services import roster

    _change(database, game, as_json, lambda s, g, now: roster.modkill(
        s, g, name, by=_gm(gm), at=now, note=note))  # fmt: skip


@player.command(name="leave")
@click.argument("game")
@click.argument("name")
@click.option("--sub", "substitute", default=None,
              help="Who takes the slot ('next': the first substitute waiting).")  # fmt: skip
@_common
@clean_errors
def leave(game: str, name: str, substitute: str | None, note: str, gm: str,
          database: str | None, as_json: bool) -> None:  # fmt: skip
    """NAME leaves the game: replaced by --sub, else removed like a modkill."""
    from forumbot.services import roster

    _change(database, game, as_json, lambda s, g, now: roster.leave(
        s, g, name, by=_gm(gm), at=now, substitute=substitute, note=note))  # fmt: skip


@player.command(name="sub")
@click.argument("game")
@click.option("--add", "added", default=None, help="Put this account on the list.")
@click.option("--remove", "removed", default=None, help="Take this account off the list.")
@click.option("--database", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@clean_errors
def sub(game: str, added: str | None, removed: str | None, database: str | None,
        as_json: bool) -> None:  # fmt: skip
    """The substitutes waiting to replace a player (first come first)."""
    from forumbot.services import games, roster

    rt = _runtime(database)
    with rt.sessions.begin() as session:
        row = games.find(session, game)
        if added:
            roster.add_substitute(row, added)
        if removed:
            roster.remove_substitute(row, removed)
        waiting = roster.substitutes(row)
    if as_json:
        echo_json({"game": game, "substitutes": waiting})
        return
    click.echo("substitutes: " + (", ".join(waiting) or "none"))


@player.command(name="penalty")
@click.argument("game")
@click.argument("name", required=False)
@click.option("--rule", default=None,
              help="The rule broken (Russian mafia: no_avatar п.15, role_reveal п.18, "
                   "late_post п.09а).")  # fmt: skip
@click.option("--penalty", "punishment", default=None,
              help="For role_reveal: log_today, log_permanent or lightning "
                   "(default: the ruleset's role_reveal_penalty option).")  # fmt: skip
@click.option("--post", default=None, help="The post that broke it (its id), kept with it.")
@click.option("--cancel", "cancelled", type=int, default=None,
              help="Withdraw penalty #ID before its Day resolves.")  # fmt: skip
@click.option("--list", "listing", is_flag=True, help="List the penalties entered.")
@_common
@clean_errors
def penalty(game: str, name: str | None, rule: str | None, punishment: str | None,
            post: str | None, cancelled: int | None, listing: bool, note: str, gm: str,
            database: str | None, as_json: bool) -> None:  # fmt: skip
    """A host penalty for NAME in the Day being played («+1 в лог», seed 004 п.09а/п.15/п.18).

    It weighs in that Day's vote log when the Day resolves; --cancel ID withdraws it before.
    """
    from forumbot.services import games, penalties

    entering = bool(name or rule)
    if listing + (cancelled is not None) + entering != 1 or (entering and not (name and rule)):
        raise click.UsageError("give NAME and --rule, or --cancel ID, or --list")
    rt = _runtime(database)
    with rt.sessions.begin() as session:
        row = games.find(session, game)
        if listing:
            views = penalties.listed(session, row)
        elif cancelled is not None:
            views = [penalties.cancel(session, row, cancelled, by=_gm(gm), at=rt.clock.now())]
        else:
            assert name and rule
            views = [penalties.record(session, row, name, rule, by=_gm(gm), at=rt.clock.now(),
                                      penalty=punishment, post=post, note=note)]  # fmt: skip
    if as_json:
        echo_json({"game": game, "penalties": [v.as_json() for v in views]})
        return
    for v in views:
        shown = f", {v.penalty}" if v.penalty else ""
        click.echo(f"penalty #{v.id}: {v.player}, {v.rule}{shown}, {v.phase} ({v.status})")
    if not views:
        click.echo("no penalty entered")
    elif not listing and cancelled is None:
        click.echo("it weighs in this Day's vote log when the Day resolves")


@player.command(name="list")
@click.argument("game")
@click.option("--database", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True)
@clean_errors
def list_players(game: str, database: str | None, as_json: bool) -> None:
    """The slots (who holds each now), every roster change, the substitutes."""
    from forumbot.services import games, roster

    rt = _runtime(database)
    with rt.sessions() as session:
        row = games.find(session, game)
        players = [{"slot": p.slot, "name": p.display_name, "status": p.status.value}
                   for p in row.players]  # fmt: skip
        data: dict[str, Any] = {"game": row.name, "players": players,
                "changes": [c.as_json() for c in roster.changes(session, row.id)],
                "substitutes": roster.substitutes(row)}  # fmt: skip
    if as_json:
        echo_json(data)
        return
    for p in players:
        click.echo(f"  {p['slot']:>2} {p['name']} ({p['status']})")
    for c in data["changes"]:
        new = f" -> {c['new_player']}" if c["new_player"] else ""
        click.echo(f"  #{c['id']} {c['at']} {c['kind']}: {c['player']}{new} by {c['by']}")
    click.echo("substitutes: " + (", ".join(data["substitutes"]) or "none"))


COMMANDS: tuple[click.Command, ...] = (player,)
