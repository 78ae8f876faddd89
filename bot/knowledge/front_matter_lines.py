"""Lines of a file's opening that its author meant as front matter: fences, blank lines and key
lines naming an audience, however they were typed.

A fence pasted behind an invisible character (a no-break space, a soft hyphen, a left-to-right
mark, a zero-width space), or typed with look-alike dashes (a CJK input method's full-width
``－－－``, minus signs ``−−−``, ``— — —``), is no fence to a YAML reader, yet its author
meant one; so is ``--- # comment``. A line of invisible characters only is blank to a reader
of the page. :mod:`bot.knowledge.front_matter` refuses such a block when a key line in it
names an audience: read as text, it left a private file public.

Every check here takes time in proportion to the text: a hostile file (a line of 2 MB holding
``audi`` many times) is read while a page is served too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_AUDIENCE_MARK = "audi"  # "audience", "Audiance", "audiences", "citecast:audience"
# One key at the start of a line (``audience:``, ``"Audience" =``), an explicit YAML key
# (``? audience``), and keys in a flow mapping (``{title: x, audience: staff}``). Keys are one
# run of key characters, never a pattern nesting repeats, so a line is read once.
_KEY_LINE = re.compile(r"""^[ \t]*["']?([\w.:-]+)["']?[ \t]*[:=]""", re.M)
_EXPLICIT_KEY = re.compile(r"""^[ \t]*\?[ \t]+["']?([\w.:-]+)""", re.M)
_FLOW_KEY = re.compile(r"""[{,][ \t]*["']?([\w.:-]+)["']?[ \t]*:""")
_JSON_KEY = re.compile(r'"([^"\n]*)"\s*:')
_WORD = re.compile(r"\w")
# Hyphens and dashes a fence may be typed with: every Unicode dash punctuation (Pd: -, ‐,
# –, —, the full-width －) and the minus sign.
_MINUS = "\u2212"
_FENCE = re.compile(r"^(?:-{3,}|\+{3,}|\.{3})(?:[ \t]+#.*)?$")
_NOT_SHOWN = ("Cf", "Zs")  # format characters (zero-width, marks, soft hyphen) and spaces
# A YAML directive line: ``%YAML 1.2``, ``%TAG ! tag:example.com,2000:``
_DIRECTIVE = re.compile(r"%(?:YAML|TAG)[ \t]+\S")


def _shown(text: str) -> str:
    """``text`` without the characters a page shows as nothing or as a space, tabs and
    carriage returns too, and with every dash read as ``-``."""
    kept: list[str] = []
    for char in text:
        if char in "\t\r":
            continue
        category = unicodedata.category(char)
        if category in _NOT_SHOWN:
            continue
        kept.append("-" if category == "Pd" or char == _MINUS else char)
    return "".join(kept)


def is_blank_line(line: str) -> bool:
    """Whether ``line`` shows nothing: spaces and invisible characters only (a zero-width
    space, a word joiner, a byte-order mark, a no-break space)."""
    if not line.strip():
        return True
    return _WORD.search(line) is None and not _shown(line).strip()


def is_fence_like(line: str) -> bool:
    """Whether ``line`` looks like a front matter fence to its author: ``---``, ``+++`` or
    ``...``, behind or among invisible characters and spaces, typed with any dash, or
    followed by a ``#`` comment."""
    before_comment, comment, _ = line.partition("#")
    if _WORD.search(before_comment):
        return False  # words before any comment: text (a quick test for most lines)
    return _FENCE.match(_shown(before_comment) + (" #" if comment else "")) is not None


def names_audience_key(lines: Iterable[str]) -> bool:
    """Whether a key line in ``lines`` names an audience, or looks meant to (``Audiance =``,
    ``audiences:``, ``? audience``, ``{audience: staff}``). A sentence ("Our audience: all")
    does not. A key typed in full-width letters (``ａｕｄｉｅｎｃｅ：``, from a CJK input
    method) is read as the letters it shows."""
    text = unicodedata.normalize("NFKC", "\n".join(lines))
    if _AUDIENCE_MARK not in text.lower():
        return False
    keys = [*_KEY_LINE.findall(text), *_EXPLICIT_KEY.findall(text)]
    if text.lstrip().startswith("{"):
        keys += _FLOW_KEY.findall(text)
    return any(_AUDIENCE_MARK in key.lower() for key in keys)


def names_audience_json_key(text: str) -> bool:
    """Whether a JSON key (``"audience":``, ``"Audiance":``, in full-width letters too) in
    ``text`` names an audience."""
    text = unicodedata.normalize("NFKC", text)
    if _AUDIENCE_MARK not in text.lower():
        return False
    return any(_AUDIENCE_MARK in key.lower() for key in _JSON_KEY.findall(text))


# What Python's str.splitlines() (and YAML 1.1) take for a line break, but a YAML reader of
# front matter (and Hugo, Jekyll, gray-matter) does not: pasted where a break was, it joins
# a fence to the key line under it
_OTHER_BREAKS = re.compile("[\v\f\x1c-\x1e\x85\u2028\u2029]")


def other_break(line: str) -> str | None:
    """The first character in ``line`` that some tools read as a line break but front matter
    readers do not (U+2028 LINE SEPARATOR, U+2029, U+0085 NEXT LINE, a form feed), or None."""
    found = _OTHER_BREAKS.search(line)
    return found.group() if found else None


def split_at_breaks(line: str) -> list[str]:
    """``line`` split at every :func:`other_break` character."""
    return _OTHER_BREAKS.split(line)


def opening_start(lines: list[str]) -> tuple[int, bool]:
    """Where the opening of a file starts once blank lines, leading HTML comments and YAML
    directives are passed over, and whether a comment is left open there.

    A comment line above front matter (``<!-- markdownlint-disable MD041 -->``, a generated
    file's notice) is common; Hugo passes over the whole line that starts with ``<!--``,
    whatever follows the comment on it (``<!-- a --> <!-- b -->``, ``<!-- generated --> do
    not edit``), and reads the front matter under it; it reads front matter inside a comment
    too (``<!--`` alone, the block, then ``-->``): a comment left open on a line that a
    fence follows is passed over by that line alone. Any other comment is passed over to the
    line that closes it (with what follows there). A ``%YAML 1.2`` or ``%TAG`` directive
    above a ``---`` is YAML's own opening: no front matter reader takes it, yet its author
    plainly wrote the block under it as YAML.
    """
    start = 0
    while start < len(lines) - 1:
        line = lines[start]
        if is_blank_line(line) or _DIRECTIVE.match(line):
            start += 1
            continue
        if not line.lstrip().startswith("<!--"):
            break
        closes = _comment_end(lines, start)
        if closes is None:
            break  # a comment never closed: the text as written
        following = next(
            (n for n in range(start + 1, len(lines)) if not is_blank_line(lines[n])), None
        )
        if closes > start and following is not None and is_fence_like(lines[following]):
            return following, True  # Hugo's front matter inside a comment
        start = closes + 1
    return start, False


def _comment_end(lines: list[str], start: int) -> int | None:
    """The line where the comments opened on ``lines[start]`` are all closed: the last
    ``-->`` of a line opening no other comment after it (``<!-- a --> <!-- b`` is closed on
    the line closing ``b``); None when one is never closed. Text after that ``-->`` is
    passed over with the line, as Hugo passes over a comment's line."""
    number, at = start, lines[start].index("<!--") + 4
    while number < len(lines):
        text = lines[number]
        end = text.find("-->", at)
        if end < 0:
            number, at = number + 1, 0
            continue
        at = text.find("<!--", end + 3)
        if at < 0:
            return number
        at += 4
    return None
