"""The writing direction of each block of a Markdown or plain-text file on the viewer page.

Markdown and plain text declare no direction, and the viewer page is left to right: an Arabic
or Hebrew note was set flush left, its full stops at the start of its lines. As in the chat's
answers (:mod:`renderers.html_writer`), each paragraph, heading, list item and table cell
reads in the direction of its own first letter (``dir="auto"``): an Arabic paragraph right to
left, the English one after it left to right. Not ``<pre>`` (code stays left to right), nor a
list, table or quote as a whole: ``dir="auto"`` skips children with a direction of their own,
so on a container of such blocks it would find no letter to decide by. A block that already
says its direction (raw HTML in the Markdown, ``<p dir="rtl">``) keeps it.

A document without a right-to-left letter is left as it is: there ``dir="auto"`` reads every
block left to right, as the page does anyway, and a large file is not made larger for nothing.
"""

from __future__ import annotations

import re

# An opening tag of a block as nh3 writes it (its output is what this reads): lower-case
# names, every attribute value double-quoted with '"', "<" and ">" escaped, and no "<" in text.
_BLOCK = re.compile(r'<(p|h[1-6]|li|th|td|dt|dd)((?:\s+[\w:-]+(?:="[^"<>]*")?)*)\s*>')
_HAS_DIR = re.compile(r'\sdir(?:="|\s|$)')
# The blocks of the right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
# Mandaic (U+0590-08FF), the Hebrew and Arabic presentation forms, and those of plane 1.
_RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


def has_right_to_left(text: str) -> bool:
    """True when ``text`` holds a letter (or mark) of a right-to-left script."""
    return _RIGHT_TO_LEFT.search(text) is not None


def _directed(block: re.Match[str]) -> str:
    tag, attributes = block.group(1), block.group(2)
    if _HAS_DIR.search(attributes):
        return block.group(0)
    return f'<{tag} dir="auto"{attributes}>'


def with_block_directions(sanitized: str) -> str:
    """``sanitized`` (nh3's output) with ``dir="auto"`` on each paragraph, heading, list item,
    table cell and definition that has no ``dir`` of its own (unchanged when it holds no
    right-to-left letter)."""
    if not has_right_to_left(sanitized):
        return sanitized
    return _BLOCK.sub(_directed, sanitized)
