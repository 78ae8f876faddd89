"""Code spans in quoted document text are CommonMark's (bot/knowledge/document.py
``code_spans``): a backtick escaped with a backslash opens none. Quoting (``escape_markers``,
``with_marker``) keeps the document's code spans and no "[n]" of the document becomes a marker;
sentences are cut at a full stop after an escaped backtick (``sentences_of``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.cited_lines import escape_markers, with_marker
from bot.assistant.extractive_sentences import sentences_of
from bot.code_span_bounds import code_span_bounds
from bot.knowledge.document import code_spans
from bot.markers import find_markers


def _code(text: str) -> list[str]:
    return [piece for is_code, piece in code_spans(text) if is_code]


def test_an_escaped_backtick_does_not_pair_with_a_later_one_when_quoted() -> None:
    # CommonMark: "\`" is a backtick, "` [1] `" the code span
    text = r"Write \`a` [1] `b` here"
    quoted = escape_markers(text)
    assert _code(quoted) == ["` [1] `"]
    assert find_markers(quoted) == []


def test_an_escaped_backtick_in_quoted_text_stays_escaped() -> None:
    # doubled, the backslash before it would leave the backtick live, to pair with the next
    quoted = escape_markers(r"a \`b [2] `c`")
    assert _code(quoted) == ["`c`"]
    assert find_markers(quoted) == []


def test_code_span_bounds_skip_an_escaped_backtick() -> None:
    assert code_span_bounds(r"\`a` b `c`") == [(3, 8)]
    assert code_span_bounds("`a` and ``b``") == [(0, 3), (8, 13)]


def test_a_sentence_ending_after_an_escaped_backtick_is_cut() -> None:
    text = r"Write a backtick as \`. Then run `make` to build it."
    assert sentences_of(text) == [r"Write a backtick as \`.", "Then run `make` to build it."]


def test_a_full_stop_inside_a_code_span_still_cuts_nothing() -> None:
    text = "Run `make. Then` once and wait. It builds everything."
    assert sentences_of(text) == ["Run `make. Then` once and wait.", "It builds everything."]


_TEXT = st.text(alphabet="`\\[]1a <", max_size=24)


@given(_TEXT)
def test_quoted_text_keeps_its_code_spans_and_carries_no_marker(text: str) -> None:
    quoted = escape_markers(text)
    assert _code(quoted) == _code(text)
    assert find_markers(quoted) == []


@given(_TEXT)
def test_a_cited_line_carries_only_its_own_marker(text: str) -> None:
    line = with_marker(f"x{text}x", 3)
    assert [marker.numbers for marker in find_markers(line)] == [(3,)]
