"""The numbers a citation marker writes: ``2``, ``1, 3``, ``1-3``, ``1 and 4`` (DESIGN §5).

The families of :mod:`bot.marker_parse` (and :mod:`bot.marker_paren`, :mod:`bot.marker_styles`)
share this grammar of numbers and ranges, and the words that may name a source before them.
"""

from __future__ import annotations

import re
from typing import Final

MAX_RANGE = 20
MAX_DIGITS = 9

WORDS: Final = (
    "citations|citation|cite|sources|source|src|references|reference|refs|ref|"
    "documents|document|docs|doc|passages|passage|results|result"
)
_DASH = "-–—"
_NUM_ITEM = rf"\d+(?:[ \t]*[{_DASH}][ \t]*\d+)?"
_NUM_LIST = rf"{_NUM_ITEM}(?:[ \t]*(?:[,;&]|and)[ \t]*{_NUM_ITEM})*"
NUM_LIST: Final = _NUM_LIST  # a list of numbers and ranges, as the families write them

_LIST_SEPARATOR = re.compile(r"[ \t]*(?:[,;&]|and)[ \t]*")
_RANGE_SEPARATOR = re.compile(rf"[{_DASH}]")
_DIGIT_RUN = re.compile(r"\d+")


def expand_numbers(text: str) -> tuple[int, ...] | None:
    """Numbers of a list like ``1, 3-5``; None when a number has more than MAX_DIGITS digits.

    A range expands only when ascending and at most MAX_RANGE long; otherwise both ends count.
    """
    if text.isdigit():
        return (int(text),) if len(text) <= MAX_DIGITS else None
    out: list[int] = []
    for item in _LIST_SEPARATOR.split(text.strip()):
        ends = [part.strip() for part in _RANGE_SEPARATOR.split(item)]
        if any(len(end) > MAX_DIGITS for end in ends):
            return None
        values = [int(end) for end in ends]
        if len(values) == 2 and values[0] < values[1] and values[1] - values[0] < MAX_RANGE:
            values = list(range(values[0], values[1] + 1))
        for value in values:
            if value not in out:
                out.append(value)
    return tuple(out)


def bare_numbers_ok(text: str) -> bool:
    """Whether a bare group's numbers could be registry numbers: 1 to 3 digits, none 0 or
    zero-padded (no source is numbered 0, so "[0, 1]", "a[0]" and "[1,000]" are the reader's)."""
    if text.isdigit():
        return len(text) <= 3 and int(text[0]) != 0
    return all(len(run) <= 3 and int(run[0]) != 0 for run in _DIGIT_RUN.findall(text))
