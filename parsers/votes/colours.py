"""Colour families for colour votes: ``#FF0000``, ``red`` and ``darkred`` all read as red.

Seed 004 votes in red and addresses the host in blue, whatever red or blue a player picks, so
the vote syntax compares families (by hue), not exact colours.
"""

from __future__ import annotations

import colorsys
import enum

from parsers.html import normalise_colour

__all__ = ["ColourFamily", "colour_family"]


class ColourFamily(enum.Enum):
    """Coarse colour names, so that ``#FF0000``, ``red`` and ``darkred`` all read as red."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    CYAN = "cyan"
    BLUE = "blue"
    PURPLE = "purple"
    PINK = "pink"
    GREY = "grey"


def colour_family(value: str | None) -> ColourFamily | None:
    """The coarse family of a colour (dark red and crimson are red, navy is blue).

    Args:
        value: a colour as :func:`normalise_colour` returns it (or any CSS colour).

    Returns:
        The family, or None for black/white/unknown colours.
    """
    colour = normalise_colour(value) if value else None
    if not colour or not colour.startswith("#"):
        return None
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, sat, val = colorsys.rgb_to_hsv(r, g, b)
    if val < 0.2 or (sat < 0.25 and val > 0.9):
        return None  # black, white
    if sat < 0.25:
        return ColourFamily.GREY
    degrees = hue * 360
    for upper, family in _HUES:
        if degrees < upper:
            return family
    return ColourFamily.RED


_HUES = (
    (15, ColourFamily.RED),
    (45, ColourFamily.ORANGE),
    (70, ColourFamily.YELLOW),
    (160, ColourFamily.GREEN),
    (195, ColourFamily.CYAN),
    (255, ColourFamily.BLUE),
    (290, ColourFamily.PURPLE),
    (340, ColourFamily.PINK),
)
