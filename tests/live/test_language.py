"""The bot on boards that do not speak English: flood control (the stock limits, met for real),
a timed-out session, a refused form token and a post held for approval are recognised from the
page's structure, and numeric dates are read in the forum's order.

The kits ship English only, so each board gets a language pack made the way translators make
one: the engine's own English files copied under the new language, with the strings that
matter here put in French (phpBB 3.3, SMF 2.0) or Russian (SMF 2.1). Only the bot's account
reads the board in that language (the players' pages stay English); the markup is the
engine's own.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime

import pytest

from forum_adapters import ThreadRef
from forum_adapters.errors import PendingApproval
from tests.live.boards import Board

STOCK_FLOOD = {"phpbb": 15, "smf": 5}

PHPBB_FR = {
    "FLOOD_ERROR": "Vous ne pouvez pas publier un autre message aussi rapidement après le "
    "précédent.",
    "FORM_INVALID": "Le formulaire envoyé est invalide. Veuillez réessayer.",
    "POST_STORED_MOD": "Ce message a été envoyé avec succès, mais il devra être approuvé par "
    "un modérateur avant d’être visible publiquement.",
    "POST_APPROVAL_NOTIFY": "Vous serez averti lorsque votre message aura été approuvé.",
    "LOGOUT": "Déconnexion",
}
SMF_RU = {
    "post_WaitTime_broken": "Последнее сообщение с вашего IP было менее %1$d секунд назад. "
    "Пожалуйста, попробуйте позже.",
    "pm_WaitTime_broken": "Последнее личное сообщение с вашего IP было менее %1$d секунд "
    "назад. Пожалуйста, попробуйте позже.",
    "login_WaitTime_broken": "Подождите около %1$d секунд, прежде чем входить снова.",
    "pm_too_many_per_hour": "Вы превысили лимит: %1$d личных сообщений за час.",
    "session_timeout": "Время сессии истекло во время отправки. Вернитесь и попробуйте ещё раз.",
    "session_verify_fail": "Проверка сессии не пройдена. Выйдите и войдите снова.",
    "error_session_timeout": "Время вашей сессии истекло, пока вы писали сообщение. "
    "Попробуйте отправить его ещё раз.",
    "error_new_replies": "Внимание: пока вы писали, появилось новых ответов: %1$d.",
    "error_new_replies_reading": "Внимание: пока вы читали, появилось новых ответов: %1$d.",
    "error_occured": "Произошла ошибка",
    "logout": "Выход",
}
SMF_FR = {
    "postWaitTime_broken": "Le dernier message depuis votre IP date de moins de %1$d "
    "secondes. Merci de réessayer plus tard.",
    "pmWaitTime_broken": "Le dernier message personnel depuis votre IP date de moins de %1$d "
    "secondes. Merci de réessayer plus tard.",
    "loginWaitTime_broken": "Vous devez attendre environ %1$d secondes avant de vous reconnecter.",
    "pm_too_many_per_hour": "Vous avez dépassé la limite de %1$d messages personnels par heure.",
    "session_timeout": "Votre session a expiré pendant la rédaction. Réessayez.",
    "session_verify_fail": "La vérification de la session a échoué. Reconnectez-vous.",
    "error_session_timeout": "Votre session a expiré pendant la rédaction du message. "
    "Essayez de le renvoyer.",
    "error_new_replies": "Attention : %1$d nouvelles réponses ont été publiées pendant que "
    "vous écriviez.",
    "error_new_replies_reading": "Attention : %1$d nouvelles réponses ont été publiées "
    "pendant que vous lisiez.",
    "error_occured": "Une erreur est survenue",
    "logout": "Déconnexion",
}
# board kind -> (language code, name SMF files are called by, strings)
PACKS = {"phpbb": ("fr", "fr", PHPBB_FR), "smf21": ("ru", "russian", SMF_RU),
         "smf20": ("fr", "french", SMF_FR)}  # fmt: skip


def _kind(board: Board) -> str:
    return "phpbb" if board.engine == "phpbb" else f"smf{board.version.replace('.', '')}"


@contextmanager
def _in_its_language(board: Board) -> Iterator[Board]:
    """The board with the bot's account reading it in French or Russian, for one test."""
    code, name, strings = PACKS[_kind(board)]
    board.install_language(code, name, strings)
    board.set_bot_language(name)
    try:
        bot = board.adapter()
        bot.login()
        shown = bot.http.get(board.url).text
        assert strings.get("LOGOUT", strings.get("logout", "")) in shown  # the pack is in use
        yield board
    finally:
        board.set_bot_language("en" if board.engine == "phpbb" else "")


@pytest.fixture
def translated(board: Board) -> Iterator[Board]:
    """Each live board, the bot reading it in French or Russian."""
    with _in_its_language(board) as ready:
        yield ready


@pytest.fixture(params=["smf21", "smf20"])
def translated_smf(request: pytest.FixtureRequest) -> Iterator[Board]:
    """Each SMF board, the bot reading it in Russian (2.1) or French (2.0)."""
    with _in_its_language(request.getfixturevalue(f"{request.param}_board")) as ready:
        yield ready


def test_stock_flood_control_is_met_and_waited_out_in_another_language(
    translated: Board,
) -> None:
    board = translated
    board.set_flood(STOCK_FLOOD[board.engine])
    try:
        topic = board.player("GameMaster").new_topic("Flood", "two replies in a row")
        bot = board.adapter(post_interval=0)  # a bot that does not space its posts itself
        before = len(board.log_lines())
        started = time.monotonic()
        first = bot.reply(ThreadRef(topic), f"first {uuid.uuid4().hex[:6]}")
        second = bot.reply(ThreadRef(topic), f"second {uuid.uuid4().hex[:6]}")
        took = time.monotonic() - started
    finally:
        board.set_flood(0)
    posts = [line for line in board.log_lines()[before:] if " POST " in line
             and "login" not in line and "add_to" not in line]  # fmt: skip
    # The second was refused (in French or Russian), waited out, then posted; on a machine so
    # slow that the interval had passed before the second POST, the board had no reason to.
    assert len(posts) >= 3 or took >= STOCK_FLOOD[board.engine], (posts, took)
    mine = [post_id for post_id, _ in board.posts_by(board.bot_id, topic)]
    assert mine == [first.post_id, second.post_id]  # each exactly once


def test_a_refused_session_or_form_token_is_retried_with_a_fresh_form(
    translated: Board,
) -> None:
    board = translated
    topic = board.player("GameMaster").new_topic("Tokens", "the bot's form goes stale")
    bot = board.adapter()
    staled: list[int] = []

    def stale_the_form() -> None:  # right before the first POST, as a timeout would
        if staled:
            return
        staled.append(1)
        if board.engine == "phpbb":  # the form token no longer matches the account's salt
            board.sql(f"UPDATE phpbb_users SET user_form_salt = 'stale{uuid.uuid4().hex[:8]}' "
                      f"WHERE user_id = {board.bot_id}")  # fmt: skip
        else:  # SMF keeps the member logged in by cookie, in a new session with a new token
            board.sql("DELETE FROM smf_sessions")

    before = len(board.log_lines())
    body = f"Vote count {uuid.uuid4().hex[:6]}"
    ref = bot.reply(ThreadRef(topic), body, on_submit=stale_the_form)
    posts = [line for line in board.log_lines()[before:] if " POST " in line
             and "login" not in line]  # fmt: skip
    assert len(posts) == 2, posts  # refused once (nothing written), then sent
    mine = board.posts_by(board.bot_id, topic)
    assert [post_id for post_id, _ in mine] == [ref.post_id] and body in mine[0][1]


def test_a_post_held_for_approval_is_not_sent_again(phpbb_board: Board) -> None:
    # (SMF's kits run without post moderation; its approval shows in the topic instead.)
    with _in_its_language(phpbb_board) as board:
        _held_for_approval(board)


def _held_for_approval(board: Board) -> None:
    topic = board.player("GameMaster").new_topic("Moderated", "the bot's posts need approval")
    option = board.sql("SELECT auth_option_id FROM phpbb_acl_options "
                       "WHERE auth_option = 'f_noapprove'")[0][0]  # fmt: skip
    reset = f"UPDATE phpbb_users SET user_permissions = '' WHERE user_id = {board.bot_id}"
    board.sql(f"INSERT INTO phpbb_acl_users (user_id, forum_id, auth_option_id, auth_role_id, "
              f"auth_setting) VALUES ({board.bot_id}, 3, {option}, 0, 0)")  # fmt: skip
    board.sql(reset)
    try:
        with pytest.raises(PendingApproval, match="do not send it again"):
            board.adapter().reply(ThreadRef(topic), "Vote count, held")
    finally:
        board.sql(f"DELETE FROM phpbb_acl_users WHERE user_id = {board.bot_id}")
        board.sql(reset)
    held = board.sql(f"SELECT post_visibility FROM phpbb_posts WHERE topic_id = {topic} "
                     f"AND poster_id = {board.bot_id}")  # fmt: skip
    assert held == [("0",)]  # on the board once, waiting for a moderator


def test_numeric_dates_follow_the_forums_order(translated_smf: Board) -> None:
    # (phpBB's posts carry <time datetime>; SMF's show only the member's format.)
    board = translated_smf
    topic = board.player("GameMaster").new_topic("Dates", "an old post")
    board.sql(f"UPDATE smf_members SET time_format = '%d/%m/%Y, %H:%M' "
              f"WHERE id_member = {board.bot_id}")  # fmt: skip
    march = int(datetime(2026, 3, 5, 14, 5, tzinfo=UTC).timestamp())
    board.sql(f"UPDATE smf_messages SET poster_time = {march} WHERE id_topic = {topic}")
    try:
        french = board.adapter(date_order="dmy", tz="UTC")
        guessed = board.adapter(tz="UTC")
        shown = list(french.iter_posts(ThreadRef(topic)))
        other = list(guessed.iter_posts(ThreadRef(topic)))
    finally:
        board.sql(f"UPDATE smf_members SET time_format = '' WHERE id_member = {board.bot_id}")
    assert shown[0].posted_at == datetime(2026, 3, 5, 14, 5, tzinfo=UTC)  # "05/03/2026, 14:05"
    assert other[0].posted_at.date() == date(2026, 5, 3)  # what a guess makes of it
