"""A whole game on each live board: players act through the forms, forumbot runs as the GM
would run it (``forum check``, ``init``, ``run --once``, ``queue``, ``phase end``), and the
board's own database shows what was published: each message exactly once."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.live.boards import Board, Player
from tests.live.botcli import BotCli


def _spaced(board: Board) -> str:
    return "Mr Fox" if board.engine == "phpbb" else "Dr Watson"


def test_a_game_from_signups_to_night_results(board: Board, tmp_path: Path) -> None:
    spaced = _spaced(board)
    roles = {"Conia": "sheriff", "Akonyl": "godfather", "bob": "doctor", "Kleene": "villager",
             "Маша": "villager", spaced: "villager"}  # fmt: skip
    gm = board.player("GameMaster")
    topic = gm.new_topic("Live Village — Day 1", "Day 1 begins. Vote with [b]Vote: Name[/b].")
    players: dict[str, Player] = {name: board.player(name) for name in roles}
    for name, player in players.items():
        player.reply(topic, f"/in ({name})")
    bot = BotCli(board, tmp_path)
    url = board.topic_url(topic)
    assert "logged in as ModBot" in bot.forum("check", url=url)
    game = bot.start_game(url, roles)
    drafted = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert [p["name"] for p in drafted["players"]] == list(roles)
    bot("run", "--once", str(game))
    # The bot's inbox already held PMs from before the game (the boards are shared by the
    # tests): forumbot queued them for the GM, who rejects them as not for this game.
    bot.reject_queue("sent before the game")

    conia = players["Conia"].reply(topic, "I think it is Akonyl. [b]Vote: Akonyl[/b]")
    players["Маша"].reply(topic, "[b]Vote: Kleene[/b]")
    players[spaced].reply(topic, "[quote=Conia][b]Vote: Akonyl[/b][/quote] no. [b]Vote: bob[/b]")
    players["bob"].reply(topic, f"[b]Vote: {spaced}[/b]")
    players["Akonyl"].reply(topic, "[b]Vote: Kleene[/b]")
    bot("run", "--once", str(game))
    players["Conia"].edit(topic, conia, "Changed my mind. [b]Vote: Kleene[/b]")  # after the read
    bot("phase", "end", bot.name)
    bot("run", "--once", str(game))  # the deadline's re-read finds the edit, then resolves
    bot("queue", bot.name, "--approve", "all")
    # kill -9 right after the phase post's POST: the board has it, the bot never heard back.
    assert bot.faulty("kill", board.post_url(), "run", "--once", str(game)) == -9, bot.last_output
    assert len(board.posts_by(board.bot_id, topic)) == 1
    assert "found_after_interruption" in bot("run", "--once", str(game))
    day = board.posts_by(board.bot_id, topic)
    assert len(day) == 1, day  # exactly one phase post
    assert "Kleene (3): Conia, Маша, Akonyl" in day[0][1], day[0][1]  # the edit counted
    assert f"bob (1): {spaced}" in day[0][1]  # the quoted vote did not count

    first_pm = max([row[0] for row in board.pms_from(board.bot_id)], default=0)
    players["Akonyl"].send_pm([board.bot[0], board.gm[0]], "N1", "kill Маша")  # two recipients
    players["Conia"].send_pm([board.bot[0]], "Night 1", "[b]check Akonyl[/b]")
    players["bob"].send_pm([board.bot[0]], "ночь", "heal Маша")
    # The web server stops right after the first receipt's POST (the bot gets no answer).
    url, field = board.pm_url()
    assert bot.faulty("stop-web", url, "run", "--once", str(game), field=field) == 0
    board.restart()
    bot("run", "--once", str(game))  # the interrupted receipt is found, the others sent
    bot("phase", "end", bot.name)
    board.end_sessions(board.bot_id)  # the bot's session is gone: it logs in again
    bot("run", "--once", str(game))
    bot("queue", bot.name, "--approve", "all")
    assert bot.faulty("kill", url, "run", "--once", str(game), field=field) == -9  # a result PM
    bot("run", "--once", str(game))
    bot("run", "--once", str(game))  # nothing left: nothing sent again
    night = board.posts_by(board.bot_id, topic)
    assert len(night) == 2 and "Night 1" in night[1][1], night
    sent = [row for row in board.pms_from(board.bot_id) if row[0] > first_pm]
    print(sent)
    assert len({(subject, to, text) for _, subject, to, text in sent}) == len(sent)  # once each
    receipts = sorted(to for _, subject, to, _ in sent if subject.startswith("Re: "))
    assert receipts == ["Akonyl", "Conia", "bob"], sent
    results = [row for row in sent if row[2] == "Conia" and not row[1].startswith("Re: ")]
    assert len(results) == 1 and "Akonyl" in results[0][3], sent
