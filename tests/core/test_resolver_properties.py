"""Property tests of the resolver and the marker grammar (hypothesis)."""

from __future__ import annotations

import dataclasses
import re

from hypothesis import example, given
from hypothesis import strategies as st

from bot.markers import Grammar, Marker, MarkerScanner, find_markers
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, ResolvePolicy, resolve
from bot.source_mentions import is_model_source_list, named_sources
from tests.core.resolver_splits import streamed_at

SECRET = b"property-secret!"


def make_registry() -> SourceRegistry:
    registry = SourceRegistry(["public"], secret=SECRET)
    registry.register_all(
        [
            Source("doc-a", title="Install guide", url="https://docs.test/install"),
            Source("doc-b", title="Manual", url="https://docs.test/manual.pdf", page=3),
            Source("rec-1", kind="record", label="Widget Pro", columns={"price": "5"}),
            Source("bg", citable=False, text="background"),
            Source("hr-1", title="Salaries", audience=("hr",)),
        ]
    )
    return registry


KEY = make_registry().key_for(3)

FRAGMENTS = [
    "Fact",
    "the law",
    " ",
    "  ",
    "\n",
    "\n\n",
    ".",
    ",",
    "[1]",
    "[2]",
    "[3]",
    "[9]",
    "[2023]",
    "[1, 3]",
    "[1-3]",
    "[3-1]",
    "[1; 2]",
    "[^1]",
    "[^2^]",
    "[^1]: a definition\n",
    "[cite: 2]",
    "[citation:9]",
    "[Source 1]",
    "[doc2]",
    "【2】",
    "【4:0†source】",
    "<CIT doc-a />",
    "<CIT hr-1/>",
    "<CIT nope />",
    "<citation>1</citation>",
    "<citation>2 | quoted words</citation>",
    f'[[source key="{KEY}" columns="price, color"]]',
    '[[source key="00000000"]]',
    f'[[source key="{KEY.upper()}"]]',
    f"[[source columns='price', key={KEY}]]",
    '[[source key="x"]]1"]]',
    '"]]',
    "[[source key=",
    "[[1]]",
    "[[^2]]",
    "[[",
    "]]",
    "[1](https://docs.test/install)",
    "[[2]](https://docs.test/manual.pdf)",
    "[text](https://else.test)",
    "\ue200cite\ue202doc-a\ue201",
    "\ue200",
    "[n]",
    "[citation needed]",
    "\\[1\\]",
    "- [ ] task",
    "- item",
    "`",
    "``",
    "```",
    "```\n",
    "~~~\n",
    "    ",
    "$",
    "$$",
    "$x$",
    "Sources:\n",
    "References:\n- [1] Install guide\n",
    "1. ",
    "[",
    "]",
    "<",
    "<CIT ",
    "(",
    ")",
    "!",
    "Widget Pro",
    "\t",
    "\r\n",
    "    - nested [2]\n",
    "## Sources\n",
    "* Install guide\n",
    "[1]: https://docs.test/install\n",
    "```js\n",
    "\\",
    "<citation>",
    "</citation>",
    "【",
    "】",
    "\ue201",
    "\ue202",
    ":",
    # lead-in words that may open a sentence, "or" between markers, superscript tags
    "See also ",
    "See",
    " see ",
    "Sources: ",
    "For more, see ",
    ". ",
    "? ",
    " or ",
    " and ",
    "<sup>",
    "</sup>",
    "<sup>[2]</sup>",
    # model source lists that alone name sources, their closing lines, paired words
    "[^2]: Manual\n",
    "[^1]: ",
    "Quellen:\n",
    "Sources used: [2]",
    "---\n",
    "\n\nLet me know if you have other questions!",
    "Hope this helps.",
    "[REF]2[/REF]",
    "[REF]1,2[/REF]",
    "[REF]",
    "[/REF]",
    "pip",
    "3",
    # models' own styles: openers, paired tags, word lists, hashes
    "[cite_start]",
    "[cite: 2]",
    '\u003ccite index="2-1">',
    "\u003c/cite>",
    "\u003cco: 1>",
    "\u003c/co: 1>",
    "\u003cco: 9>",
    "[Source 1, Source 2]",
    "[#2]",
    "[#9]",
    # emphasis runs that may wrap a marker alone
    "_",
    "*",
    "**",
    "__",
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
mixed = st.one_of(
    texts, st.text(max_size=200), st.text(alphabet="[]^<>`$ \n1-2,:CITcite/", max_size=80)
)
OUTPUT_GRAMMAR = Grammar(bare_numbers=True, is_known_url=lambda url: url.startswith("https://docs"))


def check_answer(answer: Answer) -> None:
    numbers = [c.n for c in answer.citations]
    assert numbers == list(range(1, len(numbers) + 1))
    found = find_markers(answer.text, OUTPUT_GRAMMAR)
    referenced: set[int] = set()
    for marker in found:
        assert marker.family == "footnote", marker
        assert re.fullmatch(r"\[\^\d+\]", marker.raw), marker
        referenced.update(marker.numbers)
    assert referenced == set(numbers)
    assert "Salaries" not in answer.text
    assert all(c.source.id != "hr-1" for c in answer.citations)


@given(mixed)
@example("_[1][1]_")  # emphasis around a group of markers alone goes with it (marker_emphasis)
@example("_<CIT doc-a />_")
# a caret next to a footnote, or a caret marker in a superscript, must not join it
@example("[1]^")
@example("^^[1]")
@example("[3],[9]^")
@example("<sup>^[2]</sup>")
# brackets before parentheses of plain words: no link's text, so read as alone
@example("x [[1]](Source 2)")
@example("_[cite_start](Source 2)_")
# ...and before parentheses holding a marker the resolver removes (test_resolver_paren_markers)
@example("[1](x[9] l)")
@example("[1](Fact[9] Fact)")
@example("[2]( [9] the law)")
# a citation read where no link was must not end up in a link's destination
@example('[2](*x\u003ccite index="2-1">\u003c/cite>)')
@example("[]([ 2])")
@example("[](]()</co:1>)")
# a placeholder right after emphasis that went with markers (test_resolver_emphasis_placeholders)
@example("_[2]_[n]")
@example("_[citation needed]_[n]")
@example("[[1]]_[1]_[n]^l^x")
# nested or mixed emphasis around markers alone goes with them (test_resolver_nested_emphasis)
@example("__[1]**[2]**__")
@example("__[1]**[1]**__")
@example("_**[1]**_")
@example("**_[1]_**")
@example("[9],__<CIT doc-a />**[^1]**__[...][2][1]")
def test_resolve_never_raises_and_output_is_canonical(raw: str) -> None:
    check_answer(resolve(raw, make_registry()))


@given(st.text())
def test_resolve_never_raises_on_any_string(raw: str) -> None:
    answer = resolve(raw, make_registry())
    assert isinstance(answer.text, str)
    assert len(answer.text) <= len(raw) + 4 * len(answer.citations) * max(1, raw.count("["))


# 0 scans every delta as it comes (the scanner's own hold-back decides alone); small values
# cut the gathered text at arbitrary places; COALESCE is what the product uses
coalesces = st.sampled_from([0, 1, 3, 16, COALESCE])


def stream_split(
    raw: str, cuts: list[int], policy: ResolvePolicy | None = None, coalesce: int = 0
) -> Answer:
    return streamed_at(raw, cuts, make_registry(), policy, coalesce)


@given(mixed, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12), coalesces)
@example("Fact **[1] and [2]**.", [6, 9, 12, 15, 17], 0)
@example("a ^^[1]^ b [2]^", [3, 4, 7, 12], 0)
@example("[x]( <citation>1</citation>) [2]([2]", [3, 4, 5, 20, 30], 0)
def test_stream_equals_resolve_for_random_splits(raw: str, cuts: list[int], coalesce: int) -> None:
    assert stream_split(raw, cuts, coalesce=coalesce) == resolve(raw, make_registry())


@given(texts, coalesces)
def test_stream_one_character_at_a_time_equals_resolve(raw: str, coalesce: int) -> None:
    one_by_one = stream_split(raw, list(range(len(raw))), coalesce=coalesce)
    assert one_by_one == resolve(raw, make_registry())


@given(texts, st.lists(st.integers(min_value=0, max_value=10_000), max_size=8), coalesces)
def test_stream_equals_resolve_with_every_policy_switch(
    raw: str, cuts: list[int], coalesce: int
) -> None:
    policy = ResolvePolicy(
        numbering="registry", max_citations=1, infer_from_mentions=True, key_word="source"
    )
    expected = resolve(raw, make_registry(), policy)
    assert stream_split(raw, cuts, policy, coalesce) == expected
    assert len(expected.citations) <= 1


@given(texts)
def test_no_marker_survives_outside_code(raw: str) -> None:
    answer = resolve(raw, make_registry())
    assert all(m.family == "footnote" for m in find_markers(answer.text, OUTPUT_GRAMMAR))
    registry = make_registry()
    known = dataclasses.replace(OUTPUT_GRAMMAR, is_known_number=lambda n: n in registry.numbered())
    outside = find_markers(raw, known)  # ("[#2]" is a marker only for a source of the turn)
    named = sum(max(1, len(m.numbers) + len(m.ids)) for m in outside)
    assert len(answer.citations) <= named + listed_names(raw)


def listed_names(raw: str) -> int:
    """How many sources the source lists and definition lines the resolver removes name (it
    cites those no marker did)."""
    registry = make_registry()
    grammar = dataclasses.replace(
        OUTPUT_GRAMMAR, is_source_list=lambda items: is_model_source_list(registry, items)
    )
    tokens = MarkerScanner(grammar).scan_all(raw)
    return sum(
        len(named_sources(registry, t.ids))
        for t in tokens
        if isinstance(t, Marker) and t.family == "listed"
    )


@given(texts)
def test_every_dropped_marker_has_a_reason_and_an_offset_in_the_raw_text(raw: str) -> None:
    answer = resolve(raw, make_registry())
    for dropped in answer.dropped:
        assert 0 <= dropped.offset < len(raw)
        assert raw[dropped.offset] == dropped.marker[0]
