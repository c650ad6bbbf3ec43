"""Time to read one long order PM (issue 11: a PM of up to 64 KB in under 100 ms).

Builds realistic PMs of just under 64 KB, one per language: chat over many lines, quoted
posts (BBCode ``[quote]`` and ``>`` lines), a few player names (declined, in Russian), and
one order at the end; a long PM of many orders (a player's corpus PMs one after another,
English and Russian); ``bench_orders``'s chat naming a player in every sentence; and, as the
worst case, the same chat as one sentence of 64 KB (no sentence end, no line break, no
quote: one scan over every word; English and French). Each is
parsed ``--runs`` times; the median and the best are printed in wall-clock and CPU
milliseconds, with the reading (the order at the end must still be read). Run::

    .venv/bin/python benchmarks/bench_order_speed.py [--runs 9] [--profile chat_en]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_orders import (  # noqa: E402
    _CHAT,
    CORPUS,
    LONG_PM_BYTES,
    Runner,
    load_setup,
    rendered,
)


@dataclass(frozen=True)
class LongPm:
    """A long PM of a corpus game: ruleset, setup, sender, phase and text."""

    ruleset: str
    setup: str
    actor: str
    phase: str
    text: str


_EN_LINES = (
    "ok so I re-read the whole of day 2 and I still can't make sense of the wagon on {a}",
    "no idea who even started it, it came out of nowhere after {b} posted that wall",
    "[quote={b}]I think we should look at the quiet ones, they always get away with it[/quote]",
    "that's such a null thing to say, everyone says that every game",
    "> I'm not sure about {a}, but the vote count looks off to me",
    "> anyway, see you tomorrow",
    "and the mod said the count was fine so whatever, moving on",
    "I was at work all afternoon so sorry for the late reply lol",
    "honestly my read on {c} hasn't changed since day 1, still leaning town",
    "",
)
_FR_LINES = (
    "bon j'ai relu tout le jour 2 et je comprends toujours pas le train sur {a}",
    "aucune idée de qui l'a lancé, c'est sorti de nulle part après le pavé de {b}",
    "[quote={b}]Il faut regarder les discrets, ils passent toujours entre les mailles[/quote]",
    "c'est vraiment la phrase que tout le monde sort à chaque partie",
    "> je suis pas sûr pour {a}, mais le décompte des votes me paraît bizarre",
    "> bref, à demain",
    "et le MJ a dit que le décompte était bon donc bon, on passe",
    "j'étais au boulot tout l'après-midi donc désolé pour le retard",
    "franchement mon avis sur {c} n'a pas changé depuis le jour 1, plutôt village",
    "",
)
_RU_LINES = (
    "короче перечитал весь второй день и так и не понял, откуда взялся вагон на {a}",
    "кто его начал вообще непонятно, всё завертелось после простыни от {b}",
    "[quote={b}]Надо смотреть на молчунов, им всегда всё сходит с рук[/quote]",
    "ну это пустые слова, так говорят в каждой партии",
    "> не уверен насчёт {a}, но подсчёт голосов какой-то странный",
    "> ладно, до завтра",
    "а ведущий сказал, что подсчёт верный, так что проехали",
    "я весь день был на работе, так что сорри за поздний ответ",
    "честно, моё мнение о {c} с первого дня не поменялось, скорее мирный",
    "",
)


def _lines(template: tuple[str, ...], names: list[str], order: str) -> str:
    """Chat lines of ``template`` cycling over ``names``, cut to 64 KB with ``order`` last."""
    tail = "\n\n" + order
    budget = LONG_PM_BYTES - 4 - len(tail.encode("utf-8"))
    out: list[str] = []
    size = 0
    for i in range(100_000):
        line = template[i % len(template)].format(
            a=names[i % len(names)], b=names[(i + 1) % len(names)], c=names[(i + 2) % len(names)]
        )
        size += len(line.encode("utf-8")) + 1
        if size > budget:
            break
        out.append(line)
    return "\n".join(out) + tail


# What ends a PM's text or makes it another format when it is not at the end: a signature
# line, a quoted mail's header, HTML.
_NOT_INSIDE = re.compile(r"^\s*(--|—)\s*$|wrote:|<\w+>", re.M)


def _orders(case_file: str, actor: str) -> str:
    """The PMs the corpus file ``case_file`` has from ``actor``, one after another (a long
    PM of many orders, corrections and questions), repeated and cut to 64 KB; a PM that
    would end the text or change its format (``_NOT_INSIDE``) is left out."""
    data = yaml.safe_load((CORPUS / case_file).read_text(encoding="utf-8"))
    texts = [
        c["text"]
        for c in data["cases"]
        if c["actor"] == actor and not _NOT_INSIDE.search(c["text"])
    ]
    out: list[str] = []
    size = 0
    for i in range(100_000):
        text = texts[i % len(texts)]
        size += len(text.encode("utf-8")) + 2
        if size > LONG_PM_BYTES - 4:
            break
        out.append(text)
    return "\n\n".join(out)


# What ends a sentence or a line, or makes a quote: none in the one-sentence PMs.
_ENDS = re.compile(r"[.!?;]|\[/?quote[^\]]*\]|^> ", re.M)


def _one_sentence(text: str) -> str:
    """``text`` as one sentence of just under 64 KB (see ``_ENDS``)."""
    body = " ".join(_ENDS.sub("", text).split())
    return body.encode("utf-8")[: LONG_PM_BYTES - 4].decode("utf-8", "ignore").rsplit(" ", 1)[0]


def long_pms() -> dict[str, LongPm]:
    """The PMs timed: realistic chat with an order at the end (en, fr, ru), a long PM of
    many orders (en, ru), chat naming a player in every sentence, and chat as one sentence
    (en, fr)."""
    pairs = zip(["Ann", "Bob"] * 1000, ["Carl"] * 2000, strict=True)
    chat = "".join(_CHAT.format(a=n, b=m) for n, m in pairs)
    worst = chat.encode("utf-8")[: LONG_PM_BYTES - 4].decode("utf-8", "ignore").rsplit(" ", 1)[0]
    english = _lines(_EN_LINES, ["Carl", "Iris", "Gwen"], "Anyway. Heal Frank tonight.")
    french = _lines(_FR_LINES, ["Hugo", "Sacha", "Camille"], "Bref. Je vote Lucas.")
    russian = _lines(_RU_LINES, ["Кота", "Лисы", "Тигры"], "В общем. Лечу Кота.")
    return {
        "chat_en": LongPm("failheap", "failheap_a", "Bob", "night2", english),
        "chat_fr": LongPm("durarara", "durarara_a", "Jeanne", "day2", french),
        "chat_ru": LongPm("ru_mafia", "ru_mafia_a", "Маша", "night2", russian),
        "orders_en": LongPm(
            "failheap", "failheap_a", "Bob", "night2", _orders("failheap_en.yaml", "Bob")
        ),
        "orders_ru": LongPm(
            "ru_mafia", "ru_mafia_a", "Маша", "night2", _orders("ru_mafia_ru.yaml", "Маша")
        ),
        "every_sentence_en": LongPm("failheap", "failheap_a", "Bob", "night2", worst),
        "one_sentence_en": LongPm(
            "failheap", "failheap_a", "Bob", "night2", _one_sentence(english)
        ),
        "one_sentence_fr": LongPm(
            "durarara", "durarara_a", "Jeanne", "day2", _one_sentence(french)
        ),
    }


def time_pm(runner: Runner, pm: LongPm, runs: int) -> tuple[list[float], list[float], str]:
    """Wall and CPU milliseconds of ``runs`` parses of ``pm`` and the reading."""
    parser = runner.parser(pm.ruleset)
    setup = load_setup(pm.setup)
    walls: list[float] = []
    cpus: list[float] = []
    reading = ""
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = parser.parse(
            pm.text, roster=setup.roster, actor=pm.actor, phase=pm.phase, history=setup.history
        )
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - start_cpu) * 1000)
        reading = f"{result.status} {list(rendered(result))} | {result.reason[:60]}"
    return walls, cpus, reading


def main(argv: list[str] | None = None) -> int:
    """Time each long PM and print median/best wall and CPU milliseconds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="parses of each PM")
    parser.add_argument("--profile", help="profile this PM (cProfile, top 30 by own time)")
    args = parser.parse_args(argv)
    runner = Runner()
    pms = long_pms()
    if args.profile:
        pm = pms[args.profile]
        time_pm(runner, pm, 1)
        profiler = cProfile.Profile()
        profiler.enable()
        time_pm(runner, pm, 3)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return 0
    for name, pm in pms.items():
        time_pm(runner, pm, 1)  # warm
        walls, cpus, reading = time_pm(runner, pm, args.runs)
        size = len(pm.text.encode("utf-8"))
        print(
            f"{name:18} {size} B  wall median {statistics.median(walls):6.1f} ms"
            f" best {min(walls):6.1f}  cpu median {statistics.median(cpus):6.1f} ms"
            f" best {min(cpus):6.1f}  -> {reading}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
