"""Inline ``<code>`` of an HTML page, kept as a Markdown code span in the stored text.

A page's text was flattened, its inline code with it: ``<code>lookup [1]</code>.`` reached the
model as prose, where the rule of :mod:`bot.reference_marks` strips a document's own marks
("Call lookup."). Written between backticks, it is code to every reader of the stored text,
as a Markdown file's code span is.
"""

from __future__ import annotations

import re

_BACKTICK_RUN = re.compile(r"`+")


def code_span(code: str) -> str:
    """``code`` as a code span: between backtick fences one longer than its longest backtick
    run, with a space inside each fence when it begins or ends with a backtick (CommonMark
    takes one such space off each side). Empty code stays empty: no span to write."""
    if not code.strip():
        return code
    fence = "`" * (1 + max((len(run) for run in _BACKTICK_RUN.findall(code)), default=0))
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"
