"""A PDF page's extracted lines as clean text, and a paragraph's lines joined into one.

Ligatures are spelled out and runs of spaces made one (:func:`clean_lines`); a word hyphenated
at a line break is made whole again unless the document writes its halves as words
(:func:`join_lines`). Used by :mod:`bot.knowledge.pdf_reader`, which rebuilds paragraphs and
headings from the lines.
"""

from __future__ import annotations

import re

# Typographic ligatures (TeX and InDesign set "fi" as one glyph) are letters to a reader and
# must be to search: "conﬁguration" has to be found by "configuration".
_LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
    | {"\ufb05": "st", "\ufb06": "st"}
)
SOFT_HYPHEN = "\u00ad"
_LAST_WORD = re.compile(r"(\w+)-$")
_FIRST_WORD = re.compile(r"^\w+")
_BROKEN_WORD = re.compile(r"\w+-\n\w+")


def clean_lines(text: str) -> list[str]:
    """``text``'s lines, ligatures spelled out and each run of spaces one space."""
    return [" ".join(line.translate(_LIGATURES).split()) for line in text.split("\n")]


def vocabulary(text: str) -> frozenset[str]:
    """The words ``text`` writes (lower case), leaving out the two halves of each word broken
    at a line-end hyphen: what :func:`join_lines` checks a broken word against."""
    whole = _BROKEN_WORD.sub(" ", "\n".join(clean_lines(text)))
    return frozenset(word.lower() for word in re.findall(r"\w+", whole))


def join_lines(lines: list[str], words: frozenset[str] = frozenset()) -> str:
    """A paragraph's lines as one line of text, with words hyphenated across a line break
    joined: "configu-" / "ration" is "configuration", as a reader reads it. A compound broken
    at its own hyphen ("on-" / "failure") keeps it when the document (``words``, its
    :func:`vocabulary`) writes both halves as words but not the two run together. A soft
    hyphen (U+00AD) always goes."""
    text = ""
    for line in lines:
        if text.endswith(SOFT_HYPHEN) and line[:1].isalpha():
            text = text[:-1] + line
            continue
        prefix = _LAST_WORD.search(text[-200:]) if text.endswith("-") else None
        suffix = _FIRST_WORD.match(line)
        if prefix and suffix and prefix[1][-1:].islower() and suffix[0][:1].islower():
            head, tail = prefix[1].lower(), suffix[0].lower()
            compound = head + tail not in words and head in words and tail in words
            text = text + line if compound else text[:-1] + line
            continue
        text = f"{text} {line}" if text else line
    return text.replace(SOFT_HYPHEN, "")
