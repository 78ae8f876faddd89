"""Property tests for joining a word hyphenated across a PDF page break
(bot/knowledge/pdf_reader.py ``join_page_breaks``).

Any pages: no exception, as many pages, headings untouched, and every character but the
hyphens (and spaces) kept in order; a word moves to the page before only glued to its first
half, never as a separate word.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.pdf_reader import join_page_breaks

_WORDS = st.sampled_from(
    ["configu-", "ration", "of", "on-", "failure", "2023-", "2024", "Co-", "Operation", "-",
     "a\u00adb", "Co\u00ad-", "word", "x-", "\u00ad", "  ", "é-", "ß"]
)  # fmt: skip
_PARAGRAPH = st.one_of(
    st.lists(_WORDS, min_size=1, max_size=5).map(" ".join).map(str.strip).filter(bool),
    st.text(min_size=1, max_size=20),
)
_PAGES = st.lists(
    st.lists(st.tuples(_PARAGRAPH, st.booleans()), max_size=3), min_size=1, max_size=5
)
_VOCABULARY = st.frozensets(st.sampled_from(["on", "failure", "configu", "ration", "x", "co"]))


def _kept(text: str) -> str:
    return "".join(ch for ch in text if ch not in "-\u00ad" and not ch.isspace())


@given(_PAGES, _VOCABULARY)
def test_every_character_but_hyphens_is_kept(
    pages: list[list[tuple[str, bool]]], words: frozenset[str]
) -> None:
    joined = join_page_breaks(pages, words)
    assert len(joined) == len(pages)
    before = [_kept(text) for page in pages for text, _ in page]
    after = [_kept(text) for page in joined for text, _ in page]
    assert "".join(after) == "".join(before)
    assert [t for page in joined for t, h in page if h] == [
        t for page in pages for t, h in page if h
    ]


@given(_PAGES, _VOCABULARY)
def test_a_word_moves_only_glued_to_its_first_half(
    pages: list[list[tuple[str, bool]]], words: frozenset[str]
) -> None:
    joined = join_page_breaks(pages, words)
    for number in range(len(pages) - 1):
        # a next page of two paragraphs or more: its first one changes only by losing a word
        if not pages[number] or len(pages[number + 1]) < 2:
            continue
        first = pages[number + 1][0][0]
        page = joined[number + 1]
        if len(page) == len(pages[number + 1]) and page[0][0] == first:
            continue
        # the next page's first word moved here: glued to the hyphen's word, not after a space
        word = first.partition(" ")[0].replace("\u00ad", "")  # soft hyphens always go
        last = joined[number][-1][0]
        assert last.endswith(word), (pages, joined)
        assert not last[: -len(word)].endswith((" ", "\u00ad")), (pages, joined)


def test_a_soft_hyphen_does_not_move_a_separate_word() -> None:
    # found by the property above: join_lines dropped the soft hyphen, so "not joined" looked
    # like "joined" and "2024" left page 2 for page 1, after a space
    pages = [[("a\u00adb 2023-", False)], [("2024 was", False)]]
    assert join_page_breaks(pages) == pages
    assert join_page_breaks([[("Co\u00ad-", False)], [("Operation", False)]]) == [
        [("Co\u00ad-", False)],
        [("Operation", False)],
    ]
