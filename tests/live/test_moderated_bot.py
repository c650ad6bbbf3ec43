"""The bot's account is moderated on each live board: its phase post goes to the forum's
moderation queue. ``forumbot run`` sees the forum hold it, records it as delivered, never
sends it again, and tells the GM once (a queue item and one PM).

How each board holds the bot's posts, as its admins would set it:
- SMF 2.1 and 2.0: post moderation on (2.1 ``postmod_active``, 2.0 core feature ``pm``) and
  the bot's warning level 40, past the stock "moderate" level 35: SMF then gives the account
  the unapproved-post permissions in place of the posting ones. SMF shows the held post to
  its author in the topic (``div.approvebg``, "awaiting approval"), hidden from the players.
- phpBB 3.3: the bot denied ``f_noapprove`` ("can post without approval") in the game forum.
The boards are shared by the live tests: each setting is put back after the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.live.boards import Board, Player
from tests.live.botcli import BotCli


@contextmanager
def moderated(board: Board) -> Iterator[None]:
    """The bot's posts wait for a moderator's approval on ``board`` until the block ends."""
    if board.engine == "phpbb":
        option = board.sql("SELECT auth_option_id FROM phpbb_acl_options "
                           "WHERE auth_option = 'f_noapprove'")[0][0]  # fmt: skip
        board.sql(
            f"INSERT INTO phpbb_acl_users (user_id, forum_id, auth_option_id, "
            f"auth_role_id, auth_setting) VALUES ({board.bot_id}, 3, {option}, 0, 0)"
        )
    elif board.version == "2.1":
        board.sql("INSERT INTO smf_settings (variable, value) VALUES ('postmod_active', '1') "
                  "ON DUPLICATE KEY UPDATE value = '1'")  # fmt: skip
    else:
        board.sql("UPDATE smf_settings SET value = 'pm' WHERE variable = 'admin_features'")
    _warn(board, 40)
    try:
        yield
    finally:
        if board.engine == "phpbb":
            board.sql(f"DELETE FROM phpbb_acl_users WHERE user_id = {board.bot_id}")
        elif board.version == "2.1":
            board.sql("UPDATE smf_settings SET value = '0' WHERE variable = 'postmod_active'")
        else:
            board.sql("UPDATE smf_settings SET value = '' WHERE variable = 'admin_features'")
        _warn(board, 0)


def _warn(board: Board, level: int) -> None:
    """SMF: the bot's warning level; phpBB: its permission cache, rebuilt on the next page."""
    if board.engine == "phpbb":
        board.sql(f"UPDATE phpbb_users SET user_permissions = '' WHERE user_id = {board.bot_id}")
    else:
        board.sql(f"UPDATE smf_members SET warning = {level} WHERE id_member = {board.bot_id}")


def _held(board: Board, topic: int) -> list[str]:
    """The board's approval flag of each of the bot's posts in the topic (0: waiting)."""
    if board.engine == "phpbb":
        rows = board.sql(f"SELECT post_visibility FROM phpbb_posts WHERE topic_id = {topic} "
                         f"AND poster_id = {board.bot_id} ORDER BY post_id")  # fmt: skip
    else:
        rows = board.sql(f"SELECT approved FROM smf_messages WHERE id_topic = {topic} "
                         f"AND id_member = {board.bot_id} ORDER BY id_msg")  # fmt: skip
    return [row[0] for row in rows]


def _day_post_approved(board: Board, tmp_path: Path) -> tuple[BotCli, Path, int, int]:
    """A game whose day 1 ended and whose phase post the GM approved, not sent yet: the bot,
    the game file, the topic and the bot's newest PM id. The topic has 10 approved posts, a
    full page on phpBB (10 a page)."""
    spaced = "Mr Fox" if board.engine == "phpbb" else "Dr Watson"
    roles = {"Conia": "sheriff", "Akonyl": "godfather", "bob": "doctor", "Kleene": "villager",
             "Маша": "villager", spaced: "villager"}  # fmt: skip
    gm = board.player("GameMaster")
    topic = gm.new_topic("Moderated Village — Day 1", "Day 1 begins. [b]Vote: Name[/b].")
    players: dict[str, Player] = {name: board.player(name) for name in roles}
    for name, player in players.items():
        player.reply(topic, f"/in ({name})")
    bot = BotCli(board, tmp_path)
    game = bot.start_game(board.topic_url(topic), roles)
    bot("run", "--once", str(game))
    bot.reject_queue("sent before the game")  # the shared boards' older PMs to the bot
    players["Conia"].reply(topic, "[b]Vote: Akonyl[/b]")
    players["bob"].reply(topic, "[b]Vote: Akonyl[/b]")
    players["Маша"].reply(topic, "[b]Vote: Kleene[/b]")
    bot("phase", "end", bot.name)
    bot("run", "--once", str(game))  # day 1 resolved: its post drafted
    bot("queue", bot.name, "--approve", "all")
    first_pm = max([row[0] for row in board.pms_from(board.bot_id)], default=0)
    return bot, game, topic, first_pm


def _told_once(board: Board, bot: BotCli, topic: int, first_pm: int) -> None:
    """The day's post whole on the board, the GM told once (queue item and one PM)."""
    posts = board.posts_by(board.bot_id, topic)
    assert "Akonyl (2): Conia, bob" in posts[0][1], posts  # the day's post, whole
    queue = bot("queue", bot.name)
    assert "moderator's approval" in queue and "will not send them again" in queue, queue
    new = [row for row in board.pms_from(board.bot_id) if row[0] > first_pm]
    alerts = [text for _, _, to, text in new if to == board.gm[0] and "approv" in text]
    assert len(alerts) == 1, new  # the GM told once
    assert len({row[1:] for row in new}) == len(new)  # no PM twice either


def test_a_moderated_bots_phase_post_is_held_once_and_the_gm_told(
    board: Board, tmp_path: Path
) -> None:
    bot, game, topic, first_pm = _day_post_approved(board, tmp_path)
    with moderated(board):
        bot("run", "--once", str(game))  # the post goes to the moderation queue
        bot("run", "--once", str(game))  # not again; the GM's alert PM goes out
        bot("run", "--once", str(game))
        assert _held(board, topic) == ["0"]  # one copy on the board, waiting for approval
    _told_once(board, bot, topic, first_pm)


def test_a_held_post_whose_answer_was_lost_is_found_not_sent_again(
    board: Board, tmp_path: Path
) -> None:
    # kill -9 right after the phase post's POST: the board holds it for approval and the bot
    # never heard back. The next run looks for it first: SMF shows the held post on the
    # topic's pages, phpBB on none past a full page (it pages by approved posts) but first
    # when read newest first.
    bot, game, topic, first_pm = _day_post_approved(board, tmp_path)
    with moderated(board):
        assert bot.faulty("kill", board.post_url(), "run", "--once", str(game)) == -9
        assert _held(board, topic) == ["0"]
        assert "publish.awaiting_approval" in bot("run", "--once", str(game))  # found, held
        bot("run", "--once", str(game))
        assert _held(board, topic) == ["0"]  # found held: not sent again
    _told_once(board, bot, topic, first_pm)
