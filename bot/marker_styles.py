"""Superscript marker styles: ``<sup>2</sup>`` and ``^[2]^`` (DESIGN §5).

Small local models write the registry number they saw as a superscript. Left as text, the number
points at a different source of the renumbered list, so these are read like ``[2]``:

- ``<sup>N</sup>`` (any letter case, numbers as a bracket group writes them) only when every
  number names a source of this turn and the character before the tag is no letter or digit
  (a space, punctuation but a closing bracket, the start of a line): ``m<sup>2</sup>``,
  ``x<sup>2</sup>``, ``10<sup>3</sup>`` and ``(x+1)<sup>2</sup>`` are units and powers, and a
  word right before the tag cannot be told from them with the one character the scanner keeps,
  so ``fact<sup>2</sup>`` stays text too.
  Anything else stays as written, never dropped; but in an answer from a model told to cite by
  number (``Grammar.model_cites``), a tag after such a character is a marker whatever numbers it
  names, and one naming no source is dropped.
- ``<sup>[2]</sup>``: bracket markers wrapped in a superscript (``<sup>[1][2]</sup>``,
  ``<sup>[1], [2]</sup>``) are one marker with the tags, after any character: the brackets say
  it is a citation, and a ``<sup>`` left around ``[^1]`` (or around nothing, when the marker is
  removed) would show a raised footnote or an empty tag.
- ``^[2]^`` and ``^[2]``: a caret right before a bracket marker belongs to it, and so does one
  right after it (``[^2]^`` is :func:`bot.marker_parse.parse_bracket`'s).

Both decide on a bounded prefix (NEED until then), so streaming and batch resolution agree.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_numbers import NUM_LIST, bare_numbers_ok, expand_numbers
from bot.marker_parse import NEED, Grammar, Hit, Marker, Parsed, parse_bracket

MAX_SUP: Final = 64
MAX_SUP_BRACKETS: Final = 256
"""How long ``<sup>[1], [2]…</sup>`` may grow before its closing tag (then it is text)."""

_CARETS = re.compile(r"\^+")
# "<sup>" and the spaces after it, whole or partly written; bracket markers may follow
_SUP_HEAD = re.compile(r"<sup>[ \t]*", re.IGNORECASE)
_SUP_HEAD_OPEN = re.compile(r"<(?:s(?:u(?:p(?:>[ \t]*)?)?)?)?", re.IGNORECASE)
_SUP_CLOSE = "</sup>"
# between two bracket markers in one superscript ("<sup>[1], [2]</sup>")
_SUP_BETWEEN = re.compile(r"[ \t]*(?:[,;][ \t]*)?")
# what may end an operand of a power ("(x+1)<sup>2</sup>"), like a letter or digit
_OPERAND_ENDS: Final = frozenset(")]}")

_SUP = re.compile(rf"<sup>[ \t]*(?P<nums>{NUM_LIST})[ \t]*</sup>", re.IGNORECASE)
# what may still grow into one: numbers and ranges partly written, the closing tag partly
_SUP_OPEN = re.compile(
    r"<(?:s(?:u(?:p(?:>[\d \t,;&\-–—andAND]*(?:<(?:/(?:s(?:u(?:p)?)?)?)?)?)?)?)?)?",
    re.IGNORECASE,
)


def parse_sup(buf: str, i: int, final: bool, grammar: Grammar, prev: str) -> Parsed:
    """``<sup>2</sup>`` at ``buf[i]`` (a ``<``): a marker, text (None) or NEED."""
    head = _SUP_HEAD.match(buf, i, i + MAX_SUP)
    if head is None or head.end() >= len(buf):
        if not final and _SUP_HEAD_OPEN.fullmatch(buf, i, i + MAX_SUP) is not None:
            return NEED  # "<su", "<sup> ": bracket markers may still follow, after any character
    elif buf[head.end()] in "[^":
        return _sup_brackets(buf, i, head.end(), final, grammar)
    if prev.isalnum() or prev in _OPERAND_ENDS:
        return None
    m = _SUP.match(buf, i, i + MAX_SUP)
    if m is None:
        tail = buf[i : i + MAX_SUP]
        if not final and len(tail) < MAX_SUP and _SUP_OPEN.fullmatch(tail) is not None:
            return NEED
        return None
    nums = m["nums"]
    numbers = expand_numbers(nums) if bare_numbers_ok(nums) else None
    if not numbers:
        return None
    if not grammar.model_cites and not all(grammar.is_known_number(n) for n in numbers):
        return None
    return Hit(m.end(), Marker("word", m[0], i, numbers))


def _sup_brackets(buf: str, i: int, at: int, final: bool, grammar: Grammar) -> Parsed:
    """``<sup>[2]</sup>`` at ``buf[i]``, its first ``[`` at ``at``: one marker with the tags.

    Bracket markers separated by spaces, commas or semicolons may stand in the tag, several
    only when each names numbers (a linked number only alone); anything else leaves the tag
    text (its bracket markers are then read on their own, as before).
    """
    found: list[Marker] = []
    n = len(buf)
    while True:
        if buf[at] == "^":  # "<sup>^[2]</sup>": a caret marker, read as "[^2]" would be
            inner = parse_caret(buf, at, final, grammar, ">")
        else:
            inner = parse_bracket(buf, at, final, grammar, ">")
        if not isinstance(inner, Hit):
            return inner  # NEED, or text
        marker = inner.marker
        if marker is None or marker.ids or marker.key is not None:
            return None
        found.append(marker)
        at = _SUP_BETWEEN.match(buf, inner.end).end()  # type: ignore[union-attr]
        if at - i > MAX_SUP_BRACKETS:
            return None
        if at >= n:
            return None if final else NEED
        if buf[at] not in "[^":
            break
    tail = buf[at : at + len(_SUP_CLOSE)].lower()
    if tail != _SUP_CLOSE:
        if not final and len(tail) < len(_SUP_CLOSE) and _SUP_CLOSE.startswith(tail):
            return NEED
        return None
    end = at + len(_SUP_CLOSE)
    if len(found) == 1:
        return Hit(end, found[0]._replace(raw=buf[i:end], offset=i))
    if any(marker.placeholder or marker.url is not None or not marker.numbers for marker in found):
        return None  # (a link names its source by its URL: only alone in the tag)
    numbers = tuple(dict.fromkeys(number for marker in found for number in marker.numbers))
    # footnotes stay footnotes: "<sup>[^1][^2]</sup>" in an answer is one of its own
    footnotes = all(marker.family == "footnote" for marker in found)
    return Hit(end, Marker("footnote" if footnotes else "word", buf[i:end], i, numbers))


def parse_caret(buf: str, i: int, final: bool, grammar: Grammar, prev: str) -> Parsed:
    """``^[2]^`` or ``^[2]`` at ``buf[i]`` (a ``^``): the bracket marker with its carets.

    Not after a ``[``: ``[^[9]1]`` is a footnote's opening around a marker.
    """
    if prev == "[":
        return None
    n = len(buf)
    if i + 1 >= n:
        return None if final else NEED
    if buf[i + 1] == "^":
        # only the last caret of a run can open a marker: the rest is text at once
        run = _CARETS.match(buf, i).end()  # type: ignore[union-attr]
        return Hit(run - 1, None)
    if buf[i + 1] != "[" or buf.startswith("[[", i + 1):
        return None
    inner = parse_bracket(buf, i + 1, final, grammar, "^")
    if not isinstance(inner, Hit) or inner.marker is None:
        return NEED if inner is NEED else None
    end = inner.end
    if not inner.marker.raw.endswith("^"):
        if end >= n and not final:
            return NEED
        if end < n and buf[end] == "^":
            end += 1
    return Hit(end, inner.marker._replace(raw=buf[i:end], offset=i))
