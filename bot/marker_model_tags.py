"""Tag marker styles of particular models: the tags go, the words between them stay.

- ``<cite index="3-1">words</cite>`` (Claude): the words cite source 3 (the number before the
  dash; after it, the sentence of that source, or a run of them: ``"3-2:4"``). The opening
  tag names nothing where it stands (an ``opener``); the closing tag is the citation, so it
  comes after the words. A
  ``</cite>`` with no such tag open is HTML's (``<cite>Title</cite>``) and stays text.
- ``<co: 3>words</co: 3>`` (Command R): the same, the closing tag naming its numbers itself.
- ``<cite>1</cite>``: a cite tag holding only source numbers, from a model told to cite by
  number (``Grammar.model_cites``), is a marker like ``[1]``; any other ``<cite>`` body
  (``<cite>Title</cite>``), or a model not told to cite, stays text.

Each is decided within MAX_MODEL_TAG characters (NEED until then), so streaming and batch
resolution agree; the scanner keeps which ``<cite index>`` is open (``cite_open``).
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_numbers import NUM_LIST, bare_numbers_ok, expand_numbers
from bot.marker_parse import NEED, Hit, Marker, Parsed

MAX_MODEL_TAG: Final = 96

# "DOC-SENTENCE", or "DOC-START:END" for a run of contiguous sentences of one document
_INDEX = r"\d{1,3}-\d{1,4}(?::\d{1,4})?"
_CITE_OPEN = re.compile(
    rf'<cite[ \t]+index[ \t]*=[ \t]*"(?P<idx>{_INDEX}(?:[ \t]*,[ \t]*{_INDEX})*)"[ \t]*>',
    re.IGNORECASE,
)
_CITE_CLOSE = re.compile(r"</cite>", re.IGNORECASE)
_CO = re.compile(rf"<(?P<close>/)?co:[ \t]*(?P<nums>{NUM_LIST})[ \t]*>", re.IGNORECASE)
_FORMS: Final = ("<cite ", "<cite\t", "<cite>", "<co:", "</co:", "</cite")  # (how each begins)
_SOURCE_OF_INDEX = re.compile(r"(\d+)-\d+")


def _prefixes(*parts: str) -> re.Pattern[str]:
    """A pattern that matches every prefix of ``parts`` written one after the other."""
    pattern = ""
    for part in reversed(parts[1:]):
        pattern = f"(?:{part}{pattern})?"
    return re.compile(parts[0] + pattern, re.IGNORECASE)


_NUMBERS_SO_FAR = r"[\d \t,;&\-–—andAND]*"
_OPEN_PARTS = (
    _prefixes("<", "c", "i", "t", "e", "[ \t]+", "i", "n", "d", "e", "x", "[ \t]*", "=", "[ \t]*"),
    _prefixes("<", "c", "o", ":", _NUMBERS_SO_FAR),
    _prefixes("<", "/", "c", "o", ":", _NUMBERS_SO_FAR),
)
_INDEX_SO_FAR = re.compile(r'<cite[ \t]+index[ \t]*=[ \t]*"[\d\-:, \t]*"?[ \t]*', re.IGNORECASE)
_CLOSE_PART = _prefixes("<", "/", "c", "i", "t", "e")
_CITE_NUMBERS = re.compile(rf"<cite>[ \t]*(?P<nums>{NUM_LIST})[ \t]*</cite>", re.IGNORECASE)
_CITE_NUMBERS_PART = _prefixes(
    "<", "c", "i", "t", "e", ">", _NUMBERS_SO_FAR, "<", "/", "c", "i", "t", "e"
)


def parse_model_tag(
    buf: str, i: int, final: bool, cite_open: tuple[int, ...], model_cites: bool = False
) -> Parsed:
    """A model's citation tag at ``buf[i]`` (a ``<``): a marker, None (not one of these) or
    NEED. ``cite_open``: the sources of the ``<cite index>`` tag open, if any; ``model_cites``:
    the answer is a model's told to cite by number (``<cite>1</cite>`` is then a marker)."""
    head = buf[i : i + 6].lower()
    if not head.startswith(_FORMS) and (
        len(head) == 6 or not any(form.startswith(head) for form in _FORMS)
    ):
        return None  # the common case, "<CIT 3 />" or HTML: decided without a pattern
    limit = i + MAX_MODEL_TAG
    m = _CITE_OPEN.match(buf, i, limit)
    if m is not None:
        numbers = tuple(dict.fromkeys(int(x) for x in _SOURCE_OF_INDEX.findall(m["idx"])))
        return Hit(m.end(), Marker("opener", m[0], i, numbers))
    m = _CO.match(buf, i, limit)
    if m is not None:
        if m["close"] is None:
            return Hit(m.end(), Marker("opener", m[0], i))
        return Hit(m.end(), Marker("word", m[0], i, expand_numbers(m["nums"]) or ()))
    if model_cites:
        m = _CITE_NUMBERS.match(buf, i, limit)
        if m is not None and bare_numbers_ok(m["nums"]):
            return Hit(m.end(), Marker("word", m[0], i, expand_numbers(m["nums"]) or ()))
    if cite_open:
        m = _CITE_CLOSE.match(buf, i, limit)
        if m is not None:
            return Hit(m.end(), Marker("word", m[0], i, cite_open))
    if final or len(buf) >= limit:
        return None
    tail = buf[i:]
    if any(p.fullmatch(tail) for p in _OPEN_PARTS) or _INDEX_SO_FAR.fullmatch(tail):
        return NEED
    if cite_open and _CLOSE_PART.fullmatch(tail):
        return NEED
    if model_cites and _CITE_NUMBERS_PART.fullmatch(tail):
        return NEED
    return None
