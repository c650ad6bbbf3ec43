"""Test-wide guards: no test may reach the network except loopback."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

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
