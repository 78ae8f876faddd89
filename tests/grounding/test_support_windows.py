"""A window's terms are its sentences' terms: support_windows.window_terms must stay equal to
reading each window whole, or the lexical scorer judges pairs and passages on other words."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from bot.support import passage_sentences
from bot.support_windows import window_terms
from bot.text_terms import term_set

ATOMS = (
    "citecast", "runs", "v1.4.2", "e-mail", "don't", "`pip install x`", "3", "GB", "10:30",
    "a.b", "日本語の", "テスト", "。", ".", "!", "?", " ", "\n", "-", "(", ")", '"', "U.S.",
    "e.g.", "$19", "50%", "x_y", "never", "twice", "https://x.example/a.b", ":", ",",
)  # fmt: skip


@given(st.lists(st.tuples(st.sampled_from(ATOMS), st.sampled_from(("", " "))), max_size=40))
def test_every_window_has_the_terms_of_its_whole_text(atoms: list[tuple[str, str]]) -> None:
    parts = passage_sentences("".join(atom + gap for atom, gap in atoms))
    known = window_terms(parts)
    windows = [*parts, *(f"{a} {b}" for a, b in itertools.pairwise(parts)), " ".join(parts)]
    for window in windows:
        assert known[window] == term_set(window), window


def test_a_pair_of_sample_sentences_is_the_union_of_their_terms() -> None:
    parts = passage_sentences("citecast runs v1.4.2 on Linux. It needs 2 GB of RAM and e-mail.")
    assert len(parts) == 2
    assert window_terms(parts)[f"{parts[0]} {parts[1]}"] == term_set(parts[0]) | term_set(parts[1])
    assert "ram" in window_terms(parts)[" ".join(parts)]
