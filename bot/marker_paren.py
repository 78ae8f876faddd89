"""Parenthesised source words: ``(Source 3)``, ``(sources 1, 3)``, ``(Ref. 2)`` (DESIGN §5).

Models write them where a bracket marker belongs, and the number they show is the registry's,
not the one the reader sees: left as text, they would point at the wrong source. They are also
ordinary prose as often as not, so they are read only in parentheses that hold nothing else and
only when every number names a source of this turn (``Grammar.is_known_number``); anything else
(``(source 3 of 5)``, ``Source: 3``, a number the registry lacks) stays as written. In an
answer from a model told to cite by number (``Grammar.model_cites``) the form alone decides: a
number the registry lacks is the model's invented citation, dropped, never shown.

The word may stand before each number (``(Source 1, Source 3)``, ``(source 1; source 2)``),
read as ``(Sources 1, 3)`` is; and in full-width parentheses a Chinese or Japanese word
(``（来源 3）``, ``（出典：1、2）``), read the same way.
"""

from __future__ import annotations

import re
from typing import Final

from bot.marker_parse import (
    MAX_BRACKET,
    NEED,
    NUM_LIST,
    Grammar,
    Hit,
    Marker,
    Parsed,
    expand_numbers,
)

# the citation words read in parentheses: not "result(s)", which prose uses with numbers
_WORDS = (
    "sources|source|src|references|reference|refs|ref|citations|citation|cite|"
    "documents|document|docs|doc|passages|passage"
)
_WORD_SET: Final = frozenset(_WORDS.split("|"))
_LETTERS = re.compile(r"[A-Za-z]+")
_NUMERIC_PARTIAL = re.compile(r"[\d \t,;&\-–—.andAND]*")  # numbers and ranges, partly written
_ONE = rf"(?:{_WORDS})[ \t]*[:#.]?[ \t]*{NUM_LIST}"
_PAREN = re.compile(
    rf"\([ \t]*(?:{_WORDS})[ \t]*[:#.]?[ \t]*(?P<nums>{NUM_LIST})[ \t]*\)", re.IGNORECASE
)
# "(Source 1, Source 3)": the word again before each number (read without the words)
_PAREN_LIST = re.compile(rf"\([ \t]*{_ONE}(?:[ \t]*[,;][ \t]*{_ONE})+[ \t]*\)", re.IGNORECASE)
_WORD = re.compile(rf"(?:{_WORDS})[ \t]*[:#.]?", re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r"[,;]")
# "（来源 3）", "（出典：1、2）": full-width parentheses, a CJK word for "source", 1-3 digit numbers
_CJK_WORDS = "来源|出处|出處|出典|资料|資料|参考|參考|文献|文獻"
_CJK_NUMBER = r"\d{1,3}"
_CJK_PAREN = re.compile(
    rf"（[ \t　]*(?:{_CJK_WORDS})[ \t　]*[:：#]?[ \t　]*{_CJK_NUMBER}"
    rf"(?:[ \t　]*[,，、;；][ \t　]*(?:(?:{_CJK_WORDS})[ \t　]*[:：]?[ \t　]*)?{_CJK_NUMBER})*"
    r"[ \t　]*）"
)
_CJK_WORD_CHARS = "".join(sorted(set(_CJK_WORDS) - {"|"}))
_CJK_PARTIAL = re.compile(
    rf"[ \t　:：#,，、;；\d{_CJK_WORD_CHARS}]*"
)  # (what may still close as one)
_DIGITS = re.compile(r"\d+")


def parse_paren(buf: str, i: int, final: bool, grammar: Grammar) -> Parsed:
    """``(Source 3)``, ``(sources 1, 3)``, ``(Ref. 2)``: a citation word and registry numbers.

    Only when every number names a registry source (or ``grammar.model_cites``): otherwise,
    and in any other form (``(source 3 of 5)``, ``Source: 3``), it is the writer's text and
    stays as written.
    """
    if buf[i] == "（":
        return _parse_full_width(buf, i, final, grammar)
    close = buf.find(")", i + 1, i + MAX_BRACKET)
    if close < 0:
        tail = buf[i + 1 : i + MAX_BRACKET]
        if final or len(buf) - i >= MAX_BRACKET or "\n" in tail or "(" in tail:
            return None
        return NEED if could_be_paren_body(tail) else None
    m = _PAREN.fullmatch(buf, i, close + 1)
    if m is not None:
        nums = m["nums"]
    elif _PAREN_LIST.fullmatch(buf, i, close + 1) is not None:
        nums = _WORD.sub("", buf[i + 1 : close]).strip(" \t")
    else:
        return None
    numbers = expand_numbers(nums)
    if not numbers:
        return None
    if not grammar.model_cites and not all(grammar.is_known_number(n) for n in numbers):
        return None
    return Hit(close + 1, Marker("word", buf[i : close + 1], i, numbers))


def _parse_full_width(buf: str, i: int, final: bool, grammar: Grammar) -> Parsed:
    """``（来源 3）`` at ``buf[i]``: as ``(Source 3)`` is read, within MAX_BRACKET characters."""
    close = buf.find("）", i + 1, i + MAX_BRACKET)
    if close < 0:
        tail = buf[i + 1 : i + MAX_BRACKET]
        if final or len(buf) - i >= MAX_BRACKET or _CJK_PARTIAL.fullmatch(tail) is None:
            return None
        return NEED
    if _CJK_PAREN.fullmatch(buf, i, close + 1) is None:
        return None
    numbers = tuple(dict.fromkeys(int(digits) for digits in _DIGITS.findall(buf, i, close)))
    if not grammar.model_cites and not all(grammar.is_known_number(n) for n in numbers):
        return None
    return Hit(close + 1, Marker("word", buf[i : close + 1], i, numbers))


def could_be_paren_body(partial: str) -> bool:
    """Whether an unclosed ``(`` body could still become a ``(Source 3)`` marker (errs towards
    yes): a word and numbers, then more numbers or words and numbers after commas."""
    first, *rest = _LIST_SEPARATOR.split(partial)
    return _could_be_one(first) and all(
        _could_be_one(piece) or _NUMERIC_PARTIAL.fullmatch(piece) is not None for piece in rest
    )


def _could_be_one(partial: str) -> bool:
    """Whether ``partial`` could still become a citation word and its numbers."""
    body = partial.lstrip(" \t")
    letters = _LETTERS.match(body)
    if letters is None:
        return not body
    word = letters[0].lower()
    if letters.end() == len(body):
        return any(known.startswith(word) for known in _WORD_SET)
    if word not in _WORD_SET:
        return False
    rest = body[letters.end() :].lstrip(" \t")
    if rest[:1] in (":", "#", "."):
        rest = rest[1:]
    return _NUMERIC_PARTIAL.fullmatch(rest) is not None
