"""The live boards themselves: started from the kit, seeded by players through the forms."""

from __future__ import annotations

from tests.live.boards import Board


def test_a_player_topic_reply_edit_and_pm_land_on_the_board(board: Board) -> None:
    conia, masha = board.player("Conia"), board.player("Маша")
    topic = conia.new_topic("Board smoke", "Sign-ups: post [b]/in[/b]")
    reply = masha.reply(topic, "[b]/in[/b] Привет")
    masha.edit(topic, reply, "[b]/in[/b] Привет, edited")
    pm = conia.send_pm([board.bot[0]], "hello", "[b]kill Маша[/b]")
    masha_id = masha.adapter.user_id
    assert masha_id is not None
    bodies = [text for _, text in board.posts_by(masha_id, topic)]
    assert len(bodies) == 1 and "edited" in bodies[0]
    assert pm in [row[0] for row in board.pms_from(int(conia.adapter.user_id or 0))]
