"""Forum engines (SMF, phpBB) behind one small interface. The only package that speaks HTTP.

``ENGINES`` has one entry per supported engine (``forum_adapters/engines.py``);
``ADAPTERS[engine](base_url, username, password, ...)`` builds an adapter; ``locate(url)``
tells the engine and the topic from a URL (``detect_engine(html=...)`` from a page).
"""

from forum_adapters.base import (
    ForumAdapter,
    PMId,
    PMRef,
    Post,
    PostId,
    PostRef,
    PrivateMessage,
    ThreadRef,
    UserId,
    UserRef,
)
from forum_adapters.core import AdapterCore
from forum_adapters.detect import ForumLocation, detect_engine, locate
from forum_adapters.engines import ENGINES, EngineEntry
from forum_adapters.errors import ForumError
from forum_adapters.factory import ADAPTERS, Adapter, connect
from forum_adapters.http import HttpSettings, PoliteSession
from forum_adapters.phpbb import PhpBBAdapter
from forum_adapters.smf import SMFAdapter

__all__ = [
    "ADAPTERS",
    "ENGINES",
    "Adapter",
    "AdapterCore",
    "EngineEntry",
    "ForumAdapter",
    "ForumError",
    "ForumLocation",
    "HttpSettings",
    "PMId",
    "PMRef",
    "PhpBBAdapter",
    "PoliteSession",
    "Post",
    "PostId",
    "PostRef",
    "PrivateMessage",
    "SMFAdapter",
    "ThreadRef",
    "UserId",
    "UserRef",
    "connect",
    "detect_engine",
    "locate",
]
