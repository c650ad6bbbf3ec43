"""The game's history as a server-rendered SVG timeline (no JavaScript needed).

One row per phase (days light, nights dark, in order), and under it what happened: deaths
(with the role the phase post showed), lynches, role reveals, nobody lynched, and the
roster changes the GM made during it (replacements, modkills, players leaving). Only what
the resolver logged as public is shown as a death or reveal; roster changes come from
``roster_changes``. Every text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.db.enums import PhaseKind, Visibility
from forumbot.db.models import Phase, PhaseEvent
from forumbot.services import roster

__all__ = ["Entry", "Row", "history", "timeline_svg"]

WIDTH, ROW, LINE, PAD = 640, 26, 18, 12
COLOURS = {"death": "#c0392b", "lynch": "#7d3c98", "revealed": "#b9770e",
           "no_lynch": "#566573", "roster": "#2471a3"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing that happened: its kind (``death``, ``lynch``, ``revealed``, ``no_lynch``,
    ``roster``) and its words."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Row:
    """A phase and what happened in it (``phase`` None: before the first phase)."""

    phase: str | None
    kind: str
    status: str
    entries: tuple[Entry, ...]


def history(session: Session, game_id: int) -> list[Row]:
    """The game's phases in order, each with its public deaths, lynches and reveals and the
    roster changes made while it was open."""
    phases = session.scalars(select(Phase).where(Phase.game_id == game_id)
                             .order_by(Phase.sequence)).all()  # fmt: skip
    events = session.scalars(
        select(PhaseEvent).where(PhaseEvent.game_id == game_id,
                                 PhaseEvent.visibility == Visibility.PUBLIC)
        .order_by(PhaseEvent.phase_id, PhaseEvent.seq)
    ).all()  # fmt: skip
    by_phase: dict[int | None, list[Entry]] = {}
    for ev in events:
        entry = _entry(ev)
        if entry is not None:
            by_phase.setdefault(ev.phase_id, []).append(entry)
    names = {p.name: p.id for p in phases}
    for change in roster.changes(session, game_id):
        key = names.get(change.phase) if change.phase else None
        by_phase.setdefault(key, []).append(Entry("roster", _change_text(change)))
    rows = [Row(None, "setup", "", tuple(by_phase[None]))] if by_phase.get(None) else []
    rows += [Row(p.name, p.kind.value, p.status.value, tuple(by_phase.get(p.id, ())))
             for p in phases]  # fmt: skip
    return rows


def _entry(ev: PhaseEvent) -> Entry | None:
    data = ev.data or {}
    player = str(data.get("player", "?"))
    role = data.get("role")
    if ev.kind == "death":
        shown = f" ({role})" if role else ""
        cause = "lynched" if data.get("cause") == "lynch" else "died"
        return Entry("death", f"{player} {cause}{shown}")
    if ev.kind == "lynch":
        return Entry("lynch", f"{player} lynched ({len(data.get('voters') or ())} votes)")
    if ev.kind == "revealed":
        return Entry("revealed", f"{player} revealed as {role}")
    if ev.kind == "no_lynch":
        return Entry("no_lynch", "nobody lynched")
    return None


def _change_text(change: roster.ChangeView) -> str:
    if change.new_player:
        verb = "left; replaced by" if change.kind == "leave" else "replaced by"
        return f"{change.player} {verb} {change.new_player}"
    what = "left the game" if change.kind == "leave" else "modkilled"
    role = f" ({change.role})" if change.revealed and change.role else ""
    return f"{change.player} {what}{role}"


def timeline_svg(rows: Sequence[Row], title: str = "History") -> str:
    """The SVG of the history (empty string when there is no phase yet)."""
    if not rows:
        return ""
    height = PAD * 2 + sum(ROW + LINE * len(r.entries) for r in rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="20" y1="{PAD}" x2="20" y2="{height - PAD}" stroke="#999" stroke-width="2"/>',
    ]
    y = PAD
    for row in rows:
        parts.append(_phase_band(row, y))
        y += ROW
        for entry in row.entries:
            colour = COLOURS.get(entry.kind, "#333")
            parts.append(
                f'<g class="ev ev-{escape(entry.kind)}"><circle cx="20" cy="{y + 6}" r="5" '
                f'fill="{colour}"/><text x="36" y="{y + 10}" font-size="12">'
                f"{escape(entry.text)}</text></g>"
            )
            y += LINE
    parts.append("</svg>")
    return "".join(parts)


def _phase_band(row: Row, y: int) -> str:
    night = row.kind == PhaseKind.NIGHT.value
    fill, ink = ("#2c3e50", "#ffffff") if night else ("#f4e7c3", "#222222")
    label = row.phase or "before the first phase"
    status = f" · {row.status}" if row.status else ""
    return (
        f'<g class="phase phase-{escape(row.kind)}"><rect x="32" y="{y + 2}" width="{WIDTH - 44}" '
        f'height="{ROW - 6}" rx="4" fill="{fill}"/><text x="40" y="{y + 16}" font-size="13" '
        f'font-weight="bold" fill="{ink}">{escape(label)}{escape(status)}</text></g>'
    )
