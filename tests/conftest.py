"""Test-wide guards: no test may reach the network except loopback."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# CI runs the property tests derandomised: the same examples every run, so a red CI is
# reproducible and a green one is not luck. Locally they stay random (new examples each run).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

_real_connect = socket.socket.connect


def _is_loopback(address: object) -> bool:
    if isinstance(address, tuple) and address:
        host = address[0]
        if host in ("localhost",):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False
    return True  # AF_UNIX sockets (a local PostgreSQL) are fine


def _guarded_connect(self: socket.socket, address: object) -> None:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
        raise RuntimeError(f"tests may only connect to loopback, not {address!r}")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse any connection that would leave this machine."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)


@pytest.fixture
def fixtures_dir() -> Path:
    """The project's recorded data (forum pages, corpora, scenarios)."""
    return FIXTURES
