"""forumbot: moderates forum Mafia/Werewolf games for a game moderator (GM)."""

__version__ = "0.1.0"
