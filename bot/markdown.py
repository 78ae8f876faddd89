"""The one mistune setup of citecast: CommonMark + tables + strikethrough + ``[^n]`` citations.

Every renderer parses an answer's text once with :func:`parse` and renders its channel from the
resulting tree (a list of mistune AST tokens, plain dicts). The ``citation`` inline token is
``{"type": "citation", "attrs": {"n": 3}}`` for ``[^3]`` anywhere outside code; a footnote
definition line is never produced by the resolver, so there is no footnote plugin.

Raw HTML the answer contains stays in the tree as ``inline_html``/``block_html`` tokens; every
renderer shows those as literal text (escaped for its target), never as markup.

:func:`split_blocks` cuts markdown text into top-level chunks that parse the same way alone as
they do together; the streaming renderer uses it to render each completed block only once.
"""

from __future__ import annotations

import re
from typing import Any

import mistune
from mistune.core import InlineState

Token = dict[str, Any]

CITATION_PATTERN = r"\[\^(?P<cite_n>[1-9][0-9]{0,4})\]"


def _parse_citation(inline: Any, m: re.Match[str], state: InlineState) -> int:
    state.append_token({"type": "citation", "attrs": {"n": int(m.group("cite_n"))}})
    return m.end()


def _citation_plugin(md: mistune.Markdown) -> None:
    md.inline.register("citation", CITATION_PATTERN, _parse_citation, before="link")


_PARSER = mistune.create_markdown(
    renderer=None, plugins=["table", "strikethrough", _citation_plugin]
)


def parse(text: str) -> list[Token]:
    """Parse CommonMark ``text`` into top-level block tokens (``blank_line`` tokens removed)."""
    tokens = _PARSER(text)
    assert isinstance(tokens, list)
    return [t for t in tokens if t.get("type") != "blank_line"]


def plain_text(tokens: list[Token]) -> str:
    """The visible text of inline ``tokens`` without markup (citations written ``[n]``)."""
    out: list[str] = []
    for token in tokens:
        kind = token["type"]
        if kind == "citation":
            out.append(f"[{token['attrs']['n']}]")
        elif kind in ("softbreak", "linebreak"):
            out.append(" ")
        elif "children" in token:
            out.append(plain_text(token["children"]))
        else:
            out.append(str(token.get("raw", "")))
    return "".join(out)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A line that may continue the block above it across a blank line (list item, indented code,
# lazy continuation) or a link reference definition, which would change how earlier text parses.
_CONTINUES = re.compile(r"^(?:[ \t]|[-+*][ \t]|[-+*]$|\d{1,9}[.)](?:[ \t]|$)|\[[^\]]*\]:)")


# Link reference definitions apply to the whole document, and these HTML blocks run across
# blank lines: text containing either is never split.
_WHOLE_DOCUMENT = re.compile(r"^ {0,3}\[[^\]]*\]:|<(?:pre|script|style|textarea|!|\?)", re.I | re.M)


def split_blocks(text: str) -> tuple[list[str], str]:
    """Split ``text`` into completed top-level chunks and the open tail.

    A chunk ends at a blank line outside any code fence whose next line starts a fresh block
    (not indented, not a list marker). Each chunk ends with its blank line, so
    ``"".join(chunks) + tail == text``, and parsing the chunks one by one gives the same
    tokens as parsing the whole text (the streaming renderer relies on this).
    """
    chunks: list[str] = []
    start = 0
    fence: str | None = None
    pos = 0
    lines = text.splitlines(keepends=True)
    blank_before = False
    if _WHOLE_DOCUMENT.search(text):
        return [], text
    for line in lines:
        complete = line.endswith("\n")
        stripped = line.strip()
        if fence is None:
            if blank_before and stripped and complete and not _CONTINUES.match(line):
                chunks.append(text[start:pos])
                start = pos
            m = _FENCE.match(line)
            if m:
                fence = m.group(1)
        elif line.strip().startswith(fence[0] * len(fence)) and set(line.strip()) == {fence[0]}:
            fence = None
        blank_before = not stripped and complete and fence is None
        pos += len(line)
    return chunks, text[start:]
