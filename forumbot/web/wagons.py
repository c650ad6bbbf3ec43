"""The Day's wagons over time as a server-rendered SVG chart (no JavaScript needed).

:func:`wagon_chart` draws the counter's timeline (``CountResult.timeline``): one step line
per wagon (the biggest few), the votes it had after each post that changed the votes, a
dashed line at the majority, and the post that ended the Day (hammer) or the deadline
marked. Every text is escaped; the chart is a plain ``<svg>`` element the GM page embeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from parsers.votes import CountResult

Scale = Callable[[float], float]
Points = Sequence[tuple[int, tuple[tuple[str, int, tuple[str, ...]], ...]]]

__all__ = ["wagon_chart"]

WIDTH, HEIGHT, PAD, LEGEND = 640, 220, 32, 150
COLOURS = ("#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#566573")
MAX_WAGONS = len(COLOURS)


def wagon_chart(result: CountResult, title: str = "Wagons") -> str:
    """The SVG of the Day's wagons over time (empty string when nobody voted).

    Args:
        result: the counter's result for the Day.
        title: the chart's accessible title.

    Returns:
        An ``<svg>`` element.
    """
    points: Points = [(s.post, s.wagons) for s in result.timeline if isinstance(s.post, int)]
    if not points:
        return ""
    peak: dict[str, int] = {}
    for _, wagons in points:
        for target, votes, _voters in wagons:
            peak[target] = max(peak.get(target, 0), votes)
    shown = sorted(peak, key=lambda t: -peak[t])[:MAX_WAGONS]
    first, last = points[0][0], max(points[-1][0], _end(result) or 0)
    top = max([*peak.values(), result.decision.majority, 1])
    x = _scale(first, max(last, first + 1), PAD, WIDTH - LEGEND - PAD)
    y = _scale(0, top, HEIGHT - PAD, PAD)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="wagons" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
        f"<title>{escape(title)}</title>",
        _axes(first, last, top, x, y),
        _majority(result.decision.majority, x(first), x(last), y),
    ]
    for i, target in enumerate(shown):
        parts.append(_line(target, points, x, y, last, COLOURS[i]))
        parts.append(_legend(target, peak[target], i))
    parts.append(_end_mark(result, x, y(top)))
    parts.append("</svg>")
    return "".join(p for p in parts if p)


def _scale(low: float, high: float, out_low: float, out_high: float) -> Scale:
    span = (high - low) or 1

    def at(value: float) -> float:
        return round(out_low + (value - low) * (out_high - out_low) / span, 1)

    return at


def _end(result: CountResult) -> int | None:
    post = result.decision.hammer_post
    if isinstance(post, int):
        return post
    return result.last_post if isinstance(result.last_post, int) else None


def _axes(first: int, last: int, top: int, x: Scale, y: Scale) -> str:
    base, left, right = y(0), x(first), x(last)
    return (
        f'<g class="axes" stroke="#888" fill="#444" font-size="10">'
        f'<line x1="{left}" y1="{base}" x2="{right}" y2="{base}"/>'
        f'<line x1="{left}" y1="{y(top)}" x2="{left}" y2="{base}"/>'
        f'<text x="{left}" y="{base + 14}" stroke="none">post {first}</text>'
        f'<text x="{right}" y="{base + 14}" stroke="none" text-anchor="end">post {last}</text>'
        f'<text x="{left - 4}" y="{y(top) + 4}" stroke="none" text-anchor="end">{top}</text>'
        "</g>"
    )


def _majority(majority: int, left: float, right: float, y: Scale) -> str:
    at = y(majority)
    return (
        f'<g class="majority"><line x1="{left}" y1="{at}" x2="{right}" y2="{at}" '
        f'stroke="#555" stroke-dasharray="4 3"/><text x="{right}" y="{at - 3}" '
        f'font-size="10" text-anchor="end">majority {majority}</text></g>'
    )


def _line(target: str, points: Points, x: Scale, y: Scale, last: int, colour: str) -> str:
    coords: list[str] = []
    votes = 0
    for post, wagons in points:
        now = next((n for t, n, _ in wagons if t == target), 0)
        if now != votes or not coords:
            coords.append(f"{x(post)},{y(votes)}")
            coords.append(f"{x(post)},{y(now)}")
            votes = now
    coords.append(f"{x(last)},{y(votes)}")
    voters = next((v for t, _n, v in points[-1][1] if t == target), ())  # at the end
    hint = f"{target}: {', '.join(voters)}" if voters else target
    return (
        f'<polyline class="wagon" fill="none" stroke="{colour}" stroke-width="2" '
        f'points="{" ".join(coords)}"><title>{escape(hint)}</title></polyline>'
    )


def _legend(target: str, peak: int, index: int) -> str:
    top = PAD + index * 16
    left = WIDTH - LEGEND + 8
    return (
        f'<g class="legend" font-size="11"><rect x="{left}" y="{top - 9}" width="10" '
        f'height="10" fill="{COLOURS[index]}"/><text x="{left + 14}" y="{top}">'
        f"{escape(target)} (max {peak})</text></g>"
    )


def _end_mark(result: CountResult, x: Scale, top: float) -> str:
    decision = result.decision
    post = _end(result)
    if post is None or decision.ended is None:
        return ""
    label = "hammer" if decision.ended == "hammer" else "deadline"
    at = x(post)
    return (
        f'<g class="{label}"><line x1="{at}" y1="{top}" x2="{at}" y2="{HEIGHT - PAD}" '
        f'stroke="#000" stroke-width="1.5"/><text x="{at}" y="{top - 4}" font-size="10" '
        f'text-anchor="middle">{label} (post {post})</text></g>'
    )
