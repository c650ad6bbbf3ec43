"""``forumbot forum ...``: check a forum setup by hand (log in, read the topic and the inbox,
send a test PM, post a test reply). The password never appears in output or errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click

from forum_adapters import ENGINES, Adapter, Post, PostId, PrivateMessage, ThreadRef, connect
from forum_adapters.base import PMId
from forum_adapters.detect import ForumLocation
from forum_adapters.http import DEFAULT_RATE, HttpSettings
from forumbot.commands._common import clean_errors, echo_json
from forumbot.credentials import DEFAULT_PASSWORD_ENV, read_password, refuse_url_credentials
from forumbot.errors import ConfigError


def _connection_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--url", required=True, help="Topic URL (or board URL for check/inbox)."),
        click.option("--user", "username", default="", help="The bot's forum user name."),
        click.option(
            "--password-env",
            default=DEFAULT_PASSWORD_ENV,
            show_default=True,
            help="Environment variable holding the password.",
        ),
        click.option(
            "--password-file",
            type=click.Path(dir_okay=False, path_type=Path),
            help="File holding the password (chmod 600); wins over --password-env.",
        ),
        click.option(
            "--cookies",
            "cookie_file",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Keep the login between runs in this file (written with mode 0600).",
        ),
        click.option(
            "--rate",
            type=float,
            default=DEFAULT_RATE,
            show_default=True,
            help="At most this many requests per second (0: no spacing).",
        ),
        click.option(
            "--tz",
            default=None,
            help="The bot's time zone on the forum (default: as its pages show, else UTC).",
        ),
        click.option(
            "--guest",
            is_flag=True,
            help="Read a public topic without logging in (no password needed).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _open(opts: dict[str, Any]) -> tuple[Adapter, ForumLocation]:
    refuse_url_credentials(opts["url"], "--url")
    password = None
    if not opts["guest"] and not opts["username"]:
        raise ConfigError("--user", "give the bot's forum user name (or --guest to only read)")
    if not opts["guest"]:
        password = read_password(
            env=opts["password_env"], file=opts["password_file"], setting="forum"
        )
    zone = None
    if opts["tz"]:
        try:
            zone = ZoneInfo(opts["tz"])
        except (ValueError, ZoneInfoNotFoundError):
            problem = f"{opts['tz']!r} is not a time zone (try Europe/Paris)"
            raise ConfigError("--tz", problem) from None
    return connect(
        opts["url"],
        opts["username"],
        password,
        cookie_file=opts["cookie_file"],
        settings=HttpSettings(rate=opts["rate"]),
        tz=zone,
    )


def _thread(adapter: Adapter, location: ForumLocation) -> ThreadRef:
    if location.topic_id is not None:
        return ThreadRef(location.topic_id, location.topic_url)
    if location.post_id is not None:
        url = adapter.url("post", post=location.post_id)
        page = adapter.topic_page(url, 0)
        return ThreadRef(page.topic_id)
    raise ConfigError("--url", f"{location.base_url} names no topic; give a topic URL")


def _post_json(post: Post) -> dict[str, Any]:
    return {
        "post_id": post.post_id,
        "topic_id": post.topic_id,
        "page": post.page,
        "author": {"id": post.author.id, "name": post.author.name},
        "posted_at": post.posted_at.isoformat(),
        "edited_at": post.edited_at.isoformat() if post.edited_at else None,
        "edited_by": post.edited_by,
        "subject": post.subject,
        "body_html": post.body_html,
    }


def _pm_json(pm: PrivateMessage) -> dict[str, Any]:
    return {
        "pm_id": pm.pm_id,
        "sender": {"id": pm.sender.id, "name": pm.sender.name},
        "recipients": [{"id": r.id, "name": r.name} for r in pm.recipients],
        "sent_at": pm.sent_at.isoformat(),
        "subject": pm.subject,
        "body_html": pm.body_html,
        "was_unread": pm.was_unread,
    }


@click.group(name="forum")
def forum() -> None:
    """Check a forum setup: log in, read the topic and the inbox, send a test PM or reply."""


@forum.command(name="check")
@_connection_options
@clean_errors
def check(**opts: Any) -> None:
    """Log in, then read the topic's first page (if --url names one) and the inbox list."""
    adapter, location = _open(opts)
    if not adapter.guest:
        adapter.login()
        adapter.save_cookies()
    click.echo(f"engine: {adapter.engine}  forum: {location.base_url}")
    if adapter.guest:
        click.echo("reading as a guest (public topics only)")
    else:
        click.echo(f"logged in as {adapter.username} (member id {adapter.user_id or '?'})")
    if location.topic_id is not None or location.post_id is not None:
        thread = _thread(adapter, location)
        page = adapter.topic_page(adapter.url("topic", topic=thread.topic_id, start=0), 0)
        click.echo(
            f"topic {thread.topic_id} {page.title!r}: {page.last_page} page(s), "
            f"{len(page.posts)} post(s) on page 1, first by {page.posts[0].author.name}"
        )
    if adapter.guest:
        click.echo(f"requests made: {adapter.http.request_count} (guest: no inbox)")
        return
    rows = adapter.inbox_page().rows
    if rows:
        newest = max(rows, key=lambda row: row.pm_id)
        click.echo(f"inbox: newest PM #{newest.pm_id} from {newest.sender.name}: {newest.subject}")
    else:
        click.echo("inbox: empty")
    click.echo(f"note: {ENGINES[adapter.engine].inbox_note}")
    click.echo(f"limits: {ENGINES[adapter.engine].limits_note}")
    click.echo(f"requests made: {adapter.http.request_count}")


@forum.command(name="topic")
@_connection_options
@click.option("--after", type=int, default=None, help="Only posts after this post id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def topic(after: int | None, as_json: bool, **opts: Any) -> None:
    """List the topic's posts (all, or those after --after)."""
    adapter, location = _open(opts)
    thread = _thread(adapter, location)
    posts = list(adapter.iter_posts(thread, after=PostId(after) if after else None))
    adapter.save_cookies()
    if as_json:
        echo_json(
            {
                "engine": adapter.engine,
                "topic_id": thread.topic_id,
                "posts": [_post_json(p) for p in posts],
            }
        )
        return
    for post in posts:
        edit = (
            f" (edited {post.edited_at:%Y-%m-%d %H:%M} by {post.edited_by})"
            if post.edited_at
            else ""
        )
        when = f"{post.posted_at:%Y-%m-%d %H:%M:%S}Z"
        click.echo(f"#{post.post_id} p{post.page} {when} {post.author.name}{edit}")


@forum.command(name="inbox")
@_connection_options
@click.option("--after", type=int, default=None, help="Only PMs after this PM id.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@clean_errors
def inbox(after: int | None, as_json: bool, **opts: Any) -> None:
    """List the inbox's PMs (all, or those after --after), oldest first."""
    adapter, _ = _open(opts)
    pms = list(adapter.iter_pms(after=PMId(after) if after else None))
    adapter.save_cookies()
    if as_json:
        echo_json(
            {
                "engine": adapter.engine,
                "pms": [_pm_json(pm) for pm in pms],
                "note": ENGINES[adapter.engine].inbox_note,
            }
        )
        return
    for pm in pms:
        to = ", ".join(r.name for r in pm.recipients)
        click.echo(
            f"#{pm.pm_id} {pm.sent_at:%Y-%m-%d %H:%M}Z from {pm.sender.name} to {to}: {pm.subject}"
        )
    click.echo(f"note: {ENGINES[adapter.engine].inbox_note}", err=True)


@forum.command(name="send-pm")
@_connection_options
@click.option("--to", "recipients", multiple=True, required=True, help="Recipient (repeat).")
@click.option("--subject", required=True)
@click.option("--body", required=True, help="Message text (BBCode).")
@clean_errors
def send_pm(recipients: tuple[str, ...], subject: str, body: str, **opts: Any) -> None:
    """Send one PM (to test that the bot can write)."""
    adapter, _ = _open(opts)
    ref = adapter.send_pm(list(recipients), subject, body)
    adapter.save_cookies()
    click.echo(
        f"sent PM #{ref.pm_id if ref.pm_id is not None else '?'} to {', '.join(ref.recipients)}"
    )


@forum.command(name="reply")
@_connection_options
@click.option("--body", required=True, help="Message text (BBCode).")
@clean_errors
def reply(body: str, **opts: Any) -> None:
    """Post one reply in the topic (to test that the bot can post)."""
    adapter, location = _open(opts)
    thread = _thread(adapter, location)
    ref = adapter.reply(thread, body)
    adapter.save_cookies()
    click.echo(f"posted #{ref.post_id}: {ref.url}")


COMMANDS: tuple[click.Command, ...] = (forum,)
