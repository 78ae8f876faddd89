"""A source quote shown without markdown syntax: plain text, or HTML with code spans as code.

Quotes are passages of the source document and often contain markdown (`` `brew install` ``,
``**bold**``, ``- item``). Attributes (hover titles) get the plain text; the web source list gets
escaped text with code spans as ``<code>``. Each distinct quote is parsed once per process.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import lru_cache

from bot.markdown import Token, parse
from bot.table_rows import row_display
from renderers.escaping import html_text, visible

_SPACES = re.compile(r"\s+")
_CODE_KINDS = ("codespan", "block_code")


def _segments(tokens: list[Token]) -> Iterator[tuple[bool, str]]:
    """``(is_code, text)`` pieces of the visible text, blocks separated by a space."""
    for token in tokens:
        kind = token["type"]
        if kind in _CODE_KINDS:
            yield True, str(token.get("raw", "")).strip()
        elif kind == "citation":
            yield False, f"[^{token['attrs']['n']}]"  # a source's own footnote, not ours
        elif kind == "text":
            yield False, html.unescape(str(token.get("raw", "")))
        elif kind in ("softbreak", "linebreak", "blank_line", "thematic_break"):
            yield False, " "
        elif token.get("children"):
            yield from _segments(token["children"])
        else:
            yield False, str(token.get("raw", ""))
        if kind in ("paragraph", "heading", "block_code", "block_html", "list_item"):
            yield False, " "


@lru_cache(maxsize=2048)
def _parsed(quote: str) -> tuple[tuple[bool, str], ...]:
    merged: list[tuple[bool, str]] = []
    # a quoted table row shows its cells, not the pipes of its Markdown form
    for is_code, text in _segments(parse(row_display(quote))):
        text = _SPACES.sub(" ", text)
        if not text or (is_code and not visible(text)):
            continue  # a code span of zero-width spaces alone would show an empty code box
        if merged and not is_code and not merged[-1][0]:
            merged[-1] = (False, _SPACES.sub(" ", merged[-1][1] + text))
        else:
            merged.append((is_code, text))
    return _strip(merged)


def _strip(segments: list[tuple[bool, str]]) -> tuple[tuple[bool, str], ...]:
    """Collapse spaces between pieces and drop the leading and trailing ones."""
    out: list[tuple[bool, str]] = []
    for is_code, text in segments:
        if not is_code and out and not out[-1][0] and out[-1][1].endswith(" "):
            text = text.lstrip(" ")
        out.append((is_code, text))
    while out and not out[0][0] and not out[0][1].strip():
        out.pop(0)
    while out and not out[-1][0] and not out[-1][1].strip():
        out.pop()
    if out and not out[0][0]:
        out[0] = (False, out[0][1].lstrip())
    if out and not out[-1][0]:
        out[-1] = (False, out[-1][1].rstrip())
    return tuple(out)


def quote_plain(quote: str) -> str:
    """The quote's visible text on one line, without markdown syntax."""
    return "".join(text for _, text in _parsed(quote))


def quote_html(quote: str) -> str:
    """The quote as escaped HTML on one line, code spans (and code blocks) as ``<code>``."""
    return "".join(
        f"<code>{html_text(text)}</code>" if is_code else html_text(text)
        for is_code, text in _parsed(quote)
    )
