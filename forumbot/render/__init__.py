"""Rendering resolver events into forum text: the phase post, private result PMs, GM report."""

from forumbot.render.events import EventRenderer, RenderError

__all__ = ["EventRenderer", "RenderError"]
