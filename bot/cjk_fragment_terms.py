"""Start and end terms for the text fragment of a CJK quote, cut where a browser sees a word end.

A text fragment's start term must end, and its end term start, at a word boundary once both
are given (https://wicg.github.io/scroll-to-text-fragment/). Chromium finds Chinese and
Japanese word boundaries with ICU's dictionary: ``設定ファイルは必`` ends inside ``必ず`` and
matches nowhere, and neither kanji↔kana (okurigana: ``必|ず``) nor kana↔kanji (a prefix:
``お|客様``) is a safe place to cut. Without a dictionary, a cut is certain only

- next to a space, or next to punctuation between clauses (``、。，；：！？「」（）`` …), unless
  that mark joins two Latin letters or digits (``3,000`` is one word);
- where Han or kana meets a letter, digit or mark of another script (``設定は|config``): the
  Unicode word rules break there before any dictionary is asked.

The terms are whole clauses when they fit (the first clause, the last clause), else shorter
ones ending (or starting) at such a cut inside that clause.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Kana and Han: the scripts a browser segments by dictionary (Hangul has spaces between words).
_DICTIONARY_SCRIPT = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Punctuation between clauses, and brackets (a cut, but no clause end: 「設定」画面を開き、…);
# ASCII ones count too (a CJK text may use them).
_CLAUSE_MARKS = frozenset("、。，；：！？,;:!?")
_MARKS = _CLAUSE_MARKS | frozenset("「」『』（）【】〔〕《》〈〉()")
# Marks the word rules keep inside a word between two letters or digits ("3,000", "a:b").
_JOINING_MARKS = frozenset(",;:，；：")
# Below this code point no character is CJK (ideographic marks such as 々 and ー lie above it).
_CJK_START = 0x2E80


def _is_break(char: str) -> bool:
    """A space or a mark between clauses: where a clause ends."""
    return char.isspace() or char in _CLAUSE_MARKS


def _joins(text: str, index: int) -> bool:
    """True when the mark at ``index`` sits inside a word: between two non-CJK letters or digits."""
    if text[index] not in _JOINING_MARKS or index == 0 or index + 1 >= len(text):
        return False
    before, after = text[index - 1], text[index + 1]
    return all(c.isalnum() and not _DICTIONARY_SCRIPT.match(c) for c in (before, after))


def _other_script(char: str) -> bool:
    """A character that is neither CJK nor attached to the one before (a combining mark)."""
    if ord(char) >= _CJK_START or char.isspace():
        return False
    return unicodedata.category(char) not in ("Mn", "Me", "Cf")


def is_cut(text: str, index: int) -> bool:
    """True when a browser sees a word boundary between ``text[index - 1]`` and ``text[index]``."""
    before, after = text[index - 1], text[index]
    if before.isspace() or after.isspace():
        return True
    if before in _MARKS or after in _MARKS:
        mark = index - 1 if before in _MARKS else index
        return not _joins(text, mark)
    if _DICTIONARY_SCRIPT.match(before):
        return _other_script(after)
    return _DICTIONARY_SCRIPT.match(after) is not None and _other_script(before)


def terms(text: str, fits: Callable[[str, str], bool], longest: int) -> tuple[str, str] | None:
    """The ``(start, end)`` terms for ``text`` that ``fits`` accepts, or None: the longest end
    term, and with it the longest start term, of the first clause and the last clause, or of
    shorter ones cut inside them (:func:`is_cut`). Each term holds a letter or digit; the end
    term starts after the start term ends and is not found between the two (the browser takes
    its first match after the start term). ``fits`` accepts no term of more than ``longest``
    characters: longer ones are not tried."""
    words = [i for i, char in enumerate(text) if char.isalnum()]
    if not words:
        return None
    cuts = [i for i in range(words[0] + 1, words[-1] + 1) if is_cut(text, i)]
    clause_ends = [i for i in cuts if _is_break(text[i]) and not _joins(text, i)]
    clause_starts = [i for i in cuts if _is_break(text[i - 1]) and not _joins(text, i - 1)]
    first_end = clause_ends[0] if clause_ends else len(text)
    last_start = clause_starts[-1] if clause_starts else 0
    # (bounding the terms' length keeps a long quote from costing time squared)
    heads = [i for i in reversed(cuts) if i <= min(first_end, words[0] + longest)]
    tail_end = len(text.rstrip())
    for tail_at in (i for i in cuts if i >= max(last_start, words[-1] + 1 - longest)):
        end = text[tail_at:].strip()
        end_at = tail_end - len(end)
        earlier = text.rfind(end, 0, end_at + len(end) - 1)
        usable = [i for i in heads if earlier < i <= tail_at]
        # the shortest start term decides whether any fits with this end term
        if not usable or not fits(text[: usable[-1]].strip(), end):
            continue
        for head_at in usable:
            start = text[:head_at].strip()
            if fits(start, end):
                return start, end
    return None
