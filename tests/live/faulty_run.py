"""``forumbot`` with a fault at an exact moment, for the live fault tests.

Run as ``python -m tests.live.faulty_run ARGS...`` (the same arguments as ``forumbot``). After
the forum answered a POST whose URL matches ``$FAULT_URL`` and whose form has ``$FAULT_FIELD``
(a regular expression and a field name), the fault in ``$FAULT`` happens before forumbot sees
the answer:

* ``kill``: the process kills itself with SIGKILL (as ``kill -9`` would), so the forum holds
  the message and the bot never learnt it;
* ``stop-web``: the board's web server (process group ``$FAULT_WEB_PGID``) is stopped and
  forumbot gets no answer (the connection drops), then goes on against a board that no
  longer answers.

Only the first matching POST is faulted.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from typing import Any
from urllib.parse import parse_qs

import requests

_real_send = requests.Session.send


def _matches(request: requests.PreparedRequest) -> bool:
    if request.method != "POST" or not re.search(os.environ["FAULT_URL"], request.url or ""):
        return False
    body = request.body or ""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
    return os.environ.get("FAULT_FIELD", "message") in parse_qs(text)


def _send(self: requests.Session, request: requests.PreparedRequest, **kwargs: Any) -> Any:
    response = _real_send(self, request, **kwargs)
    if _matches(request):
        if os.environ["FAULT"] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        requests.Session.send = _real_send  # type: ignore[method-assign]
        os.killpg(int(os.environ["FAULT_WEB_PGID"]), signal.SIGTERM)
        time.sleep(0.5)
        raise requests.ConnectionError("the web server went away mid-send")
    return response


if __name__ == "__main__":
    requests.Session.send = _send  # type: ignore[method-assign]
    from forumbot.cli import main

    sys.argv[0] = "forumbot"
    sys.exit(main())
