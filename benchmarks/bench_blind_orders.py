"""Score a blind round of order PMs (``fixtures/orders-blind/<round>/``) with the current parser.

A blind round is run once for the numbers that count (its ``FIRST_RUN.txt``); running it again
shows what later changes fixed. Prints each PM's label and reading, then the figures::

    .venv/bin/python benchmarks/bench_blind_orders.py fixtures/orders-blind/roundA

A round moved into the corpus (``fixtures/orders/``, split named like its folder) is read
from there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_orders import (  # noqa: E402
    Runner,
    load_corpus,
    load_setup,
    rendered,
    score,
    verdict,
)


def main() -> None:
    """Run the round and print every PM, then the figures per language."""
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("round", type=Path, help="a folder of corpus files with setups/ inside")
    folder = args.parse_args().round
    runner = Runner()
    cases = load_corpus(folder)
    for case in cases:
        if case.setup not in runner.setups:
            runner.setups[case.setup] = load_setup(case.setup, folder / "setups")
    if not cases:  # a round moved into the corpus: its cases are the split of its name
        cases = [c for c in load_corpus() if c.split == folder.name]
    pairs = [(case, runner.run(case)) for case in cases]
    for case, result in pairs:
        print(f"{case.id:8} {case.lang} {case.ruleset:9} label={case.status:9} "
              f"got={result.status!s:9} {verdict(case, result):12} "
              f"label_orders={list(case.orders)} got_orders={rendered(result)} "
              f"| {result.reason[:90]!r}")  # fmt: skip
    for lang in ("en", "fr", "ru", None):
        chosen = [(c, r) for c, r in pairs if lang is None or c.lang == lang]
        print(lang or "all", json.dumps(score(chosen)))


if __name__ == "__main__":
    main()
