"""Heading ids for a Markdown file on the viewer page, so ``setup.md#linux`` lands on "Linux".

Markdown has no ids of its own; people write links to a heading the way GitHub (and most site
generators after it) name them: the heading's text in lower case, punctuation left out, spaces
turned into ``-``, and ``-1``, ``-2`` … added to a repeated one. mistune renders headings
without ids, so they are added to its output here, before nh3 cleans it.
"""

from __future__ import annotations

import html
import re
import unicodedata

# mistune's own output for a heading (a heading it renders has no attributes).
_HEADING = re.compile(r"<h([1-6])>(.*?)</h\1>", re.S)
_TAG = re.compile(r"<[^>]*>")


def slug(text: str) -> str:
    """GitHub's anchor for a heading whose visible text is ``text``."""
    kept = (
        c
        for c in text.strip().lower()
        if c.isalnum() or c in "-_ " or unicodedata.category(c).startswith("M")
    )
    return "".join(kept).replace(" ", "-")


def with_heading_ids(rendered: str) -> str:
    """``rendered`` (mistune's HTML) with an ``id`` on each heading, unique in the document."""
    seen: dict[str, int] = {}

    def add_id(match: re.Match[str]) -> str:
        level, inner = match.group(1), match.group(2)
        base = slug(html.unescape(_TAG.sub("", inner)))
        if not base:
            return match.group(0)
        count = seen.get(base, 0)
        seen[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        return f'<h{level} id="{html.escape(anchor)}">{inner}</h{level}>'

    return _HEADING.sub(add_id, rendered)
