"""Property tests (hypothesis) of linked numbers in a model's answer (``model_cites``): stream ==
batch for any split, the output read again changes nothing, and no link whose label is a
number in brackets, a citation's look, points anywhere but a source."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.markdown import parse
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at
from tests.core.test_resolver_canonical_output import canonical
from tests.core.test_resolver_linked_numbers import guide, links
from tests.core.test_resolver_no_sources_properties import MODEL_FRAGMENTS

LINKED = [
    "[[1]](https://evil.example/pay)",
    "[[9]](https://evil.example/pay)",
    "[[1, 2]](https://e.test/a)",
    "[[2]](https://docs.test/install)",
    "[[1]](https://docs.test/manual#x)",
    "[[1]](#top)",
    "![[1]](https://e.test/i.png)",
    '[[1]](https://e.test "t")',
    "[[1]](<https://e.test>)",
    "[[1]]( https://e.test )",
    "[[2023]](https://e.test)",
    "[1](https://e.test)",
    "[[1]]",
    "(https://e.test)",
    "(https://e.test/Foo_(bar))",
    '"t")',
    "[[",
    "]]",
    "](",
    "[x] ",
    "!",
    " ",
    "x",
    ". ",
    "\n",
    "[1]",
    "[9]",
]
texts = st.lists(st.sampled_from([*MODEL_FRAGMENTS, *LINKED]), max_size=30).map("".join)
# no "$": the scanner keeps "$…$" math as written, markers and links too, while the renderers,
# which read no math, show its links ("$[[1]](https://…)$" stays a link labelled "[1]")
outside_math = st.lists(
    st.sampled_from([f for f in [*MODEL_FRAGMENTS, *LINKED] if "$" not in f]), max_size=30
).map("".join)
# for the output read again, whole linked numbers only: other families have rules of their own
# there (a "<sup>1</sup>" kept as text after a ")" is a marker once a removal left it alone,
# and "[^1]](" before "[^1][^2]" reads as a link's destination)
WHOLE = [f for f in LINKED if f not in ("[[", "]]", "](", '"t")', "(https://e.test)")]
linked_texts = st.lists(st.sampled_from(WHOLE), max_size=30).map("".join)
MODEL = ResolvePolicy(model_cites=True)
SOURCE_URLS = ("https://docs.test/install", "https://docs.test/manual")


def registry(sources: bool) -> SourceRegistry:
    return guide() if sources else SourceRegistry(["public"], secret=b"linked-numbers!!")


@given(
    texts,
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    st.booleans(),
    st.sampled_from([0, 1, 3, 16, COALESCE]),
)
@example("[[1]](https://e.test", [19], True, 0)
@example("[[1]](https://e.test ", [20], False, 0)
def test_stream_equals_resolve(raw: str, cuts: list[int], sources: bool, coalesce: int) -> None:
    expected = resolve(raw, registry(sources), MODEL)
    assert streamed_at(raw, cuts, registry(sources), MODEL, coalesce) == expected


@given(outside_math, st.booleans())
@example("Pay [[1]](https://evil.example/pay) today.", True)
@example("[x] [[9]](https://e.test)", True)
def test_no_fake_citation_link_and_the_output_is_canonical(raw: str, sources: bool) -> None:
    answer = resolve(raw, registry(sources), MODEL)
    canonical(answer.text)
    for label, url in links(parse(answer.text)):
        looks_cited = label.startswith("[") and label[1:2].isdigit() and label != "[2023]"
        assert not looks_cited or url in SOURCE_URLS, (label, url)


@given(linked_texts, st.booleans())
@example("Pay [[1]](https://evil.example/pay) today.", True)
@example('[[1]](https://e.test "t")', False)
def test_the_output_read_again_changes_nothing(raw: str, sources: bool) -> None:
    answer = resolve(raw, registry(sources), MODEL)
    assert resolve(answer.text, registry(sources), MODEL).text == answer.text
