"""reStructuredText: section titles as headings, the rest as plain-text paragraphs.

Read as plain text, ``Forklift licences`` / ``-----------------`` was quoted as the sentence
"Forklift licences ----------------- [1]." and the file was titled by its name. Only section
titles are read here (docutils, a large dependency, would parse all of reStructuredText): a
title line underlined, or over- and underlined, by one punctuation character repeated, as
docutils reads them:

- an underline at least as wide as the title (one of four characters or more may be shorter:
  docutils warns and takes it as a title all the same);
- an overline and underline of the same character and length, at least as wide as the title,
  which may be inset;
- levels in order of first appearance of each style (the character, and whether it has an
  overline), the first title naming the document (front-matter ``title`` wins over it).

An adornment line of four or more characters that is no part of a title (a transition, or a
malformed title's) is drawn, not read, and left out of the text. Other markup (directives,
roles, literal blocks) is kept as written.
"""

from __future__ import annotations

import re
import unicodedata

from bot.knowledge.document import Block, Document, HeadingPath

# the characters docutils allows in an adornment: every printable ASCII punctuation mark
ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# the shortest adornment docutils takes under a longer title, or as a transition
_SHORT_OK = 4
# inline markup in a title: ``code``, `text <url>`_, `ref`_, :role:`text`, **strong**, *emphasis*
_LITERAL = re.compile(r"``(.+?)``")
_REFERENCE = re.compile(r"`([^`<]+?)\s*(?:<[^`>]*>)?`_{1,2}")
_ROLE = re.compile(r"(?::[\w.+-]+:)?`([^`]+)`(?::[\w.+-]+:)?")
_STRONG_OR_EMPHASIS = re.compile(r"(?<!\w)(\*{1,2})(?=\S)(.+?)(?<=\S)\1(?!\w)")


def _adornment(line: str) -> str | None:
    """``line`` without trailing spaces when it is one punctuation character repeated from
    its first column (an indented one is a block quote's or a literal block's text)."""
    mark = line.rstrip()
    if mark and mark[0] in ADORNMENT_CHARS and mark == mark[0] * len(mark):
        return mark
    return None


def _width(text: str) -> int:
    """Columns ``text`` takes, as docutils measures a title: wide (CJK) characters count
    two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def _title_text(text: str) -> str:
    """A title as a reader sees it: without inline markup (``code``, links, roles, stars)."""
    text = _LITERAL.sub(r"\1", text)
    text = _REFERENCE.sub(r"\1", text)
    text = _ROLE.sub(r"\1", text)
    text = _STRONG_OR_EMPHASIS.sub(r"\2", text)
    return " ".join(text.split())


def _title_at(lines: list[str], index: int) -> tuple[str, tuple[str, bool], int] | None:
    """The section title starting at ``lines[index]``: its text, its style (adornment
    character, overlined) and how many lines it takes; None when there is none."""
    first = lines[index].rstrip()
    following = lines[index + 1].rstrip() if index + 1 < len(lines) else ""
    over = _adornment(first)
    if over is not None:
        if index + 2 >= len(lines) or not following.strip():
            return None
        under = _adornment(lines[index + 2])
        title = following.strip()
        if under != over or _adornment(following) is not None or len(over) < _width(title):
            return None
        return title, (over[0], True), 3
    under = _adornment(following)
    if under is None or first[:1].isspace() or not first:
        return None
    if len(under) < _width(first) and len(under) < _SHORT_OK:
        return None  # "Total\n--": docutils reads it as text, too short to be an underline
    return first, (under[0], False), 2


def read_rst(text: str, filename: str) -> Document:
    """reStructuredText: paragraphs (split at blank lines and form feeds) under the heading
    path of their section titles; the title is the first section title, else the file name."""
    lines = text.replace("\f", "\n\n").split("\n")
    styles: list[tuple[str, bool]] = []
    headings = HeadingPath()
    blocks: list[Block] = []
    title: str | None = None
    paragraph: list[str] = []

    def flush() -> None:
        joined = "\n".join(paragraph).strip()
        paragraph.clear()
        if joined:
            blocks.append(Block(joined, headings.path))

    index = 0
    while index < len(lines):
        line = lines[index].rstrip()
        if not line.strip():
            flush()
            index += 1
            continue
        # a title opens a paragraph, as docutils reads one: under a paragraph's later line,
        # the rule is dropped below and the line stays the paragraph's
        found = None if paragraph else _title_at(lines, index)
        if found is not None:
            flush()
            raw, style, taken = found
            if style not in styles:
                styles.append(style)
            heading = _title_text(raw)
            title = title or heading or None
            headings.enter(styles.index(style) + 1, heading)
            index += taken
            continue
        mark = _adornment(line)
        if mark is not None and len(mark) >= _SHORT_OK:
            flush()  # a transition, or a title's rule that matched nothing: drawn, not read
        else:
            paragraph.append(line)
        index += 1
    flush()
    return Document(title=title or filename, media_type="text/plain", blocks=blocks)
