"""The claims' code masking reads code where the resolver's scanner (and mistune) read it.

Grounding renumbers citations by the offsets ``mask_code`` leaves visible, and refuses to when
they are not the citations mistune renders. ``mask_code`` kept indented code only after a blank
line, did not know a list item's content column and ended the list at any fence, so it disagreed
with the scanner (rewritten to read block ends as mistune does) and grounding lost renumbering:
indented code right after a heading, a closed fence, a rule or a setext underline; ``text`` then
``-`` (a heading), empty items and ordered items not numbered 1 (they cannot interrupt a
paragraph); fences in list items (ending with the item, taking lazy lines); HTML blocks up to a
blank line. Now the lines that are code are the scanner's own decision
(:mod:`bot.marker_code_lines`).

Each case of the scanner's block-end tests goes through ``verify()``: a first citation its
source does not back is dropped, and the case's marker is renumbered exactly where mistune
reads a citation (a code span holding ``[^2]`` keeps the raw text from agreeing with the
parser, which would hide the masking's mistake).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.claims import CITATION_RE, claims, mask_code
from bot.grounding import GroundingPolicy, verify
from bot.markdown import citations_in, parse
from bot.marker_code_lines import code_lines
from bot.marker_parse import Grammar, Marker
from bot.markers import MarkerScanner, Verbatim
from bot.models import Answer, Citation
from tests.core.test_marker_block_ends import CASES, FENCES_IN_ITEMS, HTML_BLOCKS, LINES
from tests.grounding.cited_answers import Evidence
from tests.grounding.test_verify_policies import MOON, PYTHON

CLAIM = "Python 3.11 or newer is required to run it"
HEAD = f"The moon is made of green cheese and rocks [^1].\n{CLAIM} [^2], as `make [^2]` checks.\n\n"


def _marked(text: str) -> list[int]:
    return [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(text))]


@pytest.mark.parametrize(("raw", "cited"), CASES + FENCES_IN_ITEMS + HTML_BLOCKS)
def test_mask_code_sees_the_citations_mistune_renders(raw: str, cited: bool) -> None:
    assert citations_in(parse(raw)) == ([1] if cited else [])
    assert _marked(raw) == ([1] if cited else [])
    # a claim is made only where the marker is a citation
    assert [c.numbers for c in claims(raw)] == ([(1,)] if cited else [])


@pytest.mark.parametrize(("raw", "cited"), CASES + FENCES_IN_ITEMS + HTML_BLOCKS)
def test_dropping_renumbers_the_citations_mistune_renders(raw: str, cited: bool) -> None:
    raw = raw.replace("six", "text")  # a number word the passage lacks would make it weak
    text = HEAD + raw.replace("[^1]", f"{CLAIM} [^2]")
    assert citations_in(parse(text)) == [1, 2] + ([2] if cited else [])
    answer = Answer(text=text, citations=(Citation(1, MOON, 1), Citation(2, PYTHON, 2)))
    checked = verify(answer, Evidence(PYTHON, MOON), GroundingPolicy(mode="drop"))
    assert [d.reason for d in checked.dropped] == ["unsupported"]
    tail = raw.replace("[^1]", f"{CLAIM} [^{1 if cited else 2}]")
    assert checked.text == (
        f"The moon is made of green cheese and rocks.\n{CLAIM} [^1], as `make [^2]` checks.\n\n"
        + tail
    )
    assert [(c.n, c.source.id) for c in checked.citations] == [(1, PYTHON.id)]


def test_lines_split_at_newlines_only() -> None:
    # a line separator is no line end to the scanner or to mistune
    text = "Text\u2028    more [^1]\r\n\r\n    code [^2]\n"
    assert code_lines(text) == [False, False, True]
    assert _marked(text) == citations_in(parse(text)) == [1]
    assert len(mask_code(text)) == len(text)


def _scanner_code(text: str) -> set[int]:
    """The offsets of the non-space characters the scanner passes on as code."""
    scanner = MarkerScanner(Grammar(bare_numbers=False), mark_verbatim=True)
    code: set[int] = set()
    at = 0
    for token in scanner.scan_all(text):
        if isinstance(token, Marker):
            assert text.startswith(token.raw, token.offset)
            at = token.offset + len(token.raw)
            continue
        if isinstance(token, Verbatim):
            code |= {at + i for i, char in enumerate(token) if not char.isspace()}
        at += len(token)
    assert at == len(text)
    return code


def _masked_code(text: str) -> set[int]:
    masked = mask_code(text)
    assert len(masked) == len(text)
    return {i for i, (a, b) in enumerate(zip(text, masked, strict=True)) if a != b}


@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=8))
def test_mask_code_blanks_what_the_scanner_reads_as_code(lines: list[str]) -> None:
    counter = iter(range(1, 100))
    text = re.sub(r"\[\^1\]", lambda _: f"[^{next(counter)}]", "\n".join(lines))
    assert _masked_code(text) == _scanner_code(text)
    assert _marked(text) == citations_in(parse(text))
