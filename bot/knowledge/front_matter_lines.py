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
    does not."""
    text = "\n".join(lines)
    if _AUDIENCE_MARK not in text.lower():
        return False
    keys = [*_KEY_LINE.findall(text), *_EXPLICIT_KEY.findall(text)]
    if text.lstrip().startswith("{"):
        keys += _FLOW_KEY.findall(text)
    return any(_AUDIENCE_MARK in key.lower() for key in keys)


def names_audience_json_key(text: str) -> bool:
    """Whether a JSON key (``"audience":``, ``"Audiance":``) in ``text`` names an audience."""
    if _AUDIENCE_MARK not in text.lower():
        return False
    return any(_AUDIENCE_MARK in key.lower() for key in _JSON_KEY.findall(text))
