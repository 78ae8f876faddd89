"""Property tests for the edges of PDF pages (bot/knowledge/pdf_page_edges.py).

``join_sentences``: any pages keep their number and every character in order; text moves only
from the start of a page's first paragraph to the end of the page before, and nothing but a
page's first and last paragraphs changes. ``strip_furniture``: only lines at a page's edges
go (two at each edge, bare page numbers not counted), and the rest keep their order.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.pdf_page_edges import join_sentences, strip_furniture

_WORDS = st.sampled_from(
    ["the", "end", "of", "week.", "Next", "e.g.", "-", "2.", "(b)", "before", "Site,", "“Stop.”",
     "of:", "Rules", "x", "—", "7", "Page 2 of 3", ""]
)  # fmt: skip
_TEXT = st.lists(_WORDS, min_size=1, max_size=6).map(" ".join).map(str.strip).filter(bool)
_PARAGRAPH = st.tuples(st.one_of(_TEXT, st.text(min_size=1, max_size=12)), st.booleans())
_PAGES = st.lists(st.lists(_PARAGRAPH, max_size=3), min_size=1, max_size=5)


def _kept(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace())


@given(_PAGES)
def test_join_sentences_keeps_every_character_in_order(
    pages: list[list[tuple[str, bool]]],
) -> None:
    joined = join_sentences(pages)
    assert len(joined) == len(pages)
    assert _kept("".join(t for p in joined for t, _ in p)) == _kept(
        "".join(t for p in pages for t, _ in p)
    )


@given(_PAGES)
def test_text_moves_only_from_the_top_of_a_page_to_the_page_before(
    pages: list[list[tuple[str, bool]]],
) -> None:
    joined = join_sentences(pages)
    lost = ""  # what the page lost from its top: what the page before gained
    for old, new in zip(pages, joined, strict=True):
        had, has = _kept("".join(t for t, _ in old)), _kept("".join(t for t, _ in new))
        assert had.startswith(lost)
        kept = had[len(lost) :]
        assert has.startswith(kept)
        lost = has[len(kept) :]
        # a page's inner paragraphs and its headings never change
        assert all(paragraph in new for paragraph in old[1:-1])
        assert [h for h in new if h[1]] == [h for h in old if h[1]]
    assert lost == ""  # the last page gains nothing


_LINE = st.sampled_from(["Header", "Footer", "7", "Page 2 of 3", "Text one.", "Text two.", ""])
_LINES = st.lists(st.lists(_LINE, max_size=8), min_size=1, max_size=6)


def _in_order(small: list[str], big: list[str]) -> bool:
    rest = iter(big)
    return all(any(line == other for other in rest) for line in small)


@given(_LINES)
def test_strip_furniture_drops_only_edge_lines(pages: list[list[str]]) -> None:
    stripped = strip_furniture(pages)
    assert len(stripped) == len(pages)
    for before, after in zip(pages, stripped, strict=True):
        assert _in_order(after, before)
        # two lines at each edge may go, not counting bare page numbers, which go there too
        text = [line for line in before if line and line not in ("7", "Page 2 of 3")]
        assert _in_order(text[2:-2], after)
