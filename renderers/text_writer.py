"""Tree walker from the mistune AST to plain text (the email text part, previews).

Headings are underlined, lists keep bullets and numbers with indentation, quotes get ``>``,
code is indented four spaces and code spans keep their backticks, tables become ``a | b``
rows, links ``text <url>``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping

from bot.markdown import Token, html_block_pieces
from renderers.base import CitationForm
from renderers.document import (
    cell_tokens,
    cited_numbers,
    empty_label,
    list_shows_text,
    without_citations,
)
from renderers.escaping import ends_in_url, one_line, table_bars, text_url, visible
from renderers.glue import NO_BREAK_SPACE, glued, glued_plain, spaced_mark
from renderers.link_urls import link_url

# tokens that may end in a bare URL (an HTML block's raw pieces too: "<div>https://x[^1]")
_TEXT_LIKE = ("text", "link", "inline_html")
_BACKTICKS = re.compile(r"`+")


def quoted(blocks: Iterable[str], blank: str = ">") -> str:
    """The visible ``blocks`` as one ``>`` block quote (empty when nothing is visible); an
    empty line inside it is ``blank``."""
    inner = "\n\n".join(block for block in blocks if visible(block))
    if not inner:
        return ""
    return "\n".join(f"> {line}" if line else blank for line in inner.split("\n"))


def code_span(code: str) -> str:
    """``code`` between backticks, as the reader would type it (``citecast serve``): without
    them a command reads as part of the sentence. A backtick inside takes a longer fence."""
    fence = "`" * (_longest_backtick_run(code) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{pad}{code}{pad}{fence}"


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


class TextWriter:
    """Render block tokens to plain text."""

    def __init__(self, cite: Callable[[int], str], forms: Mapping[int, CitationForm] | None = None):
        """``forms``: the answer's citation forms, which a link labelled like a citation must
        lead to (:func:`renderers.link_urls.link_url`)."""
        self._cite = cite
        self._forms = forms

    def block(self, token: Token) -> str:
        kind = token["type"]
        children = token.get("children") or []
        if kind in ("paragraph", "block_text"):
            return self.inline(children)
        if kind == "heading":
            title = one_line(self.inline(children))
            if not visible(title):
                return ""
            rule = "=" if int(token["attrs"]["level"]) == 1 else "-"
            return f"{title}\n{rule * min(len(title), 72)}"
        if kind == "list":
            return self._list(token)
        if kind == "block_quote":
            return quoted(self.block(c) for c in children)
        if kind == "block_code":
            code = str(token.get("raw", "")).rstrip("\n")
            if not visible(code):
                return ""
            return "\n".join(f"    {line}" for line in code.split("\n"))
        if kind == "thematic_break":
            return "-" * 24
        if kind == "table":
            cells: list[list[str]] = []
            for part in children:
                row_tokens = [part] if part["type"] == "table_head" else part.get("children") or []
                cells += [
                    [
                        one_line(self.inline(cell_tokens(c.get("children") or [])))
                        for c in row["children"]
                    ]
                    for row in row_tokens
                ]
            if not any(visible(cell) for row in cells for cell in row):
                return ""
            bar = table_bars(cells)[0]
            return "\n".join(bar.join(row) for row in cells)
        if kind == "block_html":
            return self.inline(html_block_pieces(token))
        if children:
            return "\n\n".join(self.block(c) for c in children)
        return str(token.get("raw", ""))

    def _list(self, token: Token, indent: str = "") -> str:
        if not list_shows_text(token):
            return ""
        attrs = token.get("attrs") or {}
        number = int(attrs.get("start") or 1)
        lines: list[str] = []
        for item in token.get("children") or []:
            marker = f"{number}. " if attrs.get("ordered") else "- "
            number += 1
            inner = indent + " " * len(marker)
            first = True
            for child in item.get("children") or []:
                if child["type"] == "list":
                    lines.append(self._list(child, inner))
                    continue
                if child["type"] == "blank_line":
                    lines.append("")  # not a line of the indent's spaces alone
                    continue
                text = self.block(child).replace("\n", "\n" + inner)
                lines.append((indent + marker if first else inner) + text)
                first = False
            if first and attrs.get("ordered"):  # an empty bullet shows nothing
                lines.append(indent + marker.rstrip())
        return "\n".join(lines)

    def inline(self, tokens: list[Token]) -> str:
        out: list[str] = []
        for i, token in enumerate(tokens):
            kind = token["type"]
            children = token.get("children") or []
            if kind == "text":
                out.append(html.unescape(str(token.get("raw", ""))))
            elif kind == "citation":
                mark = self._cite(int(token["attrs"]["n"]))
                if mark and i and tokens[i - 1]["type"] in _TEXT_LIKE and _bare(out[-1]):
                    mark = " " + mark  # a mail client would link "[1]" as part of the URL
                elif mark and spaced_mark(tokens, i) and out[-1].endswith(" "):
                    out[-1] = glued(out[-1], NO_BREAK_SPACE)
                out.append(mark)
            elif kind == "codespan":
                out.append(code_span(str(token.get("raw", ""))))
            elif kind in ("link", "image"):
                out.append(self._link(token, children))
            elif kind in ("softbreak", "linebreak"):
                out.append("\n")
            elif children:
                out.append(self.inline(children))
            else:
                out.append(str(token.get("raw", "")))
        return "".join(out)

    def _link(self, token: Token, children: list[Token]) -> str:
        """``label <url>`` (or the label alone), then the citations written in its label: links
        do not nest, so they follow the link, written as every other marker."""
        cited = cited_numbers(children)
        if cited:
            children = without_citations(children)
        url = link_url(token, self._forms)
        label = glued_plain(children).strip() if cited else glued_plain(children)
        label = label or empty_label(token, url)
        shown = label
        if url:
            shown = text_url(url) if url == label else f"{label} <{text_url(url)}>"
        marks = "".join(self._cite(n) for n in cited)
        if marks and _bare(shown):
            marks = " " + marks  # a mail client would link "[1]" as part of the URL
        return shown + marks


def _bare(text: str) -> bool:
    """True when ``text`` ends in a URL written bare (a link is "label <url>" unless its label
    is its URL)."""
    return not text.endswith(">") and ends_in_url(text)
