"""Faults the live boards really produce: stock flood control, SMF's PMs-per-hour cap.

(The crash faults, kill -9 after a post's and a PM's POST, the web server stopped mid-send
and the bot's session deleted, run inside the whole game of ``test_game.py``.)
"""

from __future__ import annotations

import pytest

from forum_adapters.errors import PMLimitReached
from tests.live.boards import Board


def test_smf_pm_limit_is_rate_limiting_and_lifts_with_send_mail(smf21_board: Board) -> None:
    board = smf21_board
    board.adapter().send_pm(["Маша"], "within the limit", "Your result.")
    # SMF counts the recipients of the sender's PMs of the last hour against the limit.
    sent = board.sql("SELECT COUNT(*) FROM smf_personal_messages p JOIN smf_pm_recipients r "
                     "ON r.id_pm = p.id_pm WHERE p.id_member_from = 2 "
                     "AND p.msgtime > UNIX_TIMESTAMP() - 3600")[0][0]  # fmt: skip
    board.set_pm_limit(int(sent))
    try:
        with pytest.raises(PMLimitReached) as refused:
            board.adapter().send_pm(["Conia"], "over the limit", "Your result.")
        assert refused.value.limit == int(sent) and "send_mail" in refused.value.how_to_lift
        board.sql(
            "INSERT INTO smf_membergroups (group_name, description, online_color, min_posts, "
            "max_messages, group_type, hidden, id_parent) VALUES ('Bots', 'no hourly PM "
            "limit', '', -1, 0, 0, 0, -2); SET @g = LAST_INSERT_ID(); INSERT INTO "
            "smf_permissions (id_group, permission, add_deny) VALUES (@g, 'send_mail', 1); "
            "UPDATE smf_members SET additional_groups = @g WHERE member_name = 'ModBot'"
        )
        ref = board.adapter().send_pm(["Conia"], "lifted", "Your result.")
        assert ref.pm_id is not None
    finally:  # the session's setting (no cap) and no group left behind for later tests
        board.set_pm_limit(0)
        board.sql("UPDATE smf_members SET additional_groups = '' WHERE member_name = 'ModBot'; "
                  "DELETE p, g FROM smf_permissions p JOIN smf_membergroups g "
                  "ON g.id_group = p.id_group WHERE g.group_name = 'Bots'")  # fmt: skip
