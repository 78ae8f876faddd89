"""Unicode superscript numbers as markers: ``49 EUR³``, ``pip.¹˒²``, ``word⁽¹⁾`` (DESIGN §5).

Models told to cite by number sometimes write the registry number as a superscript digit, as
``<sup>3</sup>`` is written in HTML (``bot.marker_styles``). The same digits are units and
powers as often (``m²``, ``10³``, ``x²``, ``(x+1)²``, ``km²``), so a run is read only:

- in an answer from a model told to cite (``Grammar.model_cites``),
- when every number it names is a source of this turn (``Grammar.is_known_number``),
- right after sentence punctuation (not a closing bracket: an operand's end) or after a word
  of at least three letters (``EUR³``, ``guide²``; never ``m²``, ``km²``, ``x²`` or ``10³``).

Anything else stays as written. The numbers: one to three superscript digits, a range with
``⁻``, several joined by ``˒`` or ``,``, optionally in ``⁽…⁾``. Decided within
MAX_SUPERSCRIPT characters (NEED while the run may still grow), so streaming and batch
resolution agree.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_numbers import expand_numbers
from bot.marker_parse import Grammar
from bot.marker_types import NEED, Hit, Marker, Parsed

MAX_SUPERSCRIPT: Final = 32
LOOKBACK: Final = 3
"""How many characters before a superscript run decide whether it may be a marker."""

_DIGITS: Final = "⁰¹²³⁴⁵⁶⁷⁸⁹"
STARTS: Final = "¹²³⁴⁵⁶⁷⁸⁹⁽"
"""What may open a superscript marker (no source is numbered 0)."""

_TO_ASCII: Final = str.maketrans(_DIGITS, "0123456789")
_NUMBER = f"[{_DIGITS[1:]}][{_DIGITS}]{{0,2}}"
_ITEM = f"{_NUMBER}(?:⁻{_NUMBER})?"
_LIST = f"{_ITEM}(?:[˒,]{_ITEM})*"
_SUPERSCRIPT = re.compile(f"⁽(?P<inner>{_LIST})⁾|(?P<bare>{_LIST})")
# what may still grow into one (or make it longer) while the stream has not said more
_RUN = re.compile(f"[{_DIGITS}⁽⁾⁻˒,]*")
# what may not follow a run read as a marker: it goes on as some longer superscript
_GOES_ON = frozenset(f"{_DIGITS}⁻˒⁽⁾")
_PUNCTUATION: Final = frozenset(".,;:!?\"'”’»。，、；：！？")


def parse_superscript(buf: str, i: int, final: bool, grammar: Grammar, before: str) -> Parsed:
    """A superscript run at ``buf[i]``: a marker, text (None) or NEED. ``before``: the last
    LOOKBACK characters of the raw text before it."""
    if not grammar.model_cites or not _may_follow(before):
        return None
    limit = min(len(buf), i + MAX_SUPERSCRIPT)
    run = _RUN.match(buf, i, limit)
    assert run is not None  # (the pattern matches the empty string)
    if not final and run.end() == len(buf) and len(buf) - i < MAX_SUPERSCRIPT:
        return NEED
    m = _SUPERSCRIPT.match(buf, i, limit)
    if m is None or (m.end() < limit and buf[m.end()] in _GOES_ON):
        return None
    written = (m["inner"] or m["bare"]).translate(_TO_ASCII).replace("⁻", "-").replace("˒", ",")
    numbers = expand_numbers(written)
    if not numbers or not all(grammar.is_known_number(n) for n in numbers):
        return None
    return Hit(m.end(), Marker("word", m[0], i, numbers))


def _may_follow(before: str) -> bool:
    """Whether a superscript marker may follow ``before``: punctuation, or a word's three
    letters (two letters or fewer are a unit or a variable: ``km²``, ``x²``)."""
    if not before:
        return False
    if before[-1] in _PUNCTUATION:
        return True
    return len(before) >= LOOKBACK and before[-LOOKBACK:].isalpha()
