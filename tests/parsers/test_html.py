"""The styled view of post HTML across engines: runs, regions, lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parsers.html import Region, Style, normalise_colour, parse_html
from parsers.votes.colours import ColourFamily, colour_family


def bold(html: str, skip: Region | None = None) -> list[str]:
    view = parse_html(html)
    runs = view.runs(Style.BOLD) if skip is None else view.runs(Style.BOLD, skip)
    return [r.text for r in runs]


def test_bold_in_every_engine() -> None:
    assert bold("<strong class='text-strong'>Vote: Ann</strong>") == ["Vote: Ann"]  # phpBB 3.3
    assert bold("<b>Vote: Ann</b>") == ["Vote: Ann"]  # SMF 2.1
    assert bold('<div style="display:inline;font-weight:bold">Vote: Ann</div>') == ["Vote: Ann"]
    assert bold("<span style='font-weight: 700'>x</span> y") == ["x"]


def test_nested_styles_make_one_run() -> None:
    assert bold("<b>Vote: <i>Mr</i> <u>Fox</u></b> and <b>more</b>") == ["Vote: Mr Fox", "more"]


def test_quotes_are_skipped_at_any_depth() -> None:
    html = (
        "<blockquote><div><cite>bob wrote:</cite><blockquote><b>Vote: A</b></blockquote>"
        "<b>Vote: B</b></div></blockquote><b>Vote: C</b>"
    )
    assert bold(html) == ["Vote: C"]
    assert bold(html, Region(0)) == ["Vote: A", "Vote: B", "Vote: C"]
    view = parse_html(html)
    assert "bob" in view.quote_authors
    assert max(s.quote_depth for s in view.segments) == 2


def test_smf20_quote_header_and_old_phpbb_quotes() -> None:
    smf20 = (
        '<div class="quoteheader"><div class="topslice_quote"><a href="#">Quote from: Conia on '
        'November 27, 2026</a></div></div><blockquote class="bbc_standard_quote"><strong>Vote: '
        "bob</strong></blockquote><div class='quotefooter'></div>Mine: <strong>Vote: Ann</strong>"
    )
    assert bold(smf20) == ["Vote: Ann"]
    assert parse_html(smf20).quote_authors[0] == "Conia"
    old = '<div class="quotetitle">X wrote:</div><div class="quotecontent"><b>Vote: Z</b></div>'
    assert bold(old) == []


def test_spoilers_and_hidden_text() -> None:
    spoiler = (
        '<div class="quotetitle"><b>Spoiler: list</b><input type="button" value="Show"></div>'
        '<div class="quotecontent"><div style="display:none"><b>Vote: Z</b></div></div>'
    )
    assert bold(spoiler) == []
    assert bold('<div class="spoiler"><b>Vote: Z</b></div>ok') == []
    view = parse_html(spoiler)
    assert any(s.regions & Region.SPOILER for s in view.segments)
    assert view.quote_authors == ()


def test_code_signature_and_box_are_skipped() -> None:
    assert bold("<code><b>Vote: A</b></code>") == []
    assert bold('<div class="signature"><b>Vote: A</b></div>') == []
    assert bold("<fieldset><legend>Votes</legend><b>A (2)</b></fieldset>") == []


def test_strike_runs_and_struck_bold() -> None:
    view = parse_html("<s>$bob</s> <b>$Akonyl</b> <del>x</del> <b><s>$Y</s></b>")
    assert [r.text for r in view.runs(Style.STRIKE)] == ["$bob", "x", "$Y"]
    assert [r.strike for r in view.runs(Style.BOLD)] == [False, True]


def test_vote_tags_and_colours() -> None:
    view = parse_html(
        '<span class="bbvote" title="This is an official vote.">VOTE: Guderian</span> '
        '<span style="color:#FF0000">Маша</span> <font color="blue">host</font>'
    )
    assert [r.text for r in view.runs(Style.VOTE_TAG)] == ["VOTE: Guderian"]
    colours = [(r.text, colour_family(r.colour)) for r in view.runs(Style.COLOUR)]
    assert colours == [("Маша", ColourFamily.RED), ("host", ColourFamily.BLUE)]


def test_lines_and_text() -> None:
    view = parse_html("a<br>b <b>c</b><br /><br/>##vote Ann<div>block</div>tail")
    assert view.lines() == ["a", "b c", "##vote Ann", "block", "tail"]
    assert parse_html("plain\ntext & more").lines() == ["plain", "text & more"]
    assert parse_html("").segments == ()


def test_colour_normalisation() -> None:
    assert normalise_colour("#F00") == normalise_colour("red") == "#ff0000"
    assert normalise_colour("rgb(255, 0, 0)") == "#ff0000"
    assert colour_family("darkred") is ColourFamily.RED
    assert colour_family("#0000FF") is ColourFamily.BLUE
    assert colour_family("black") is None
    assert colour_family("gray") is ColourFamily.GREY


@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    view = parse_html(text)
    assert isinstance(view.text(), str)


TAGS = ["<b>", "</b>", "<blockquote>", "</blockquote>", "<s>", "x", "</div>", "<div>", "<br>", "<"]


@given(st.lists(st.sampled_from(TAGS), max_size=30))
def test_broken_markup_never_raises(parts: list[str]) -> None:
    view = parse_html("".join(parts))
    view.runs(Style.BOLD)
    view.lines()


def test_quote_pyramids_deeper_than_libxml2_likes() -> None:
    for depth in (100, 300, 1000):
        html = "<blockquote>" * depth + "<b>Vote: X</b>" + "</blockquote>" * depth
        view = parse_html(html + "<b>Vote: Ann</b>")
        assert [r.text for r in view.runs(Style.BOLD)] == ["Vote: Ann"]
        assert "Vote: X" in view.text(Region(0))
