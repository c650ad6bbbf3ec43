"""Replay recorded forum pages at the HTTP edge (``responses``), with a fake clock.

A ``Replay`` serves captured pages (``fixtures/<engine>/NAME.html`` with the status, headers
and cookies of its ``NAME.json`` sidecar) for the URLs a test routes, in order; every request
that no route expects fails the test. Nothing leaves the process.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest
import requests
import responses

from forum_adapters.http import HttpSettings, PoliteSession

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SMF20 = "http://127.0.0.1:8120/index.php"
SMF21 = "http://127.0.0.1:8121/index.php"
PHPBB = "http://127.0.0.1:8733/"
LOOPBACK = re.compile(r"http://127\.0\.0\.1:\d+/.*")
Headers = list[tuple[str, str]]


class FakeClock:
    """A monotonic clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)


@dataclass
class Capture:
    """One recorded response: status, headers (Set-Cookie and Location included), body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    @classmethod
    def load(cls, folder: str, name: str) -> Capture:
        base = FIXTURES / folder / name
        body = base.with_suffix(".html").read_bytes() if base.with_suffix(".html").exists() else b""
        meta = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
        headers: list[tuple[str, str]] = []
        if "response" in meta:  # SMF sidecars
            status = meta["response"]["status"]
            for key, values in meta["response"]["headers"].items():
                if key.lower() in ("content-length", "transfer-encoding", "connection", "host"):
                    continue
                headers.extend((key, value) for value in values)
        else:  # phpBB sidecars
            status = meta["status"]
            for key, value in meta.get("response_headers", {}).items():
                if key.lower() not in ("content-length", "connection"):
                    headers.append((key, value))
            headers.extend(("Set-Cookie", line) for line in meta.get("set_cookie", []))
            if "captured_at_unix" in meta:
                headers.append(("Date", formatdate(meta["captured_at_unix"], usegmt=True)))
        return cls(status, headers, body)


@dataclass
class Route:
    method: str
    match: Callable[[str, str], bool]
    answers: list[Any]
    hits: int = 0


@dataclass
class Replay:
    """Routes requests to recorded pages; keeps every request seen."""

    folder: str
    rsps: responses.RequestsMock
    routes: list[Route] = field(default_factory=list)
    calls: list[tuple[str, str, str]] = field(default_factory=list)

    def on(self, method: str, pattern: str, *answers: Any) -> Route:
        """Answer ``method`` requests whose URL matches the regex ``pattern`` with ``answers``
        in turn (the last one repeats). An answer is a capture name, a ``Capture``, an
        exception instance (raised), or a callable taking the request body."""
        regex = re.compile(pattern)
        route = Route(method, lambda m, url: m == method and bool(regex.search(url)), list(answers))
        self.routes.insert(0, route)  # later routes take precedence
        return route

    def _callback(self, request: requests.PreparedRequest) -> tuple[int, Headers, bytes]:
        body = request.body or ""
        body = body.decode() if isinstance(body, bytes) else body
        url = (request.url or "").split("#")[0]  # a server never sees the fragment
        self.calls.append((request.method or "", url, body))
        for route in self.routes:
            if route.match(request.method or "", url):
                answer = route.answers[min(route.hits, len(route.answers) - 1)]
                route.hits += 1
                if callable(answer) and not isinstance(answer, Capture):
                    answer = answer(body)
                if isinstance(answer, BaseException):
                    raise answer
                if not isinstance(answer, Capture):
                    answer = Capture.load(self.folder, answer)
                capture = answer
                return capture.status, capture.headers, capture.body
        raise AssertionError(f"unexpected request: {request.method} {request.url}")

    def install(self) -> None:
        for method in ("GET", "POST"):
            self.rsps.add_callback(method, LOOPBACK, self._callback)

    def posts(self) -> list[tuple[str, str, str]]:
        return [call for call in self.calls if call[0] == "POST"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def http(clock: FakeClock) -> PoliteSession:
    settings = HttpSettings(rate=1.0, attempts=3, backoff_initial=0.5, backoff_max=4.0)
    return PoliteSession(settings=settings, clock=clock.time, sleep=clock.sleep)


def _replay(folder: str) -> Any:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        replay = Replay(folder, rsps)
        replay.install()
        yield replay


@pytest.fixture
def smf21() -> Any:
    yield from _replay("smf21")


@pytest.fixture
def smf20() -> Any:
    yield from _replay("smf20")


@pytest.fixture
def phpbb() -> Any:
    yield from _replay("phpbb33")


def page(folder: str, name: str) -> bytes:
    """The raw bytes of a recorded page."""
    return (FIXTURES / folder / f"{name}.html").read_bytes()


def edited(folder: str, name: str, old: str, new: str, *, status: int | None = None) -> Capture:
    """A recorded page with one string replaced: for states the capture run could not
    produce (each use says which real page it starts from and why)."""
    capture = Capture.load(folder, name)
    assert old.encode() in capture.body, f"{old!r} not in {name}"
    body = capture.body.replace(old.encode(), new.encode(), 1)
    return Capture(status or capture.status, capture.headers, body)
