"""A GM action outside the workers ("resolve now") never runs next to a worker's job."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from forumbot.db import make_engine
from forumbot.services.leases import LOCK_SPACE, GameBusy, exclusive
from tests.storage.conftest import _postgres_database


@pytest.mark.postgres
def test_the_gm_waits_while_a_worker_holds_the_game() -> None:
    for url in _postgres_database():
        engine = make_engine(url)
        with engine.connect() as worker, worker.begin():
            # What a worker's job holds while it runs (leases.guard).
            assert worker.execute(select(func.pg_try_advisory_xact_lock(LOCK_SPACE, 7))).scalar()
            with pytest.raises(GameBusy, match="try again"), exclusive(engine, 7):
                pass
            with exclusive(engine, 8):  # another game is free
                pass
        with exclusive(engine, 7):  # the worker's job ended: the GM goes ahead
            pass
        engine.dispose()


def test_sqlite_has_one_worker_and_nothing_to_lock(tmp_path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    ran = []
    with exclusive(engine, 7):
        ran.append(True)
    assert ran == [True]
    engine.dispose()
