"""Speed and accuracy of the order parser on the labelled corpus (``fixtures/orders/*.yaml``).

Reports, per language and overall: PMs parsed per second (one core, warm parsers), the
precision of ``accepted`` orders (an accepted PM is right only if the GM's label is accepted
with exactly the same orders), the share of PMs accepted, the share wrongly rejected
(rejected while the label is not), and status agreement. Run::

    .venv/bin/python benchmarks/bench_orders.py [--verbose] [--json] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parsers.orders import History, Learned, OrderParser, ParseResult, history_from_data  # noqa: E402
from parsers.roster import Roster, roster_from_data  # noqa: E402
from resolver.errors import RulesetError  # noqa: E402
from resolver.ruleset import load_ruleset  # noqa: E402

CORPUS = ROOT / "fixtures" / "orders"
SETUPS = ROOT / "fixtures" / "setups"


@dataclass(frozen=True)
class Setup:
    """A corpus game: roster plus per-player uses, items and GM-taught mappings."""

    roster: Roster
    uses: dict[str, dict[str, int]]
    items: dict[str, list[str]]
    learned: Learned
    history: History | None = None


@dataclass(frozen=True)
class Case:
    """One labelled PM."""

    id: str
    ruleset: str
    setup: str
    lang: str
    actor: str
    phase: str
    text: str
    status: str
    orders: tuple[str, ...]
    rule: str | None = None
    recipients: tuple[str, ...] | None = None
    known_miss: str | None = None
    split: str = "tuned"
    accepts_wrongly: bool = False


def load_corpus(folder: Path = CORPUS) -> list[Case]:
    """Every case of every corpus file, in file order."""
    cases: list[Case] = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for raw in data["cases"]:
            recipients = raw.get("recipients")
            cases.append(
                Case(
                    id=raw["id"],
                    ruleset=raw.get("ruleset", data["ruleset"]),
                    setup=raw.get("setup", data["setup"]),
                    lang=raw.get("lang", data["lang"]),
                    actor=raw["actor"],
                    phase=raw["phase"],
                    text=raw["text"],
                    status=raw["status"],
                    orders=tuple(str(o) for o in raw.get("orders") or ()),
                    rule=raw.get("rule"),
                    recipients=tuple(recipients) if recipients is not None else None,
                    known_miss=raw.get("known_miss"),
                    split=data.get("split", "tuned"),
                    accepts_wrongly=bool(raw.get("accepts_wrongly", False)),
                )
            )
    return cases


def load_setup(name: str, folder: Path = SETUPS) -> Setup:
    """A corpus setup file (``fixtures/setups/<name>.yaml``)."""
    data = yaml.safe_load((folder / f"{name}.yaml").read_text(encoding="utf-8"))
    learned = data.get("learned") or {}
    return Setup(
        roster_from_data(data),
        data.get("uses") or {},
        data.get("items") or {},
        Learned(learned.get("names") or {}, learned.get("abilities") or {}),
        history_from_data(data["history"]) if "history" in data else None,
    )


@dataclass
class Runner:
    """Warm parsers (one per ruleset) and loaded setups, shared by the tests and the bench."""

    parsers: dict[str, OrderParser] = field(default_factory=dict)
    setups: dict[str, Setup] = field(default_factory=dict)

    def parser(self, ruleset: str) -> OrderParser:
        """The warm parser of a ruleset (raises RulesetError when the file does not load)."""
        if ruleset not in self.parsers:
            self.parsers[ruleset] = OrderParser(load_ruleset(ruleset))
        return self.parsers[ruleset]

    def run(self, case: Case) -> ParseResult:
        """Parse one case's PM."""
        self.parser(case.ruleset)
        if case.setup not in self.setups:
            self.setups[case.setup] = load_setup(case.setup)
        setup = self.setups[case.setup]
        return self.parsers[case.ruleset].parse(
            case.text,
            roster=setup.roster,
            actor=case.actor,
            phase=case.phase,
            learned=setup.learned,
            recipients=case.recipients,
            uses_left=setup.uses.get(case.actor, {}),
            items=setup.items.get(case.actor, ()),
            history=setup.history,
        )


def rendered(result: ParseResult) -> tuple[str, ...]:
    """The result's orders in the corpus's canonical form."""
    return tuple(order.render() for order in result.orders)


def verdict(case: Case, result: ParseResult) -> str:
    """``ok``, ``wrong_accept`` (the failure that matters), ``wrong_reject`` or ``miss``."""
    got = str(result.status)
    if got == "accepted":
        right = case.status == "accepted" and rendered(result) == case.orders
        return "ok" if right else "wrong_accept"
    if got == case.status:
        return "ok"
    return "wrong_reject" if got == "rejected" else "miss"


def score(pairs: Iterable[tuple[Case, ParseResult]]) -> dict[str, Any]:
    """Accuracy figures for a set of (case, result) pairs."""
    counts: dict[str, int] = defaultdict(int)
    for case, result in pairs:
        counts["pms"] += 1
        counts[verdict(case, result)] += 1
        counts["accepted"] += str(result.status) == "accepted"
        counts["labelled_accepted"] += case.status == "accepted"
    n = counts["pms"] or 1
    accepted = counts["accepted"]
    return {
        "pms": counts["pms"],
        "precision_accepted": round((accepted - counts["wrong_accept"]) / accepted, 4)
        if accepted
        else 1.0,
        "wrong_accepts": counts["wrong_accept"],
        "share_accepted": round(accepted / n, 4),
        "recall_accepted": round(
            (accepted - counts["wrong_accept"]) / max(counts["labelled_accepted"], 1), 4
        ),
        "share_wrongly_rejected": round(counts["wrong_reject"] / n, 4),
        "status_agreement": round(counts["ok"] / n, 4),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print every disagreement")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes over the corpus")
    parser.add_argument("--ruleset", help="only this ruleset's cases")
    args = parser.parse_args(argv)
    runner = Runner()
    cases = []
    for case in load_corpus():
        if args.ruleset and case.ruleset != args.ruleset:
            continue
        try:
            runner.parser(case.ruleset)
        except RulesetError as exc:  # another area's file mid-edit: say so, skip its cases
            print(
                f"skipped {case.id}: ruleset {case.ruleset} does not load ({exc})", file=sys.stderr
            )
            continue
        cases.append(case)
    results = [(case, runner.run(case)) for case in cases]  # warm-up pass, also the answers
    start = time.perf_counter()
    for _ in range(args.repeat):
        for case in cases:
            runner.run(case)
    elapsed = time.perf_counter() - start
    by_lang: dict[str, list[tuple[Case, ParseResult]]] = defaultdict(list)
    for case, result in results:
        by_lang[case.lang].append((case, result))
    report = {
        "pms_per_second": round(len(cases) * args.repeat / elapsed, 1),
        "overall": score(results),
        "by_language": {lang: score(pairs) for lang, pairs in sorted(by_lang.items())},
        "by_split": {
            split: score(p for p in results if p[0].split == split)
            for split in sorted({c.split for c in cases})
        },
        "by_ruleset": {
            rs: score(p for p in results if p[0].ruleset == rs)
            for rs in sorted({c.ruleset for c in cases})
        },
    }
    if args.verbose:
        for case, result in results:
            outcome = verdict(case, result)
            if outcome != "ok":
                print(f"{outcome:12} {case.id} [{case.actor}] {case.text!r}")
                print(f"{'':12} want {case.status} {list(case.orders)}")
                print(f"{'':12} got  {result.status} {list(rendered(result))} | {result.reason}")
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(f"{len(cases)} PMs, {report['pms_per_second']} PMs/s (one core, warm)")
        rows = [("overall", report["overall"]), *report["by_language"].items()]
        rows += [(f"split:{k}", v) for k, v in report["by_split"].items()]
        for name, figures in rows:
            print(f"  {name:8} " + "  ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
