"""phpBB 3.2 and 3.3: URL table, pure page parsers, and the ``PhpBBAdapter`` HTTP class."""

from forum_adapters.phpbb.client import URLS, PhpBBAdapter

__all__ = ["URLS", "PhpBBAdapter"]
