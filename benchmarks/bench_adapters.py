"""Forum adapter benchmark: parse time per page, requests per idle poll, catch-up memory.

Targets (issue 3): median parse time under 10 ms per topic page and per inbox page (lxml,
one core); an idle poll costs one request for the thread and one for the inbox; catching up
a 5,000-post thread stays under 200 MB. Everything runs offline on the recorded pages in
``fixtures/`` (the 5,000-post thread is built from the recorded SMF 2.1 page template and
served through ``responses``, so the real adapter code path runs, HTTP included). Run::

    .venv/bin/python benchmarks/bench_adapters.py [--repeat 30] [--posts 5000] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import formatdate
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import responses

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forum_adapters import PhpBBAdapter, SMFAdapter, ThreadRef  # noqa: E402
from forum_adapters.base import PMId, PostId  # noqa: E402
from forum_adapters.http import HttpSettings, PoliteSession  # noqa: E402
from forum_adapters.markup import parse_html  # noqa: E402
from forum_adapters.phpbb import parse as phpbb_parse  # noqa: E402
from forum_adapters.smf import parse as smf_parse  # noqa: E402

FIXTURES = ROOT / "fixtures"
NOW = datetime(2026, 11, 29, 13, 38, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")
SMF21 = "http://127.0.0.1:8121/index.php"
PHPBB = "http://127.0.0.1:8733/"
DATE = formatdate(NOW.timestamp(), usegmt=True)


def _page(folder: str, name: str) -> bytes:
    return (FIXTURES / folder / f"{name}.html").read_bytes()


def _median_ms(func: Callable[[], object], repeat: int) -> float:
    """Median CPU time of ``func`` in ms (CPU, not wall time: "on one core", and steady on a
    shared machine)."""
    func()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.process_time()
        func()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def parse_times(repeat: int) -> dict[str, dict[str, float]]:
    """Median ms to parse each recorded page (HTML parse + our parser), per kind."""
    cases: dict[str, list[tuple[str, Callable[[], object]]]] = {"topic": [], "inbox": []}
    smf = {"smf20": "http://127.0.0.1:8120/index.php", "smf21": SMF21}
    for folder, base in smf.items():
        for n in range(1, 6):
            body = _page(folder, f"topic_p{n}")
            cases["topic"].append(
                (
                    f"{folder}/topic_p{n}",
                    lambda b=body, u=base: smf_parse.parse_topic_page(
                        parse_html(b), "", now=NOW, tz=UTC_ZONE, base_url=u
                    ),
                )
            )
        for name in ("pm_inbox_p1", "pm_inbox_p2", "pm_inbox_desc_p1"):
            body = _page(folder, name)
            cases["inbox"].append(
                (
                    f"{folder}/{name}",
                    lambda b=body, u=base: smf_parse.parse_inbox_page(
                        parse_html(b), "", now=NOW, tz=UTC_ZONE, base_url=u
                    ),
                )
            )
    for n in range(1, 8):
        body = _page("phpbb33", f"topic_page_{n}")
        cases["topic"].append(
            (
                f"phpbb33/topic_page_{n}",
                lambda b=body: phpbb_parse.parse_topic_page(
                    parse_html(b), "", now=NOW, tz=UTC_ZONE, base_url=PHPBB
                ),
            )
        )
    body = _page("phpbb33", "pm_inbox")
    cases["inbox"].append(
        (
            "phpbb33/pm_inbox",
            lambda b=body: phpbb_parse.parse_pm_list(
                parse_html(b), "", now=NOW, tz=UTC_ZONE, base_url=PHPBB
            ),
        )
    )
    for name in ("pm_view", "pm_view_two_recipients"):
        body = _page("phpbb33", name)
        cases["inbox"].append(
            (
                f"phpbb33/{name}",
                lambda b=body: phpbb_parse.parse_pm_view(parse_html(b), "", now=NOW, tz=UTC_ZONE),
            )
        )
    result: dict[str, dict[str, float]] = {}
    for kind, items in cases.items():
        per_page = {name: _median_ms(func, repeat) for name, func in items}
        result[kind] = {
            "median_ms": round(statistics.median(per_page.values()), 2),
            "worst_median_ms": round(max(per_page.values()), 2),
            "pages": len(per_page),
        }
    return result


def _serve(rsps: responses.RequestsMock, routes: dict[str, Callable[[str], bytes]]) -> None:
    def callback(request: Any) -> tuple[int, dict[str, str], bytes]:
        url = request.url.split("#")[0]
        for pattern, make in routes.items():
            if re.search(pattern, url):
                return 200, {"Date": DATE, "Content-Type": "text/html; charset=UTF-8"}, make(url)
        return 404, {}, b"unexpected request"

    rsps.add_callback("GET", re.compile(r"http://127\.0\.0\.1:\d+/.*"), callback)


def _http() -> PoliteSession:
    fake = [0.0]

    def sleep(seconds: float) -> None:
        fake[0] += seconds

    return PoliteSession(settings=HttpSettings(rate=1.0), clock=lambda: fake[0], sleep=sleep)


def idle_polls() -> dict[str, dict[str, int]]:
    """Requests made by one idle poll (nothing new) of the thread and of the inbox."""
    result = {}
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(
            rsps,
            {
                r"topic=2\.msg65$": lambda _: _page("smf21", "topic_p5"),
                r"action=pm;f=inbox;sort=date;desc;start=0$": lambda _: _page(
                    "smf21", "pm_inbox_desc_p1"
                ),
                r"viewtopic\.php\?p=62$": lambda _: _page("phpbb33", "topic_page_7"),
                r"folder=inbox$": lambda _: _page("phpbb33", "pm_inbox"),
            },
        )
        for name, make, topic_after, pm_after in (
            ("smf21", lambda h: SMFAdapter(SMF21, "ModBot", "x", http=h), 65, 33),
            ("phpbb33", lambda h: PhpBBAdapter(PHPBB, "ModBot", "x", http=h), 62, 9),
        ):
            http = _http()
            adapter = make(http)
            assert not list(adapter.iter_posts(ThreadRef(2), after=PostId(topic_after)))
            thread_requests = http.request_count
            assert not list(adapter.iter_pms(after=PMId(pm_after)))
            result[name] = {
                "thread": thread_requests,
                "inbox": http.request_count - thread_requests,
            }
    return result


class SyntheticThread:
    """An SMF 2.1 topic of ``total`` posts, 15 a page, cut from the recorded topic_p2 page."""

    PER_PAGE = 15

    def __init__(self, total: int) -> None:
        html = _page("smf21", "topic_p2").decode("utf-8")
        first = html.index('<div class="windowbg" id="msg17">')
        second = html.index('<div class="windowbg" id="msg18">')
        last_end = html.index("</form>", html.index('id="msg31"'))
        self.head, self.post, self.tail = html[:first], html[first:second], html[last_end:]
        self.total = total

    def page(self, start: int) -> bytes:
        first_id = start + 2
        ids = range(first_id, min(first_id + self.PER_PAGE, self.total + 2))
        posts = "".join(
            re.sub(r"(msg|msg_|subject_|modified_|msgid=\"|msg=)17\b", rf"\g<1>{i}", self.post)
            for i in ids
        )
        last_start = (self.total - 1) // self.PER_PAGE * self.PER_PAGE
        links = f'<a class="nav_page" href="{SMF21}?topic=2.0">1</a> '
        if start + self.PER_PAGE <= last_start:
            links += f'<a class="nav_page" href="{SMF21}?topic=2.{start + self.PER_PAGE}">n</a> '
        links += f'<a class="nav_page" href="{SMF21}?topic=2.{last_start}">last</a>'
        head = re.sub(
            r'((?:rel="canonical" href|property="og:url" content)="[^"]*topic=2\.)\d+',
            rf"\g<1>{start}",
            self.head,
        )
        head = re.sub(
            r'(<div class="pagelinks floatleft">).*?(</div>)',
            rf"\g<1>{links}\g<2>",
            head,
            flags=re.S,
        )
        return (head + posts + self.tail).encode("utf-8")


def catch_up(total: int) -> dict[str, float]:
    """Read a ``total``-post thread from the start through the adapter; peak memory and time."""
    thread = SyntheticThread(total)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, {r"topic=2\.(\d+)$": lambda url: thread.page(int(url.rsplit(".", 1)[1]))})
        http = _http()
        adapter = SMFAdapter(SMF21, "ModBot", "x", http=http)
        tracemalloc.start()
        started = time.perf_counter()
        posts = list(adapter.iter_posts(ThreadRef(2)))
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert [p.post_id for p in posts] == list(range(2, total + 2)), "synthetic thread misread"
    return {
        "posts": len(posts),
        "requests": http.request_count,
        "seconds": round(elapsed, 2),
        "ms_per_page": round(elapsed * 1000 / http.request_count, 2),
        "python_peak_mb": round(peak / 2**20, 1),
        "process_max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = {
        "parse": parse_times(args.repeat),
        "idle_poll_requests": idle_polls(),
        "catch_up": catch_up(args.posts),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for kind, row in report["parse"].items():
        print(
            f"parse {kind:5} page: median {row['median_ms']} ms "
            f"(worst page median {row['worst_median_ms']} ms, {row['pages']} pages; target < 10)"
        )
    for engine, row in report["idle_poll_requests"].items():
        print(f"idle poll {engine}: {row['thread']} thread + {row['inbox']} inbox request(s)")
    c = report["catch_up"]
    print(
        f"catch-up {c['posts']} posts: {c['requests']} requests, {c['seconds']} s "
        f"({c['ms_per_page']} ms/page incl. HTTP mock), Python peak {c['python_peak_mb']} MB, "
        f"process max RSS {c['process_max_rss_mb']} MB (target < 200)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
