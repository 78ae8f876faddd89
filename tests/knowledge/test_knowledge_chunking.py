"""Chunking properties: size limits, no lost words, sections never mixed, pages ordered."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.chunking import chunk_blocks, split_long
from bot.knowledge.document import Block

word = st.sampled_from(["a", "bb", "ccc", "dddd", "eeeeeeee", "ffffffffffff", "gg", "hhhhh"])
sentence = st.lists(word, min_size=1, max_size=25).map(lambda ws: " ".join(ws).capitalize() + ".")
paragraph = st.lists(sentence, min_size=1, max_size=6).map(" ".join)
block = st.builds(
    Block,
    text=paragraph,
    section=st.sampled_from([None, "A", "A > B", "C"]),
    page=st.none(),
)


@given(st.lists(block, max_size=15), st.integers(min_value=200, max_value=800))
def test_chunks_respect_the_limit_keep_every_word_and_never_mix_sections(
    blocks: list[Block], limit: int
) -> None:
    chunks = list(chunk_blocks(blocks, limit))
    assert [c.number for c in chunks] == list(range(1, len(chunks) + 1))
    assert all(len(c.text) <= limit for c in chunks)
    assert " ".join(c.text for c in chunks).split() == " ".join(b.text for b in blocks).split()
    # A chunk's blocks all come from its section: its words appear in that section's text.
    for chunk in chunks:
        in_section = " ".join(b.text for b in blocks if b.section == chunk.section).split()
        assert set(chunk.text.split()) <= set(in_section)


@given(st.lists(paragraph, min_size=1, max_size=8), st.integers(min_value=200, max_value=600))
def test_page_ranges_are_ordered_and_page_end_only_when_crossing(
    texts: list[str], limit: int
) -> None:
    blocks = [Block(text, page=i + 1) for i, text in enumerate(texts)]
    chunks = list(chunk_blocks(blocks, limit))
    last = 0
    for chunk in chunks:
        assert chunk.page is not None and chunk.page >= last
        assert chunk.page_end is None or chunk.page_end > chunk.page
        last = chunk.page_end or chunk.page
    assert last == len(texts)


def test_code_blocks_are_never_split() -> None:
    code = "```\n" + "x = 1\n" * 200 + "```"
    chunks = list(chunk_blocks([Block("Intro."), Block(code, kind="code")], 200))
    assert [c.text for c in chunks] == ["Intro.", code]


def test_split_long_cuts_at_sentences_then_spaces() -> None:
    text = "First sentence here. Second one follows. " + "Word " * 100
    pieces = split_long(text.strip(), 120)
    assert pieces[0] == "First sentence here. Second one follows."
    assert all(len(p) <= 120 for p in pieces)
    assert " ".join(pieces).split() == text.split()


def test_overlap_carries_the_previous_tail_within_a_section() -> None:
    blocks = [Block(f"Sentence number {n} is here.", section="S") for n in range(30)]
    chunks = list(chunk_blocks(blocks, 200, overlap=60))
    assert len(chunks) > 2
    assert all(len(c.text) <= 200 for c in chunks)
    for before, after in itertools.pairwise(chunks):
        carried = after.text.split("\n\n")[0]
        assert carried.startswith("Sentence number")
        assert carried in " ".join(before.text.split())
