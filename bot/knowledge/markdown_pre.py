"""Raw ``<pre>`` blocks in a Markdown file, read as code the way an HTML page's ``<pre>`` is.

CommonMark reads a line opening with ``<pre`` as the start of an HTML block that runs to the
line holding ``</pre>`` (across blank lines), and a browser shows its text as written. Read
as a paragraph, its lines lost their tags and reached the model as prose, where the rule of
:mod:`bot.reference_marks` strips a document's own marks: ``result = lookup [1].`` became
``result = lookup.``. So the block's HTML is read by the HTML reader, whose ``<pre>`` text
is a code block (stored fenced, like a Markdown fence), entities decoded and tags left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from bot.knowledge.document import Block
from bot.knowledge.html_reader import read_html

_PRE_START = re.compile(r"^ {0,3}<pre(?:[ \t>]|$)", re.IGNORECASE)
_PRE_END = re.compile(r"</pre>", re.IGNORECASE)


def opens_pre(line: str) -> bool:
    """Whether ``line`` begins a raw ``<pre>`` HTML block (up to three spaces before it)."""
    return _PRE_START.match(line) is not None


def pre_lines(lines: Sequence[str], start: int) -> int:
    """How many lines from ``lines[start]`` (which :func:`opens_pre`) the block spans: up to
    and including the line holding ``</pre>``, or to the end of the file when none does."""
    for index in range(start, len(lines)):  # indices: no copy of the rest per block
        if _PRE_END.search(lines[index]):
            return index - start + 1
    return len(lines) - start


def pre_blocks(html: str, section: str | None) -> list[Block]:
    """The blocks of a raw ``<pre>`` block's ``html`` under ``section``, as the HTML reader
    reads them: its preformatted text a code block, any text after ``</pre>`` on its last
    line a text block."""
    return [replace(block, section=section) for block in read_html(html, "").blocks]
