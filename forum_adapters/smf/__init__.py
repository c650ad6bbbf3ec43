"""SMF 2.0 and 2.1: URL table, pure page parsers, and the ``SMFAdapter`` HTTP class."""

from forum_adapters.smf.client import URLS, SMFAdapter

__all__ = ["URLS", "SMFAdapter"]
