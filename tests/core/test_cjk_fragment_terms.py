"""Where a CJK text-fragment term may end: only where a browser is sure to see a word end."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cjk_fragment_terms import is_cut, terms

# Han and kana: a browser finds the words inside a run of them by dictionary
DICTIONARY_RUN = re.compile("[\u3040-\u30ff\u4e00-\u9fff々]")


@pytest.mark.parametrize(
    ("text", "index", "cut"),
    [
        ("編集し、変更", 3, True),  # before a clause mark
        ("編集し、変更", 4, True),  # after it
        ("設定は config", 3, True),
        ("設定はconfig", 3, True),  # hiragana meets Latin
        ("S3バケット", 2, True),  # a digit meets katakana
        ("必ず", 1, False),  # kanji to kana: okurigana
        ("お客様", 1, False),  # kana to kanji: a prefix
        ("設定ファイル", 2, False),  # kanji to katakana: a compound may span them
        ("人々は", 1, False),  # the iteration mark belongs to the kanji
        ("3,000円", 2, False),  # a thousands separator joins the digits
        ("3,000円", 1, False),
        ("config.yaml", 6, False),
    ],
)
def test_a_cut_is_a_word_boundary_without_a_dictionary(text: str, index: int, cut: bool) -> None:
    assert is_cut(text, index) is cut


CJK_TEXT = st.text(
    alphabet=st.sampled_from(
        list("設定必管理者編集変更記録再起動読込要ずはをしてがのおカサーバ3Sc.,、。「」 ")
    ),
    min_size=2,
    max_size=40,
)


@given(CJK_TEXT, st.integers(min_value=2, max_value=60))
def test_no_term_ends_or_starts_inside_a_run_of_kanji_and_kana(text: str, longest: int) -> None:
    found = terms(text, lambda start, end: len(start) + len(end) <= longest, longest)
    if found is None:
        return
    start, end = found
    assert len(start) + len(end) <= longest
    head_end = text.index(start) + len(start)
    tail_start = text.rindex(end)
    assert text.startswith(start, len(text) - len(text.lstrip()))
    assert text.rstrip().endswith(end)
    for at in (head_end, tail_start):
        pair = text[at - 1 : at + 1]
        assert not all(DICTIONARY_RUN.match(c) for c in pair), (text, start, end)
    assert head_end <= tail_start
    # the browser ends the highlight at the end term's first match after the start term
    assert text.find(end, head_end) == tail_start


def test_terms_are_whole_clauses_when_they_fit() -> None:
    text = (
        "設定ファイルは必ず管理者が編集し、変更内容を記録してから、サーバーを再起動してください。"
    )
    assert terms(text, lambda start, end: True, len(text)) == (
        "設定ファイルは必ず管理者が編集し",
        "サーバーを再起動してください。",
    )
    # no cut inside 設定ファイルは必ず管理者が編集し: nothing shorter is certain
    assert terms(text, lambda start, end: len(start) < 16, len(text)) is None
