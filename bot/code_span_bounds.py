"""Where a text's code spans are, as CommonMark reads them.

The spans are those of :func:`bot.knowledge.document.code_spans`. The reference-mark rule
(:mod:`bot.reference_marks`) and the extractive answerer's sentence cuts share them, so both
agree on what is code.
"""

from __future__ import annotations

from bot.knowledge.document import code_spans


def code_span_bounds(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each code span of ``text``, as ``code_spans`` reads them."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for is_code, piece in code_spans(text):
        if is_code:
            bounds.append((start, start + len(piece)))
        start += len(piece)
    return bounds
