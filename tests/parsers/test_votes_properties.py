"""Invariants of the vote counter, with hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.roster import roster_from_data
from parsers.votes import CountResult, PostInput, count_votes, rules_from_data

PLAYERS = ["Ann", "Bob", "Cy", "Dora", "Émile"]
ROSTER = roster_from_data({"players": PLAYERS, "hosts": ["GM"]})
# The replay itself (a Day counted to its deadline); the hammer has its own properties below.
RULES = rules_from_data(
    {"syntax": ["bold_vote", "dollar_bold", "vote_tag"], "majority_ends_day": False}
)
HAMMER = rules_from_data({"syntax": ["bold_vote", "dollar_bold", "vote_tag"], "rule": "majority"})

VOTE_HTML = st.one_of(
    st.builds(lambda t: f"<b>Vote: {t}</b>", st.sampled_from([*PLAYERS, "No Lynch"])),
    st.builds(lambda t: f"<b>${t}</b>", st.sampled_from(PLAYERS)),
    st.builds(lambda t: f"<s>${t}</s>", st.sampled_from(PLAYERS)),
    st.builds(lambda t: f'<span class="bbvote">VOTE: {t}</span>', st.sampled_from(PLAYERS)),
    st.just("<b>Unvote</b>"),
    st.just("just talking, no vote"),
)
POSTS = st.lists(
    st.tuples(st.sampled_from(PLAYERS), st.lists(VOTE_HTML, min_size=1, max_size=3)),
    max_size=25,
)


def thread(items: list[tuple[str, list[str]]]) -> list[PostInput]:
    return [
        PostInput(str(i), author, " ".join(parts), number=i)
        for i, (author, parts) in enumerate(items)
    ]


def tally(result: CountResult) -> dict[str, list[str]]:
    return {w.target: [v.name for v in w.voters] for w in result.wagons}


@settings(max_examples=150, deadline=None)
@given(POSTS, POSTS)
def test_posts_after_the_hammer_never_change_the_decision(
    items: list[tuple[str, list[str]]], later: list[tuple[str, list[str]]]
) -> None:
    first = count_votes(thread(items), ROSTER, HAMMER)
    if first.decision.ended != "hammer":
        return
    more = count_votes(thread(items + later), ROSTER, HAMMER)
    assert more.decision == first.decision
    assert tally(more) == tally(first)


@settings(max_examples=150, deadline=None)
@given(POSTS)
def test_an_open_day_without_a_majority_is_never_decided(
    items: list[tuple[str, list[str]]],
) -> None:
    result = count_votes(thread(items), ROSTER, HAMMER)
    if result.decision.ended is None:
        assert result.decision.outcome == "undecided" and result.decision.lynched is None
        assert all(w.total < result.decision.majority for w in result.wagons)


@settings(max_examples=150, deadline=None)
@given(POSTS)
def test_a_players_vote_is_counted_at_most_once(items: list[tuple[str, list[str]]]) -> None:
    result = count_votes(thread(items), ROSTER, RULES)
    voters = [v.name for w in result.wagons for v in w.voters]
    assert len(voters) == len(set(voters))
    assert sum(w.total for w in result.wagons) == len(voters)
    assert not set(voters) & set(result.not_voting)
    assert set(voters) | set(result.not_voting) | set(result.pending) == set(PLAYERS)


@settings(max_examples=150, deadline=None)
@given(
    POSTS, st.lists(st.tuples(st.integers(0, 30), st.sampled_from([*PLAYERS, "GM"])), max_size=8)
)
def test_unrelated_posts_do_not_change_the_tally(
    items: list[tuple[str, list[str]]], chatter: list[tuple[int, str]]
) -> None:
    before = tally(count_votes(thread(items), ROSTER, RULES))
    noisy = list(items)
    for position, author in chatter:
        noisy.insert(min(position, len(noisy)), (author, ["<b>I am town.</b> vote later"]))
    assert tally(count_votes(thread(noisy), ROSTER, RULES)) == before


@settings(max_examples=100, deadline=None)
@given(POSTS, st.data())
def test_swapping_posts_of_different_players_keeps_the_counts(
    items: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    if len(items) < 2:
        return
    i = data.draw(st.integers(0, len(items) - 2))
    if items[i][0] == items[i + 1][0]:
        return
    swapped = list(items)
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]

    def sets(found: dict[str, list[str]]) -> dict[str, set[str]]:
        return {k: set(v) for k, v in found.items()}

    first = sets(tally(count_votes(thread(items), ROSTER, RULES)))
    second = sets(tally(count_votes(thread(swapped), ROSTER, RULES)))
    assert first == second


@settings(max_examples=150, deadline=None)
@given(POSTS, st.data())
def test_quoting_a_vote_never_changes_the_tally(
    items: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    if not items:
        return
    before = tally(count_votes(thread(items), ROSTER, RULES))
    quoting = []
    for author, parts in items:
        quoted = data.draw(st.sampled_from(items))
        depth = data.draw(st.integers(1, 3))
        quote = " ".join(quoted[1])
        for _ in range(depth):
            quote = f"<blockquote><div><cite>{quoted[0]} wrote:</cite>{quote}</div></blockquote>"
        where = data.draw(st.booleans())
        quoting.append((author, [quote, *parts] if where else [*parts, quote]))
    assert tally(count_votes(thread(quoting), ROSTER, RULES)) == before


HTML_BITS = st.sampled_from(
    [
        "<b>",
        "</b>",
        "<s>",
        "</s>",
        "<blockquote>",
        "</blockquote>",
        "Vote: ",
        "$",
        "Ann",
        "Bo",
        "unvote",
        '<span class="bbvote">',
        "</span>",
        '<span style="color:red">',
        "<br>",
        "##vote ",
        "No Lynch",
        "\u200b",
        "Émile",
        ",",
        "--",
        "[/vote]",
        "<",
        "&amp;",
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([*PLAYERS, "GM", "Zed"]), st.lists(HTML_BITS, max_size=12).map("".join)
        ),
        max_size=12,
    )
)
def test_any_posts_count_without_raising(items: list[tuple[str, str]]) -> None:
    every = rules_from_data(
        {"syntax": ["bold_vote", "dollar_bold", "vote_tag", "hash_vote", "colour", "plain_vote"]}
    )
    posts = [PostInput(str(i), author, html, number=i) for i, (author, html) in enumerate(items)]
    result = count_votes(posts, ROSTER, every)
    voters = [v.name for w in result.wagons for v in w.voters]
    assert len(voters) == len(set(voters))
