"""Live boards for the tests: phpBB 3.3.10, SMF 2.1.4 and SMF 2.0.19 started from the kits in
``../shared/live-boards`` (or ``$FORUMBOT_LIVE_BOARDS``), once per session, in a temporary
folder, and stopped at the end. Skipped where the kit or PHP is absent; failed in CI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.boards import Board, start_board

KINDS = ("phpbb", "smf21", "smf20")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test on a live board is a ``live`` test (``-m 'not live'`` leaves them out)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_board = "board" in names or any(n.endswith("_board") for n in names)
        if on_board or any(v in KINDS for v in params.values()):
            item.add_marker(pytest.mark.live)


def _board(kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    board = start_board(kind, tmp_path_factory.mktemp(kind, numbered=True))
    board.set_flood(0)  # fast by default; the flood tests set it back to stock
    if board.engine == "smf":  # the tests share the bot: no hourly PM cap but in test_faults
        board.set_pm_limit(0)
    try:
        yield board
    finally:
        board.stop()


@pytest.fixture(scope="session")
def phpbb_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """phpBB 3.3.10 on loopback (flood interval 0)."""
    yield from _board("phpbb", tmp_path_factory)


@pytest.fixture(scope="session")
def smf21_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """SMF 2.1.4 on loopback (spamWaitTime 0)."""
    yield from _board("smf21", tmp_path_factory)


@pytest.fixture(scope="session")
def smf20_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """SMF 2.0.19 on loopback (spamWaitTime 0)."""
    yield from _board("smf20", tmp_path_factory)


@pytest.fixture(params=KINDS)
def board(request: pytest.FixtureRequest) -> Board:
    """Each live board in turn."""
    return request.getfixturevalue(f"{request.param}_board")
