"""Markdown markup a rendered page does not show as text, for the Markdown reader.

Raw HTML and JSX tags (``<div class="x">``, ``<Callout type="warning">``), footnote marks
(``[^1]``), link targets and reference definitions (``[cfg]: https://…``) and the marker lines of
admonitions (MkDocs ``!!! note "Title"``, Docusaurus ``:::tip`` … ``:::``) are drawn or
hidden by a renderer, never read. Left in a chunk they reach quotes as noise (``\\<p>Restart
the \\<b>service\\</b>``, ``note "Heads up" The daemon…``). Code spans keep their text.
A tag may span several lines (``<Tabs`` / ``  groupId="os">``). For MDX pages, ``import`` /
``export`` statements and ``{expressions}`` are not text either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.knowledge.document import code_spans

# A JSX attribute value or spread (``values={[{label: 'A'}]}``, ``{...props}``): braces nested
# one level deep at most.
_BRACED = r"\{(?:[^{}]|\{[^{}]*\})*\}"
# An open or closing tag as CommonMark defines raw HTML (a name, attributes, an optional "/"),
# with JSX's braced values. An autolink (<https://x>, <a@b.c>) is no tag: a name is followed
# by space, "/" or ">". Whitespace includes line breaks, so a tag joined from several lines
# (see :func:`tag_lines`) matches too.
# Linear: each piece stops at a character it cannot hold (a name at space, "=" or ">"; a
# quoted or braced value at its closing quote or brace; an unquoted value cannot start with
# "{"), so every character is read by one piece only and a failed attempt gives back nothing
# it must read again; a line of ``<a b b b …`` without ">" is one pass from each "<".
_TAG = re.compile(
    r"</?[A-Za-z][A-Za-z0-9.:-]*"
    r"(?:\s+(?:" + _BRACED + r"""|[A-Za-z_:][\w.:-]*"""
    r"""(?:\s*=\s*(?:"[^"]*"|'[^']*'|""" + _BRACED + r"""|[^\s"'=<>`{][^\s"'=<>`]*))?))*"""
    r"\s*/?>"
)
# A line that begins with a tag's name and does not close it: ``<Tabs`` / ``  groupId="os">``.
_TAG_HEAD = re.compile(r"[ \t]*</?[A-Za-z][A-Za-z0-9.:-]*(?:\s|$)")
# How many lines one tag may span: a longer run is text that happens to start with "<a ".
MAX_TAG_LINES = 12
_BREAK_TAG = re.compile(r"^<br\b", re.IGNORECASE)
# A link or image as its text: ``[notes](https://…)``, ``![diagram](a.png)``. Left as written, a
# quote shows "\\[notes\\](https://…)": quotes escape brackets so a document cannot make links.
# The target may hold balanced parentheses, as CommonMark reads it
# (``[Python](https://en.wikipedia.org/wiki/Python_(programming_language))``), one level deep;
# it stops at a bracket, an unbalanced parenthesis or a space, so that a line of "[a](" is
# read in linear time.
_INLINE_LINK = re.compile(
    r"!?\[([^\]\[]*)\]\((?:[^()\[\]\s]|\([^()\[\]\s]*\))*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\)"
)
# ``[notes][ref]`` and ``[notes][]``: a link only when ``ref`` is defined in the file
_REFERENCE_LINK = re.compile(r"!?\[([^\]\[]+)\]\[([^\]\[]*)\]")
# Where a label definition (``[ref]:``) opens at a line start; :func:`link_labels` finds its "]"
_LABEL_OPEN = re.compile(r" {0,3}\[(?!\^)")
# a footnote mark ("[^1]"), which a rendered page shows as a superscript link, not as text
FOOTNOTE_REF = re.compile(r"\[\^[^\]\[\s]+\]")
_FOOTNOTE_DEF = re.compile(r"^ {0,3}\[\^[^\]\s]+\]:[ \t]*")
_LINK_DEF = re.compile(
    r"""^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*<?\S+>?(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$"""
)
# MkDocs / Python-Markdown admonitions and collapsible details: ``!!! kind "Title"``.
_ADMONITION = re.compile(
    r"""^ {0,3}(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+"(.*)")?[ \t]*$"""
)
# Docusaurus / VitePress containers: ``:::tip``, ``:::tip[Title]``, ``::: warning Title``, ``:::``.
_CONTAINER = re.compile(r"^ {0,3}:{3,}[ \t]*(?:[\w-]+)?(?:\[(.*)\]|[ \t]+(.*?))?[ \t]*$")


def admonition_title(line: str) -> str | None:
    """For an admonition's marker line (``!!! note "Title"``), its title (maybe empty); its
    body is the indented lines after it. ``None`` for any other line."""
    found = _ADMONITION.match(line)
    return (found.group(1) or "").strip() if found else None


def container_title(line: str) -> str | None:
    """For a container's marker line (``:::tip[Title]``, or a closing ``:::``), its title
    (maybe empty); ``None`` for any other line."""
    found = _CONTAINER.match(line)
    return next((group.strip() for group in found.groups() if group), "") if found else None


def is_link_definition(line: str) -> bool:
    """``[label]: https://…``: where a reference link points, not shown on the page."""
    return _LINK_DEF.match(line) is not None


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def link_labels(text: str) -> frozenset[str]:
    """The labels that ``text``'s link reference definitions (``[ref]: https://…``) define
    (a label may run over several lines), in one pass.

    The pattern ``^ {0,3}\\[(?!\\^)([^\\]]+)\\]:`` (multi-line) once found them; tried at every
    line start, it read on to the next "]" each time, so a file of lines opening "[" and no
    "]" took time quadratic in its line count. Here the first "]" after a line's "[" is found
    once and kept for the lines up to it; the labels are the pattern's.
    """
    labels: set[str] = set()
    close = -1  # the first "]" after the last line start tried (-1: not looked for yet)
    start = 0
    while start >= 0:
        opening = _LABEL_OPEN.match(text, start)
        if opening is not None:
            if close < opening.end():
                close = text.find("]", opening.end())
                if close < 0:
                    break  # no "]" after this line: no definition either
            if close > opening.end() and text.startswith(":", close + 1):
                labels.add(_label(text[opening.end() : close]))
                start = close + 2  # a match's lines are its own, as findall() reads on
        start = text.find("\n", start)
        start = start + 1 if start >= 0 else -1
    return frozenset(labels)


def shown_text(line: str, labels: frozenset[str] = frozenset()) -> str:
    """``line`` as a rendered page shows it: without tags, footnote marks or the label of a
    footnote definition, a link as its text (a reference link when ``labels``, from
    :func:`link_labels`, defines its label); a ``<br>`` is a space. Code spans are kept as
    written."""
    line = _FOOTNOTE_DEF.sub("", line, count=1)
    if "<" not in line and "[" not in line:
        return line

    def reference(link: re.Match[str]) -> str:
        defined = _label(link[2] or link[1]) in labels
        return link[1] if defined else link[0]

    out: list[str] = []
    for is_code, piece in code_spans(line):
        if not is_code:
            piece = _TAG.sub(lambda tag: " " if _BREAK_TAG.match(tag[0]) else "", piece)
            piece = FOOTNOTE_REF.sub("", piece)
            piece = _REFERENCE_LINK.sub(reference, _INLINE_LINK.sub(r"\1", piece))
        out.append(piece)
    return "".join(out)


def tag_end(line: str, start: int) -> int:
    """Where the tag that begins at ``start`` in ``line`` ends (-1: none begins there); one
    anchored match, that reads no further than the tag (see :data:`_TAG`)."""
    found = _TAG.match(line, start)
    return found.end() if found else -1


def tag_lines(first: str, following: Sequence[str]) -> int:
    """How many of ``following`` lines finish a tag that ``first`` begins at its start and
    leaves open (``<Tabs`` / ``  groupId="os">``); 0 when ``first`` opens no such tag, or it is
    not closed with ">" within :data:`MAX_TAG_LINES` lines and before a blank line.

    Only a "<" that begins the line and is followed by a letter starts one, so ``a < b`` and an
    autolink never do. Each try is one anchored match over at most ``MAX_TAG_LINES`` lines, so
    a file is read in time linear in its size (times that bound).
    """
    if not _TAG_HEAD.match(first) or _TAG.match(first.lstrip()):
        return 0
    joined = first.lstrip()
    for count, line in enumerate(following[: MAX_TAG_LINES - 1], start=1):
        if not line.strip():
            return 0
        joined = f"{joined}\n{line}"
        if ">" in line and _TAG.match(joined):
            return count
    return 0


# MDX: an ``import`` / ``export`` statement at the top level (ESM) runs to a blank line.
_ESM = re.compile(r"(?:import|export)(?=[\s{*])")


def is_esm_start(line: str) -> bool:
    """MDX: ``line`` begins an ``import`` / ``export`` statement (at column 0, as MDX has it)."""
    return _ESM.match(line) is not None


def expression_lines(lines: Sequence[str], start: int) -> int:
    """MDX: how many lines from ``lines[start]`` (which begins with "{") a block-level
    expression or ``{/* comment */}`` spans: up to where its braces balance, or up to a blank
    line, after which text is read as text again (leaving a page's text out would be worse than
    reading a stray brace). 0 when the expression ends on its own line and text follows it
    (``{props.name} ships today.``): it is inline, in a paragraph (see
    :func:`without_expressions`). One count per line: linear."""
    if _ends_inline(lines[start]):
        return 0
    depth = 0
    for index in range(start, len(lines)):  # indices, not a slice: no copy of the rest per call
        line = lines[index]
        if index > start and not line.strip():
            return index - start
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            return index - start + 1
    return len(lines) - start


def _ends_inline(line: str) -> bool:
    """``line`` (beginning with "{") closes its first expression before text on the line."""
    depth = 0
    for position, char in enumerate(line):
        depth += (char == "{") - (char == "}")
        if depth <= 0:
            return bool(line[position + 1 :].strip())
    return False


# MDX: a string literal expression (``{' '}``, ``{"Note"}``) renders as its text.
_STRING_LITERAL = re.compile(r"""\s*(["'`])([^"'`]*)\1\s*""")


def without_expressions(line: str) -> str:
    """MDX: ``line`` without its simple inline ``{expressions}`` outside code spans, as a
    rendered page does not show their source ("Version {props.version} is out" reads
    "Version is out"); a string literal is its text (``{' '}`` is a space). An expression
    holding braces is left as written: reading its source beats guessing where it ends."""
    if "{" not in line:
        return line
    out: list[str] = []
    for is_code, piece in code_spans(line):
        out.append(piece if is_code else _drop_expressions(piece))
    return "".join(out)


def _expressions(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each top-level ``{…}`` in ``text`` (a brace escaped with "\\" is
    text); one left open is not one."""
    spans: list[tuple[int, int]] = []
    depth = 0
    start = 0
    escaped = False
    for position, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            start = position if depth == 0 else start
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, position + 1))
    return spans


def _drop_expressions(text: str) -> str:
    out: list[str] = []
    position = 0
    for start, end in _expressions(text):
        inner = text[start + 1 : end - 1]
        if "{" in inner:
            continue  # not a simple one: left as written
        literal = _STRING_LITERAL.fullmatch(inner)
        if literal:
            out.append(text[position:start] + literal[2])
            position = end
            continue
        after = text[end : end + 1]
        if start > position and text[start - 1] == " " and after in ("", " ", *".,;:!?)"):
            start -= 1  # "Version {v} is out", "is {v}.": the space before it goes too
        elif start == 0 and after == " ":
            end += 1  # "{v} is out" at the start: and the space after it
        out.append(text[position:start])
        position = end
    out.append(text[position:])
    return "".join(out)


def without_delimited(line: str, opening: str, closing: str) -> str:
    """``line`` without each ``opening`` … ``closing`` run outside code spans (a code span's
    text is kept; an unclosed one stays, as CommonMark shows it)."""
    if opening not in line:
        return line
    out: list[str] = []
    for is_code, piece in code_spans(line):
        if is_code:
            out.append(piece)
            continue
        # find() rather than a regex: a line of many unclosed openings stays linear to scan
        position = 0
        while (begin := piece.find(opening, position)) >= 0:
            end = piece.find(closing, begin + len(opening))
            if end < 0:
                break
            out.append(piece[position:begin])
            position = end + len(closing)
        out.append(piece[position:])
    return "".join(out)


def without_jsx_comments(line: str) -> str:
    """MDX: ``line`` without ``{/* comments */}``; a code span's text is kept."""
    return without_delimited(line, "{/*", "*/}")
