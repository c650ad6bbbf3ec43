"""The GM's local web page (``forumbot serve``): review queue, phase, drafts, report, state."""

from forumbot.web.app import create_app

__all__ = ["create_app"]
