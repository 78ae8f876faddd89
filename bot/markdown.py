"""The one mistune setup of citecast: CommonMark + tables (in lists and quotes too) +
strikethrough + ``[^n]`` citations.

Every renderer parses an answer's text once with :func:`parse` and renders its channel from the
resulting tree (a list of mistune AST tokens, plain dicts). The ``citation`` inline token is
``{"type": "citation", "attrs": {"n": 3}}`` for ``[^3]`` anywhere outside code; a footnote
definition line is never produced by the resolver, so there is no footnote plugin, and a line
starting ``[^3]:`` (after any list or quote marker) is that citation and its text, never a link
reference definition that would drop both.

Raw HTML the answer contains stays in the tree as ``inline_html``/``block_html`` tokens; every
renderer shows those as literal text (escaped for its target), never as markup. A ``[^n]`` inside
an HTML block is still a citation: such a ``block_html`` token keeps its ``raw`` and gets
``children``, its raw text cut into ``inline_html`` pieces around ``citation`` tokens (see
:func:`html_block_pieces`).

:func:`split_blocks` cuts markdown text into top-level chunks that parse the same way alone as
they do together; the streaming renderer uses it to render each completed block only once.

The bidi embedding, override and isolate controls (:mod:`bot.bidi_controls`) are removed before
parsing, so no renderer, code blocks included, ever shows one from the answer, and the grounding
check reads the same citations the renderers show; the splitter reads lines without them too.
"""

from __future__ import annotations

import re
from typing import Any

import mistune
from mistune.core import InlineState
from mistune.plugins.table import table_in_list, table_in_quote

from bot.bidi_controls import without_bidi_controls

Token = dict[str, Any]

# A "!" right before the bracket is matched too: the image rule (``!?\[``) would otherwise start
# at the "!" and swallow ``[^n]`` ("It works![^1]"). ``![^n]`` is never an image here.
CITATION_PATTERN = r"(?P<cite_bang>!?)\[\^(?P<cite_n>[1-9][0-9]{0,4})\]"

CITATION_MARK = re.compile(r"\[\^(\d+)\]")
"""A citation as ``Answer.text`` writes it, ``[^3]`` (group 1: the number), for code that reads
or rewrites the text without parsing it (inside code spans too)."""


def _parse_citation(inline: Any, m: re.Match[str], state: InlineState) -> int:
    if m.group("cite_bang"):
        state.append_token({"type": "text", "raw": "!"})
    state.append_token({"type": "citation", "attrs": {"n": int(m.group("cite_n"))}})
    return m.end()


def _citation_plugin(md: mistune.Markdown) -> None:
    # start_chars keeps mistune's fast scan between inline triggers (without them it falls
    # back to trying the whole rule regex at every position)
    md.inline.register(
        "citation", CITATION_PATTERN, _parse_citation, before="link", start_chars=("!", "[")
    )


# mistune's own rule with one more condition: the label is not a citation's
_REF_LINK = mistune.BlockParser.SPECIFICATION["ref_link"]
_NOT_A_CITATION_LABEL = r"(?!\^[1-9][0-9]{0,4}\]:)"
assert _REF_LINK.startswith(r"^ {0,3}\[")


def _parse_ref_link(
    block: mistune.BlockParser, m: re.Match[str], state: mistune.BlockState
) -> int | None:
    return block.parse_ref_link(m, state)


def _no_citation_definitions(md: mistune.Markdown) -> None:
    """``[^n]: …`` at a line start is a citation followed by text, never a link reference
    definition: as one, the line and its citation vanish ("1. [^1]: Download"), and the
    resolver writes such lines whenever a marker starts one, after any list or quote marker."""
    pattern = _REF_LINK.replace(r"\[", r"\[" + _NOT_A_CITATION_LABEL, 1)
    md.block.register("ref_link", pattern, _parse_ref_link)


# table_in_list / table_in_quote: a table inside a list item or a block quote is a table too
# (as on GitHub and Discourse), not one line of pipes; a table holds no code block, so the
# resolver's line scanner (bot.marker_lines) still agrees with the parser about what is code.
_PARSER = mistune.create_markdown(
    renderer=None,
    plugins=[
        "table",
        table_in_list,
        table_in_quote,
        "strikethrough",
        "speedup",
        _citation_plugin,
        _no_citation_definitions,
    ],
)


def parse(text: str) -> list[Token]:
    """Parse CommonMark ``text`` into top-level block tokens (``blank_line`` tokens removed).

    Bidi embedding, override and isolate controls are dropped first (one C pass, none for ASCII
    text): a Trojan-Source override in the answer reorders nothing on any channel.
    """
    text = without_bidi_controls(text)
    tokens = _PARSER(text)
    assert isinstance(tokens, list)
    if "<" in text and "[^" in text:
        _cite_in_html_blocks(tokens)
    return [t for t in tokens if t.get("type") != "blank_line"]


# the citation rule's number, without the "!" (an HTML block has no images to tell apart)
_HTML_CITATION = re.compile(r"\[\^([1-9][0-9]{0,4})\]")


def _cite_in_html_blocks(tokens: list[Token]) -> None:
    """Give each ``block_html`` token holding ``[^n]`` its pieces as ``children``.

    The parser reads an HTML block as one raw string ("<pre>" unclosed runs to the end of the
    answer), so its citations would show as raw markers and their sources go missing; as
    children, every walker that looks for citations finds them.
    """
    for token in tokens:
        if token["type"] == "block_html":
            raw = str(token.get("raw", ""))
            if _HTML_CITATION.search(raw):
                token["children"] = _html_pieces(raw)
        elif token.get("children"):
            _cite_in_html_blocks(token["children"])


def _html_pieces(raw: str) -> list[Token]:
    pieces: list[Token] = []
    start = 0
    for m in _HTML_CITATION.finditer(raw):
        if m.start() > start:
            pieces.append({"type": "inline_html", "raw": raw[start : m.start()]})
        pieces.append({"type": "citation", "attrs": {"n": int(m.group(1))}})
        start = m.end()
    if start < len(raw):
        pieces.append({"type": "inline_html", "raw": raw[start:]})
    return pieces


def html_block_pieces(token: Token) -> list[Token]:
    """What the ``block_html`` ``token`` shows, surrounding whitespace dropped: ``inline_html``
    pieces of its raw text (each writer shows them literally, as any raw HTML) and a
    ``citation`` token for each ``[^n]`` in it."""
    raw = str(token.get("raw", ""))
    pieces = list(token.get("children") or [{"type": "inline_html", "raw": raw}])
    if pieces[0]["type"] == "inline_html":
        pieces[0] = {**pieces[0], "raw": str(pieces[0]["raw"]).lstrip()}
    if pieces[-1]["type"] == "inline_html":
        pieces[-1] = {**pieces[-1], "raw": str(pieces[-1]["raw"]).rstrip()}
    return [p for p in pieces if p["type"] != "inline_html" or p["raw"]]


def citations_in(tokens: list[Token]) -> list[int]:
    """The number of every ``citation`` token in ``tokens``, in document order (repeats kept)."""
    out: list[int] = []
    for token in tokens:
        if token["type"] == "citation":
            out.append(int(token["attrs"]["n"]))
        elif token.get("children"):
            out += citations_in(token["children"])
    return out


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


# CommonMark's fences: an opening one indented at most 3 spaces (a backtick fence has no
# backtick in its info string: "```pip install``` does it" is a code span), a closing one of the
# same character, at least as long, indented at most 3 spaces, with nothing after it.
FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
"""A line opening a fenced code block (group 1: the fence)."""
_FENCE_CLOSE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t\r]*$")


def closing_fence(line: str, fence: str) -> re.Match[str] | None:
    """The match when ``line`` closes a code block opened by ``fence``, else None."""
    close = _FENCE_CLOSE.match(line)
    if close is None or close[1][0] != fence[0] or len(close[1]) < len(fence):
        return None
    return close


# CommonMark's blank line holds nothing but spaces and tabs (a no-break space is text)
_BLANK = " \t\r"
# a link reference definition's "[label]:" (a citation's "[^n]:" is none, see _REF_LINK)
_LABEL = r"\[" + _NOT_A_CITATION_LABEL + r"(?:\\.|[^\]\\])*\]:"
# A line that may continue the block above it across a blank line (list item, indented code,
# lazy continuation) or a link reference definition, which would change how earlier text parses.
_CONTINUES = re.compile(r"^(?:[ \t]|[-+*][ \t]|[-+*]$|\d{1,9}[.)](?:[ \t]|$)|" + _LABEL + ")")


# Link reference definitions apply to the whole document, and these HTML blocks run across
# blank lines: text containing either is never split. Both start a line, or follow only block
# quote and list markers ("> [r]: url", "- <pre>"); a "<!here>" inside a sentence is neither.
_LINE_START = r"^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t>]*)*"
_REFERENCE = re.compile(_LINE_START + _LABEL, re.M)
_WHOLE_DOCUMENT = re.compile(
    _LINE_START + "(?:" + _LABEL + r"|<(?:pre|script|style|textarea|!|\?))", re.I | re.M
)
# Other HTML blocks end at a blank line, but a fence-like line inside one is not a fence; whether
# a line starting with a tag opens such a block depends on the paragraph above it, so a fence
# after one (before a blank line) stops the splitting rather than guess.
_TAG_LINE = re.compile(_LINE_START + r"</?[A-Za-z]")


class BlockSplitter:
    """Incremental :func:`split_blocks`: feed text as it streams, get completed chunks.

    Each character is scanned once. After a line that may start an HTML block running across
    blank lines (``<pre``, ``<script``, ``<!--`` …) or a link reference definition, nothing more
    is split (the caller re-checks reference definitions on the whole text at the end).
    """

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._partial = ""
        self._fence: str | None = None
        self._fence_indent = 0
        self._blank_before = False
        self._frozen = False
        self._tag_above = False  # a line since the last blank one started with a tag

    @property
    def tail(self) -> str:
        """The open, not yet completed text."""
        return "".join(self._lines) + self._partial

    def feed(self, text: str) -> list[str]:
        """Add ``text``; return the chunks it completed."""
        if "\n" not in text:
            self._partial += text
            return []
        data = self._partial + text
        *complete, self._partial = data.split("\n")
        chunks: list[str] = []
        for original in complete:
            # read as parse() reads it: a line of bidi controls alone is blank there
            body = without_bidi_controls(original)
            line = body + "\n"
            stripped = body.strip(_BLANK)
            if self._fence is None:
                if (
                    self._blank_before
                    and stripped
                    and not self._frozen
                    and not _CONTINUES.match(line)
                    and self._lines
                ):
                    chunks.append("".join(self._lines))
                    self._lines = []
                if _WHOLE_DOCUMENT.search(line):
                    self._frozen = True
                m = FENCE_OPEN.match(line)
                if m:
                    self._fence = m.group(1)
                    self._fence_indent = m.start(1)
                    self._frozen = self._frozen or self._tag_above
                self._tag_above = bool(stripped) and (
                    self._tag_above or _TAG_LINE.match(line) is not None
                )
            else:
                close = closing_fence(line, self._fence)
                if (
                    self._fence_indent
                    and stripped
                    and (
                        (close is not None and close.start(1) != self._fence_indent)
                        or len(body) - len(body.lstrip(" ")) < self._fence_indent
                    )
                ):
                    # An indented fence may belong to a list item, which a less indented line
                    # ends, closing the fence with it; at the top level the line is code, or
                    # closes it. Which one depends on the list, so stop splitting.
                    self._frozen = True
                if close is not None:
                    self._fence = None
            self._lines.append(original + "\n")
            self._blank_before = not stripped and self._fence is None
        return chunks


def has_reference_definitions(text: str) -> bool:
    """True when ``text`` defines link references (they apply to the whole document)."""
    return _REFERENCE.search(without_bidi_controls(text)) is not None


def split_blocks(text: str) -> tuple[list[str], str]:
    """Split ``text`` into completed top-level chunks and the open tail.

    A chunk ends at a blank line outside any code fence whose next line starts a fresh block
    (not indented, not a list marker). Each chunk ends with its blank line, so
    ``"".join(chunks) + tail == text``, and parsing the chunks one by one gives the same
    tokens as parsing the whole text (the streaming renderer relies on this).
    """
    if has_reference_definitions(text):
        return [], text
    splitter = BlockSplitter()
    chunks = splitter.feed(text)
    return chunks, splitter.tail
