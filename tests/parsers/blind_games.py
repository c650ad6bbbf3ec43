"""Read a new text as a player of one of the blind rounds' games (their setups in
``fixtures/orders/setups/``), through the bench's runner: how the tests of the classes those
rounds found put a text to the parser."""

from __future__ import annotations

from benchmarks.bench_orders import Case, Runner

RUNNER = Runner()


def read_as(
    ruleset: str, setup: str, phase: str, actor: str, text: str
) -> tuple[str, tuple[str, ...]]:
    """The status and the rendered orders of ``text`` sent by ``actor`` in ``phase``."""
    case = Case("t", ruleset, setup, "", actor, phase, text, "ambiguous", ())
    result = RUNNER.run(case)
    return str(result.status), tuple(order.render() for order in result.orders)
