"""A code span runs across the line ends of its paragraph, and no further, as mistune reads it.

``mask_code`` (grounding's code masking) read code spans within each line, while mistune joins a
paragraph's lines first: a span opened on one line and closed on the next was not masked, so a
``[^1]`` inside it was taken for a citation (and a marker after it misread). The scanner read
spans across lines, but up to a blank line only: a span "closed" past a heading, a list item, a
fence, a rule or a block quote that ends the paragraph hid real markers between them, and it read
code spans inside HTML blocks (also one that begins a list item, ``- <div>``), which mistune
keeps as raw text (its citations count).

Each case goes through ``resolve()`` (and the stream in several splits), ``mask_code`` and
``claims``: a marker in a span stays as written and cites nothing, one outside is cited, exactly
where mistune reads a citation.
"""

from __future__ import annotations

import pytest

from bot.claims import CITATION_RE, claims, mask_code
from bot.markdown import citations_in, parse
from tests.core.resolver_splits import reads_as_mistune

# (raw answer, whether its "[^1]" is a citation in mistune's reading)
SPANS_ACROSS_LINES = [
    ("a `x\n[^1]` b", False),
    ("``y\nz [^1]`` w", False),
    ("a `x\nb [^1]` c\n\ntext", False),
    # lazy continuation lines, in a list item and in a block quote
    ("- a `x\nb [^1]` c", False),
    ("- a `x\n    d [^1]`", False),
    ("> q `x\nb [^1]` c", False),
    ("> q `x\n> r [^1]` c", False),
    # lines that cannot interrupt a paragraph go on in it
    ("a `x\n2. b [^1]`", False),
    ("- a `x\n  2. b [^1]` c", False),
    ("a `x\n<span>\nb [^1]` c", False),
    ("a `x\n    # b [^1]` c", False),
    ("- a `x\n      # b [^1]` c", False),
    ("> q `x\n  </pre>\n  b [^1]` c", False),
    ("a ```x\n```y`\n[^1]", True),
]
PARAGRAPH_ENDS = [
    ("# a `x\nb [^1]` c", True),
    ("a `x\n# b [^1]` c", True),
    ("a `x\n  # b [^1]` c", True),
    ("- a `x\n    # b [^1]` c", True),
    ("a `x\n- b [^1]` c", True),
    ("1. a `x\n2. b [^1]` c", True),
    ("- a `x\n  - b [^1]` c", True),
    ("a `x\n> r [^1]`", True),
    ("> q `x\n2. b [^1]`", True),
    ("> a `x\n>\n> c [^1]` d", True),
    ("> a `x\n> # b [^1]` c", True),
    ("a `x\n***\n[^1]`", True),
    ("a `x\n-\n[^1]`", True),
    ("a `x\n<div>\n[^1]`", True),
    ("a ```x\n```\n[^1]", False),
    ("a ```x\n```\n[^1]```", False),
    # an HTML block is raw text to mistune: no code span in it hides a citation
    ("<div>\n`[^1]`", True),
    ("<div>\na `x\nb [^1]` c", True),
    ("- <div>\na `x\nb [^1]` c", True),
    ("- <span>\n`[^1]`", True),
]
CASES = SPANS_ACROSS_LINES + PARAGRAPH_ENDS


def _marked(text: str) -> list[int]:
    return [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(text))]


@pytest.mark.parametrize(("raw", "cited"), CASES)
def test_mask_code_reads_spans_across_a_paragraphs_lines(raw: str, cited: bool) -> None:
    assert citations_in(parse(raw)) == ([1] if cited else [])
    assert _marked(raw) == ([1] if cited else [])
    assert len(mask_code(raw)) == len(raw)
    if not cited:  # (a cited heading is no claim either: claims skip headings)
        assert claims(raw) == []


@pytest.mark.parametrize(("raw", "cited"), CASES)
def test_resolve_reads_spans_as_mistune_does(raw: str, cited: bool) -> None:
    assert ("[1]" in reads_as_mistune(raw, cited)) is not cited


def test_a_masked_span_keeps_its_line_ends() -> None:
    text = "Run `make\ncheck [^1]` first [^2].\nThen more."
    masked = mask_code(text)
    assert masked.split("\n")[0] == "Run " + " " * len("`make")
    assert masked.count("\n") == 2
    assert _marked(text) == citations_in(parse(text)) == [2]
