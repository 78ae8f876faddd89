"""Stream/one-shot agreement for the markers of test_marker_model_forms (hypothesis).

Texts built of those forms and their pieces (links with a marker in the destination, Claude's
sentence runs, ``<cite>1</cite>``, HTML comments, source words per number, full-width
parentheses, quoted tag quotes), resolved for a model told to cite and for one not told,
must give the same Answer however a stream cuts them.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at
from tests.core.test_marker_model_forms import registry

L = "\u003c"  # "<"

FRAGMENTS = [
    "See the ",
    "[install guide]",
    "[install guide](https://docs.example.com/install[1])",
    "(https://docs.example.com/install[1])",
    "[",
    "]",
    "(",
    ")",
    "[1]",
    "[2]",
    "[9]",
    " first ",
    "word ",
    "\n",
    f'{L}cite index="2-1:2">',
    f'{L}cite index="1-1,3-2:4">',
    f'{L}cite index="2-',
    f"{L}/cite>",
    f"{L}cite>",
    f"{L}cite>1{L}/cite>",
    f"{L}cite>2, 3{L}/cite>",
    f"{L}cite>Title{L}/cite>",
    "<!-- ",
    "<!-- source: [2] -->",
    " -->",
    "<!",
    "<",
    "(Source 1, Source 3)",
    "(source 1; source 9)",
    "(Source 1",
    ", Source ",
    "（来源 3）",
    "（出典：1、2）",
    "（",
    "）",
    "来源",
    "【4:0†handbook.md】",
    "【1:2†FAQ】",
    f'{L}citation>1 | "a quote..."{L}/citation>',
    "`[1]`",
    "EUR",
    "³",
    "¹˒²",
    "⁽¹⁾",
    "m²",
    "10³",
    "⁹",
    "˒",
    "_",
    " ",
    ".",
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map("".join)
cuts = st.lists(st.integers(min_value=0, max_value=2_000), max_size=10)
policies = st.sampled_from([ResolvePolicy(model_cites=True), ResolvePolicy()])


@given(texts, cuts, policies, st.sampled_from([0, 3, 16]))
@example(
    "See the [install guide](https://docs.example.com/install[1]) first [1].",
    [13],
    ResolvePolicy(model_cites=True),
    0,
)
@example("(Source 1, Source 3)", [9, 12], ResolvePolicy(model_cites=True), 0)
@example("x（来源 3）", [2, 3], ResolvePolicy(), 0)
@example("a <!-- source: [2] --> [1]", [4, 9], ResolvePolicy(model_cites=True), 0)
@example("49 EUR³˒¹.", [6, 7, 8], ResolvePolicy(model_cites=True), 0)
def test_stream_equals_resolve_for_model_forms(
    raw: str, cut: list[int], policy: ResolvePolicy, coalesce: int
) -> None:
    expected = resolve(raw, registry(), policy)
    assert streamed_at(raw, cut, registry(), policy, coalesce) == expected


@given(texts, policies)
def test_stream_one_character_at_a_time_equals_resolve_for_model_forms(
    raw: str, policy: ResolvePolicy
) -> None:
    expected = resolve(raw, registry(), policy)
    assert streamed_at(raw, list(range(len(raw))), registry(), policy) == expected


@given(texts)
def test_no_comment_and_no_cite_tag_of_numbers_is_shown_to_a_model_told_to_cite(raw: str) -> None:
    text = resolve(raw, registry(), ResolvePolicy(model_cites=True)).text
    assert "<!-- source: [2] -->" not in text
    assert f"{L}cite>1{L}/cite>" not in text
    assert "Salaries" not in text
