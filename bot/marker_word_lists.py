"""Bracket marker styles of particular models (bot.marker_parse reads them in ``[…]``).

- ``[Source 1, Source 3]``, ``[Document 2; Document 3]`` (Llama): a citation word before each
  number of a group; read as ``[Source 1, 3]``.
- ``[#3]``, ``[#1, #3]``: a hash before each number, only when every number is a source of
  this turn (``#3`` is an issue or a rank as often as a citation; anything else stays text).
- ``[cite_start]`` (Gemini): opens the words a ``[cite: 3]`` after them cites; it names nothing
  and goes, the space before it kept (an ``opener``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, Literal

from bot.marker_numbers import NUM_LIST, WORDS, expand_numbers

_ONE = rf"(?:{WORDS})[ \t]*[:#.]?[ \t]*{NUM_LIST}"
_WORD_LIST = re.compile(rf"[ \t]*{_ONE}(?:[ \t]*[,;][ \t]*{_ONE})+[ \t]*", re.IGNORECASE)
_WORD = re.compile(rf"(?:{WORDS})[ \t]*[:#.]?", re.IGNORECASE)
_HASHES = re.compile(r"[ \t]*#\d{1,3}(?:[ \t]*[,;][ \t]*#\d{1,3})*[ \t]*")
OPENERS: Final = frozenset({"cite_start"})

Style = tuple[Literal["word", "bracket", "opener"], tuple[int, ...]]


def bracket_style(body: str, is_known_number: Callable[[int], bool]) -> Style | None:
    """The family and numbers of a bracket body ``body`` written in one of these styles, or
    None (then the body is none of them)."""
    if body.lower() in OPENERS:
        return "opener", ()
    if _WORD_LIST.fullmatch(body):
        # "Source 1, Source 3" -> "1, 3" (numbers too long name nothing: dropped as unknown)
        return "word", expand_numbers(_WORD.sub("", body).strip(" \t")) or ()
    if _HASHES.fullmatch(body):
        numbers = expand_numbers(body.replace("#", "").strip(" \t"))
        if numbers and all(is_known_number(number) for number in numbers):
            return "bracket", numbers
    return None
