"""A seeded game for the GM page's tests, browser tests and benchmark (hostile text included)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.orm import Session

from forumbot.db.enums import (
    DeliveryState,
    GameStatus,
    OrderStatus,
    OutboundKind,
    PhaseKind,
    PhaseStatus,
    PlayerStatus,
    ReviewKind,
    Visibility,
    VoteKind,
)
from forumbot.db.models import (
    Game,
    Order,
    Phase,
    Player,
    RawPM,
    RawPost,
    ReviewItem,
    VoteEvent,
)
from forumbot.db.repo import append_events, draft_outbound, get_or_create_forum

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=2, hours=20)  # night 2: orders due in 2 h, phase ends in 4 h

HOSTILE = (
    '<script>alert("pm")</script><img src=x onerror="alert(1)">'
    '<a href="javascript:alert(2)">click</a> "><b onmouseover=alert(3)>x</b>'
    " [url=javascript:alert(4)]bb[/url]"
)
HOSTILE_BBCODE = (
    "[b]Night 2 is over.[/b] [url=javascript:alert(5)]evil[/url] "
    '[url=http://x.example/" onmouseover="alert(6)]attr[/url] <script>alert(7)</script> '
    "[color=red;background:url(javascript:alert(8))]c[/color] [img]javascript:alert(9)[/img]"
)


@dataclass(frozen=True)
class Seeded:
    """Ids of what ``seed_game`` created."""

    game_id: int
    order_item_id: int
    vote_item_id: int
    post_draft_id: int
    pm_draft_id: int
    night2_id: int
    day1_id: int


ROSTER = (
    ("Ann", "sheriff", "village", PlayerStatus.ALIVE),
    ("Bob", "doctor", "village", PlayerStatus.ALIVE),
    ("Carl", "villager", "village", PlayerStatus.ALIVE),
    ("Zoé", "godfather", "mafia", PlayerStatus.ALIVE),
    ("Маша", "mafioso", "mafia", PlayerStatus.ALIVE),
    ("Dave", "villager", "village", PlayerStatus.DEAD),
)


def game_yaml(name: str) -> str:
    """The example game file, renamed, with Dave added (what the runtime reads)."""
    text = (ROOT / "config" / "example-game.yaml").read_text(encoding="utf-8")
    text = text.replace("name: failheap-village-7", f"name: {name}", 1)
    return text.replace(
        "  - {name: Маша, role: mafioso, aliases: [masha]}",
        "  - {name: Маша, role: mafioso, aliases: [masha]}\n  - {name: Dave, role: villager}",
        1,
    )


def seed_game(session: Session, name: str = "failheap-7", extra_players: int = 0) -> Seeded:
    """A running game at night 2: a queued order, a doubtful vote, two drafts, an event log."""
    forum = get_or_create_forum(session, "smf", "https://forum.example.org/")
    game = Game(
        name=name,
        forum_id=forum.id,
        topic_id="1234",
        topic_url="https://forum.example.org/index.php?topic=1234.0",
        ruleset="failheap",
        seed=7,
        status=GameStatus.RUNNING,
        gm_name="Steph",
        settings={"game_yaml": game_yaml(name)},
    )
    session.add(game)
    session.flush()
    roster = list(ROSTER) + [
        (f"Extra{i:02d}", "villager", "village", PlayerStatus.ALIVE) for i in range(extra_players)
    ]
    players = {}
    for slot, (pname, role, faction, status) in enumerate(roster, start=1):
        p = Player(
            game_id=game.id,
            slot=slot,
            display_name=pname,
            role=role,
            faction=faction,
            status=status,
            aliases=["annie"] if pname == "Ann" else [],
        )
        session.add(p)
        players[pname] = p
    session.flush()
    phases = {}
    for seq, (pname, kind, num, status) in enumerate(
        (
            ("night1", PhaseKind.NIGHT, 1, PhaseStatus.PUBLISHED),
            ("day1", PhaseKind.DAY, 1, PhaseStatus.PUBLISHED),
            ("night2", PhaseKind.NIGHT, 2, PhaseStatus.OPEN),
        )
    ):
        ph = Phase(
            game_id=game.id,
            sequence=seq,
            name=pname,
            kind=kind,
            number=num,
            status=status,
            starts_at=T0 + timedelta(days=seq),
            deadline=T0 + timedelta(days=seq + 1),
            inner_deadlines={"orders": (T0 + timedelta(days=seq, hours=22)).isoformat()},
        )
        session.add(ph)
        phases[pname] = ph
    session.flush()
    night2, day1 = phases["night2"], phases["day1"]
    pm = RawPM(
        forum_id=forum.id,
        account="bot",
        pm_id="900",
        sender_name="Bob",
        sent_at=NOW - timedelta(hours=1),
        subject="N2 <b>order</b>",
        body_html=f"heal annie please {HOSTILE}",
        recipients=[{"name": "bot"}],
    )
    post = RawPost(
        forum_id=forum.id,
        topic_id="1234",
        post_id="5555",
        author_name="Carl",
        posted_at=T0 + timedelta(days=1, hours=3),
        body_html=f"<b>$Zo</b> {HOSTILE}",
        body_sha256="x",
        page_url="https://forum.example.org/index.php?topic=1234.15",
    )
    session.add_all([pm, post])
    session.flush()
    order_item = ReviewItem(
        game_id=game.id,
        phase_id=night2.id,
        kind=ReviewKind.ORDER,
        raw_pm_id=pm.id,
        player_id=players["Bob"].id,
        reason='"annie" could be Ann or Anna <i>really</i>',
        candidates=[
            {
                "orders": [
                    {"ability": "heal", "targets": ["Ann"], "written": {"targets": ["annie"]}}
                ],
                "score": 0.61,
                "why": "annie ~ Ann (alias)",
            },
            {
                "orders": [{"ability": "heal", "targets": ["Carl"]}],
                "score": 0.2,
                "why": '<script>alert("why")</script>',
            },
        ],
    )
    vote_item = ReviewItem(
        game_id=game.id,
        phase_id=day1.id,
        kind=ReviewKind.VOTE,
        raw_post_id=post.id,
        player_id=players["Carl"].id,
        reason="$Zo: prefix of Zoé?",
        candidates=[{"target": "Zoé", "kind": "vote"}],
    )
    session.add_all([order_item, vote_item])
    session.add(
        Order(
            game_id=game.id,
            phase_id=night2.id,
            player_id=players["Ann"].id,
            ability="check",
            targets=["Zoé"],
            status=OrderStatus.ACCEPTED,
            confidence=0.98,
            received_at=NOW - timedelta(hours=3),
        )
    )
    session.add(
        Order(
            game_id=game.id,
            phase_id=night2.id,
            player_id=players["Маша"].id,
            ability="kill",
            targets=["Ann"],
            status=OrderStatus.LATE,
            confidence=0.9,
            received_at=NOW,
        )
    )
    for voter, target, minutes in (("Ann", "Zoé", 10), ("Bob", "Zoé", 20), ("Zoé", "Ann", 30)):
        session.add(
            VoteEvent(
                game_id=game.id,
                phase_id=day1.id,
                voter_id=players[voter].id,
                target_id=players[target].id,
                kind=VoteKind.VOTE,
                cast_at=T0 + timedelta(days=1, minutes=minutes),
            )
        )
    post_draft, _ = draft_outbound(
        session,
        game_id=game.id,
        key=f"{name}:night2:post",
        kind=OutboundKind.POST,
        body=HOSTILE_BBCODE,
        phase_id=night2.id,
    )
    pm_draft, _ = draft_outbound(
        session,
        game_id=game.id,
        key=f"{name}:night2:result:Ann",
        kind=OutboundKind.PM,
        recipients=["Ann"],
        subject="Night 2 result",
        body="Zoé is [b]not suspicious[/b].",
        phase_id=night2.id,
    )
    draft_outbound(
        session,
        game_id=game.id,
        key=f"{name}:day1:post",
        kind=OutboundKind.POST,
        body="Day 1 is over. Nobody was lynched.",
        phase_id=day1.id,
    )
    append_events(
        session,
        game_id=game.id,
        phase_id=phases["night1"].id,
        events=[
            {
                "kind": "death",
                "visibility": Visibility.PUBLIC,
                "data": {"player": "Dave", "role": "villager", "cause": "kill"},
            },
            {
                "kind": "draw",
                "visibility": Visibility.GM,
                "data": {
                    "purpose": "mafia kill target <b>tie</b>",
                    "options": ["Ann", "Dave"],
                    "pick": "Dave",
                    "why": "two votes each; ruleset tie rule: random <script>x</script>",
                },
            },
            {
                "kind": "result",
                "visibility": Visibility.PRIVATE,
                "recipients": ["Ann"],
                "data": {
                    "ability": "check",
                    "target": "Zoé",
                    "result": "not suspicious",
                    "why": "godfather appears town",
                },
            },
        ],
    )
    phases["night1"].state_after = {
        "ruleset": "failheap",
        "seed": 7,
        "players": [
            {"name": pname, "role": role, "faction": faction, "alive": status is PlayerStatus.ALIVE,
             "statuses": [], "uses": [], "items": []}
            for pname, role, faction, status in ROSTER
        ],
    }  # fmt: skip
    ann = phases["night1"].state_after["players"][0]
    ann["items"], ann["statuses"] = [["vest", 1]], [{"id": "framed", "until": "day2"}]
    session.flush()
    assert post_draft.state is DeliveryState.DRAFT
    return Seeded(
        game.id, order_item.id, vote_item.id, post_draft.id, pm_draft.id, night2.id, day1.id
    )


def seed_queue(session: Session, game_id: int, phase_id: int, player_id: int, count: int) -> None:
    """Add ``count`` open order items (for the benchmark)."""
    for i in range(count):
        pm = RawPM(
            forum_id=1,
            account="bot",
            pm_id=f"b{game_id}-{i}",
            sender_name="Bob",
            sent_at=T0,
            body_html=f"<p>heal {i} <b>x</b></p>",
            recipients=[],
        )
        session.add(pm)
        session.flush()
        session.add(
            ReviewItem(
                game_id=game_id,
                phase_id=phase_id,
                kind=ReviewKind.ORDER,
                raw_pm_id=pm.id,
                player_id=player_id,
                reason=f"unclear target {i}",
                candidates=[
                    {
                        "orders": [{"ability": "heal", "targets": ["Ann"]}],
                        "score": 0.5,
                        "why": "guess",
                    },
                    {
                        "orders": [{"ability": "heal", "targets": ["Carl"]}],
                        "score": 0.3,
                        "why": "guess",
                    },
                ],
            )
        )
    session.flush()
