"""Run the command line with ``python -m forumbot``."""

from forumbot.cli import main

main()
