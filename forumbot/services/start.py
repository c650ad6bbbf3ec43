"""The start of a game: each player's role PM and, if the GM wants one, the opening post.

``forumbot game start`` drafts them like a phase's results: one outbound row per message,
keyed ``game7:start:role:Ann`` / ``game7:start:opening`` (so drafting again changes
nothing and a message is sent once), waiting for the GM's approval (approved at once when
the game auto-posts), then sent by the publisher exactly once. A role PM is written in the
ruleset's first language from ``templates/events/<lang>/messages/role_pm.j2``: the role and
its faction, the role's abilities and starting items, the partners of a team that knows
itself (mafia, wolves, BO, clans) and any pair the set-up draws (lovers). The opening post
names the players and the first phase only: no role ever reaches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from forumbot.db.enums import DeliveryState, OutboundKind
from forumbot.db.models import Game, Outbound, Player
from forumbot.db.repo import draft_outbound, move_outbound
from forumbot.errors import ConfigError
from forumbot.gamefile import require_filled
from forumbot.render import EventRenderer
from forumbot.services import domain, games, slots
from resolver.model import Event, EventKind, Visibility
from resolver.model.catalogue import Ruleset
from resolver.setup import new_game

START = "start"


@dataclass(frozen=True, slots=True)
class StartMessage:
    """A message of the start of a game: a role PM (``to`` set) or the opening post."""

    key: str
    body: str
    to: tuple[str, ...] = ()
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Drafted:
    """A start message as drafted: its outbound row id, key, state, and whether it is new."""

    id: int
    key: str
    kind: str
    to: tuple[str, ...]
    state: str
    new: bool


def role_messages(game: Game, only: Sequence[str] = (), replaces: str = "") -> list[StartMessage]:
    """The role PM of every player holding a slot (or of those named in ``only``).

    Raises:
        ConfigError: a player has no role yet (the game file names it).
    """
    holders = slots.holders(game.players)
    missing = [p.display_name for p in holders if not p.role]
    if missing:
        raise ConfigError("players", f"no role for {', '.join(missing)}: fill in every role first")
    ruleset = domain.ruleset_of(game)
    renderer = EventRenderer.create(ruleset)
    setup = new_game(ruleset, {p.display_name: p.role or "" for p in holders}, seed=game.seed)
    first = renderer.phase_name(games.config_of(game).schedule.first_phase)
    subject = renderer.message("role_subject", game=game.name)
    out = []
    for player in holders:
        if only and player.display_name not in only:
            continue
        mine = [e for e in setup.events
                if e.visibility is Visibility.PRIVATE and player.display_name in e.to]  # fmt: skip
        body = _role_pm(renderer, ruleset, game, player, mine, first, replaces)
        out.append(StartMessage(f"role:{player.display_name}", body, (player.display_name,),
                                subject))  # fmt: skip
    return out


def _role_pm(
    renderer: EventRenderer,
    ruleset: Ruleset,
    game: Game,
    player: Player,
    events: Sequence[Event],
    first: str,
    replaces: str,
) -> str:
    role = ruleset.role_of(player.role or "")
    assigned = [renderer.event(e) for e in events if e.kind is EventKind.ROLE_ASSIGNED]
    team = [renderer.event(e) for e in events if e.kind is not EventKind.ROLE_ASSIGNED]
    abilities = [renderer.ability_name(a) for a, ability in role.abilities.items()
                 if not ability.passive]  # fmt: skip
    items = [_item(ruleset, renderer.language, item, n) for item, n in role.start_items.items()]
    # A role's notes are the ruleset's English prose: shown to players of English rulesets.
    notes = role.notes if renderer.language == "en" else ""
    return renderer.message(
        "role_pm", game=game.name, player=player.display_name, role_line="\n".join(assigned),
        abilities=abilities, items=items, notes=notes, team=[t for t in team if t],
        first_phase=first, replaces=replaces,
    )  # fmt: skip


def _item(ruleset: Ruleset, language: str, item: str, count: int) -> str:
    names = ruleset.items[item].name if item in ruleset.items else {}
    name = names.get(language) or next(iter(names.values()), item)
    return f"{name} ×{count}" if count > 1 else name


def opening_post(game: Game, text: str | None = None) -> StartMessage:
    """The opening post: the GM's own text, or the template's (players and first phase)."""
    if text is not None:
        if not text.strip():
            raise ConfigError("opening post", "the text is empty")
        return StartMessage("opening", text.strip())
    renderer = EventRenderer.create(domain.ruleset_of(game))
    first = renderer.phase_name(games.config_of(game).schedule.first_phase)
    names = [p.display_name for p in slots.holders(game.players)]
    return StartMessage("opening", renderer.message("opening", game=game.name, players=names,
                                                    first_phase=first))  # fmt: skip


def draft_start(
    session: Session, game: Game, *, opening: bool = False, opening_text: str | None = None
) -> list[Drafted]:
    """Draft the role PMs (and the opening post when asked) once; approved at once when the
    game auto-posts, else waiting for the GM. Drafting again returns the same rows.

    Raises:
        ConfigError: the game file still has blanks (the rule of ``game check`` and ``run``).
    """
    require_filled(games.config_of(game))
    messages = role_messages(game)
    if opening or opening_text is not None:
        messages.insert(0, opening_post(game, opening_text))
    return [draft_message(session, game, m, key=f"game{game.id}:{START}:{m.key}") for m in messages]


def draft_message(session: Session, game: Game, message: StartMessage, *, key: str) -> Drafted:
    """Draft one message under ``key`` (once), approved at once in auto mode."""
    row, new = draft_outbound(
        session, game_id=game.id, key=key,
        kind=OutboundKind.PM if message.to else OutboundKind.POST, body=message.body,
        recipients=list(message.to), subject=message.subject,
    )  # fmt: skip
    if new and games.config_of(game).publishing.mode == "auto":
        move_outbound(session, row, DeliveryState.APPROVED, by="auto")
    return _drafted(row, new)


def _drafted(row: Outbound, new: bool) -> Drafted:
    return Drafted(row.id, row.idempotency_key, row.kind.value, tuple(row.recipients),
                   row.state.value, new)  # fmt: skip
