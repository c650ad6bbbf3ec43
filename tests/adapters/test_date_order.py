"""A forum's date order (``forum.date_order``): ``05/03/2026`` is 5 March on French and Russian
boards and 3 May on US ones. The game file names it, the runtime's adapter reads every date
with it, and a wrong value is one clear sentence naming the setting."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import yaml

from forum_adapters import SMFAdapter
from forum_adapters.markup import parse_html
from forum_adapters.smf import parse
from forum_adapters.timeparse import parse_forum_time
from forumbot.errors import ConfigError
from forumbot.gamefile import parse_game
from forumbot.runtime.app import make_adapter
from forumbot.services.context import ForumAccess
from tests.adapters.conftest import SMF21, page

NOW = datetime(2026, 11, 29, 13, 38, tzinfo=UTC)
EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "example-game.yaml"
_SHOWN = re.compile(r"Nov (\d{1,2}), 2026, (\d\d):(\d\d) ([AP])M")


def _numeric_page() -> str:
    """SMF 2.1's recorded topic page, its post dates written as a French board writes them
    (day/month/year, 24 h), moved to 1-12 March so that day and month can be mistaken."""

    def french(match: re.Match[str]) -> str:
        hour = int(match.group(2)) % 12 + (12 if match.group(4) == "P" else 0)
        return f"{int(match.group(1)) - 20:02d}/03/2026, {hour:02d}:{match.group(3)}"

    return _SHOWN.sub(french, page("smf21", "topic_p1").decode("utf-8"))


@pytest.mark.parametrize(
    ("order", "expected"), [("dmy", date(2026, 3, 7)), ("mdy", date(2026, 7, 3))]
)
def test_the_topic_parser_reads_numeric_dates_in_the_forums_order(
    order: str, expected: date
) -> None:
    root = parse_html(_numeric_page().encode("utf-8"))
    adapter = SMFAdapter(SMF21, "ModBot", None, date_order=order)
    topic = parse.parse_topic_page(
        root, "", now=NOW, tz=UTC, base_url=SMF21, order=adapter.date_order
    )
    assert topic.posts[0].posted_at.date() == expected  # "07/03/2026, 18:00"


def test_unset_the_order_is_guessed_and_a_year_first_is_always_the_year() -> None:
    read = lambda text, order=None: parse_forum_time(text, now=NOW, tz=UTC, order=order)  # noqa: E731
    assert read("05.03.2026 10:00").date() == date(2026, 3, 5)  # dots: day first
    assert read("05/03/2026 10:00").date() == date(2026, 5, 3)  # slashes: month first
    assert read("25/03/2026 10:00").date() == date(2026, 3, 25)  # unless it cannot be
    assert read("05/03/2026 10:00", "dmy").date() == date(2026, 3, 5)
    assert read("2026/03/05 10:00", "dmy").date() == date(2026, 3, 5)
    with pytest.raises(ValueError, match="mdy"):
        read("25/03/2026 10:00", "mdy")


def _game(**forum: object) -> dict:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["forum"].update(forum)
    return data


def test_the_game_file_names_the_order_and_the_runtime_adapter_uses_it() -> None:
    config = parse_game(_game(date_order="dmy"))
    assert config.forum.date_order == "dmy"
    access = ForumAccess(1, "smf", SMF21, "2", f"{SMF21}?topic=2.0", "ModBot",
                         password_env="FB_TEST_PW", date_order=config.forum.date_order)  # fmt: skip
    with pytest.MonkeyPatch.context() as env:
        env.setenv("FB_TEST_PW", "x")
        env.setenv("XDG_DATA_HOME", "/tmp/fb-date-order-test")
        adapter = make_adapter(access)
    assert adapter.date_order == "dmy"
    assert parse_game(_game()).forum.date_order is None


@pytest.mark.parametrize("value", ["dd/mm/yyyy", "DMY", 1])
def test_a_wrong_order_is_one_sentence_naming_the_setting(value: object) -> None:
    with pytest.raises(ConfigError) as info:
        parse_game(_game(date_order=value))
    assert "forum.date_order" in str(info.value) and "dmy" in str(info.value)
