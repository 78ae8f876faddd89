"""Words of a question or a passage: tokens, stop words and their stems.

The FTS5 index stems with its own Porter tokenizer; this module builds the MATCH expression
from a free-text question (each word also in the forms Porter reads apart but our stemmer does
not, :mod:`bot.knowledge.word_forms`) and gives the extractive backend the same notion of "a
term".
Chinese, Japanese and Korean runs, which have no spaces between words, become overlapping
bigrams (:mod:`bot.knowledge.cjk`); text without them is read exactly as before. The stemmer
the answerer compares words by is :func:`bot.knowledge.stemmer.stem`.
"""

from __future__ import annotations

import re
import unicodedata

from bot.knowledge.cjk import (
    CJK_RUN,
    cjk_terms,
    fts_phrase,
    has_cjk,
    has_kana,
    is_cjk_term,
    is_function_term,
    normalize_cjk,
    split_mixed,
)
from bot.knowledge.stemmer import stem as stem
from bot.knowledge.stemmer import strip_possessive
from bot.knowledge.word_forms import query_forms

# Scripts written without spaces between words: Thai, Lao, Myanmar (and its extensions),
# Khmer, Tai Tham.
_UNSPACED = (
    (0x0E00, 0x0EFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x1A20, 0x1AAF),
    (0xA9E0, 0xA9FF),
    (0xAA60, 0xAA7F),
)


def _mark_class(planes: range) -> str:
    """The combining marks (Unicode Mn, Mc, Me) of ``planes`` as the ranges of a regex class.

    Python's ``\\w`` holds no mark, so Hindi, Bengali or Tamil words were cut at every
    vowel sign ("सूचकांक" read as "स", "चक", "क"). Marks are in the first two planes and the
    variation selectors of plane 14 only (planes 2 and 3 hold ideographs, the rest nothing or
    private use), so only those are read: under half the time of every code point, at import.

    Left out are the marks of Thai, Lao, Myanmar, Khmer and Tai Tham, written without spaces
    between words: a whole run kept as one word would be searched as one phrase, which a
    question's run ("when is the index built") is never written as; cut at its marks, as the
    index's ``unicode61`` tokens are, its pieces still find the passage.
    """
    ranges: list[tuple[int, int]] = []
    for code in planes:
        if unicodedata.category(chr(code))[0] != "M" or any(a <= code <= b for a, b in _UNSPACED):
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)


# Two classes: one of the first plane only compiles to a table looked up at once, one that also
# holds other planes to a list of ranges tried one by one, 300 times as slow (Python's re).
_BMP_MARKS = _mark_class(range(0x10000))
_OTHER_MARKS = _mark_class(range(0x10000, 0x20000)) + _mark_class(range(0xE0000, 0xF0000))
# A word starts with a letter or digit and goes on through letters, digits and combining marks
# (possessive: nothing to try again when the word ends).
_LETTERS = rf"[^\W_](?:[^\W_]++|[{_BMP_MARKS}]++|[{_OTHER_MARKS}]++)*+"
_WORD = re.compile(rf"{_LETTERS}(?:['’]{_LETTERS})?")
# Text with no mark (ASCII, most Latin, Greek, Cyrillic text) gives the same words by the plain
# pattern, quicker than the alternation above; a mark outside the first plane is only in text
# that has some character there.
_PLAIN_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_MAY_MARK = re.compile(f"[{_BMP_MARKS}\\U00010000-\\U0010ffff]")


def _word_pattern(text: str) -> re.Pattern[str]:
    return _WORD if _MAY_MARK.search(text) is not None else _PLAIN_WORD


# Letters and digits joined by ".", "_", "-" or "/" with no space between: a version ("2.4.1"),
# a file, key or flag name ("config.yaml", "chunk_chars"), a hyphenated term ("Retry-After"),
# and a number with thousands separators ("1,000.5"; elsewhere a comma separates a list).
_JOIN = r"(?:[._/-]|(?<=\d),(?=\d))"
# Possessive runs that start at a word's start: a long word with no joiner is passed over in
# one step (a backtracking "[^\W_]+" tried every shorter run at every start, quadratic: a
# question that was one 10,000-letter word took seconds).
_COMPOUND = re.compile(
    rf"(?<![^\W_])(?<![{_BMP_MARKS}{_OTHER_MARKS}]){_LETTERS}(?:{_JOIN}{_LETTERS})+"
)
# the same for text without a mark (:func:`_word_pattern`), quicker
_PLAIN_COMPOUND = re.compile(rf"(?<![^\W_])[^\W_]++(?:{_JOIN}[^\W_]++)+")
_JOINERS = re.compile(_JOIN)
_MAX_COMPOUND_WORDS = 8
_MAX_COMPOUNDS = 32

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    tell please explain describe give show need want use using get s t also may might must shall
    """.split()  # noqa: SIM905 - a word list reads best as words
)

# "How long do links last?" asks for a duration, not about length: after "how" these words
# only shape the question.
_HOW_MODIFIERS = frozenset({"long", "many", "much", "often", "far", "soon"})


def _lowered(word: str) -> str:
    """``word`` in lower case, Turkish "İ" read as "i" as the index's tokens read it.

    ``"İstanbul".lower()`` is "i" + U+0307 (a combining dot above, kept so the letter can be
    upper-cased again). The index's ``unicode61`` tokens drop the dot, so "istanbul" found the
    passage, but the answerer, comparing these words, met no word of the question in it.
    """
    lowered = word.lower()
    return lowered.replace("i\u0307", "i") if "\u0307" in lowered else lowered


def words(text: str) -> list[str]:
    """Lower-cased words of ``text`` (letters and digits, and the combining marks after them:
    "सूचकांक" is one word; apostrophes inside words kept).

    A run of CJK characters gives its bigrams instead ("東京タワー": "東京", "京タ" …, see
    :func:`bot.knowledge.cjk.cjk_terms`), also inside a word ("citecastの": "citecast", "の").
    """
    if text.isascii():
        return [m.group(0).lower() for m in _PLAIN_WORD.finditer(text)]
    if not has_cjk(text):
        found = _word_pattern(text).finditer(text)
        return [_lowered(m.group(0)).replace("’", "'") for m in found]
    text = normalize_cjk(text)
    out: list[str] = []
    for match in _word_pattern(text).finditer(text):
        for piece in split_mixed(match.group(0)):
            if is_cjk_term(piece):
                out.extend(cjk_terms(piece))
            else:
                out.append(_lowered(piece).replace("’", "'"))
    return out


def query_terms(text: str) -> list[str]:
    """The distinct significant words of a question, in order (stop words removed, the word
    after "how" in "how long", "how much", "how many" …, and the "work" that ends "how does
    … work?").

    CJK terms are kept when one character long ("水"), unlike one-letter words; those that
    only shape the question (particles, endings, question words: see
    :func:`bot.knowledge.cjk.is_function_term`) only when the question has no other term.
    """
    seen: dict[str, None] = {}
    function_terms: dict[str, None] = {}
    japanese = has_kana(text)
    previous = ""
    found = words(text)
    if len(found) > 2 and found[0] == "how" and found[-1] in ("work", "works"):
        # "How do audiences work?" asks about audiences; searching "work" would find any
        # sentence saying something "works"
        found = found[:-1]
    for word in found:
        after_how = previous == "how" and word in _HOW_MODIFIERS
        previous = word
        if is_cjk_term(word):
            kept = function_terms if is_function_term(word, japanese) else seen
            kept.setdefault(word, None)
            continue
        # The index reads "document's" as "document" and "s": searched as it is, the phrase
        # would miss every passage that writes only "document". "it's", "what's" are stop words.
        word = strip_possessive(word)
        if after_how or word in STOP_WORDS or (len(word) < 2 and not word.isdigit()):
            continue
        seen.setdefault(word, None)
    return list(seen or function_terms)


def compound_terms(text: str) -> list[str]:
    """The compounds of a question, each as its words joined by one space, in order:
    "What changed in 2.4.1?" gives ``["2 4 1"]``, "set index.chunk_chars" ``["index chunk
    chars"]``.

    The index, like :func:`words`, splits "2.4.1" into "2", "4" and "1", which "1.4.2" has too;
    searched as a phrase, a compound finds the passage that writes it. Compounds of stop words
    and single letters only ("e.g.", "to-do") say nothing and are left out, as are those of
    more than eight words; CJK runs are not part of any.
    """
    if has_cjk(text):
        text = CJK_RUN.sub(" ", text)
    found: dict[str, None] = {}
    compound = _COMPOUND if _MAY_MARK.search(text) is not None else _PLAIN_COMPOUND
    for match in compound.finditer(text):
        parts = _JOINERS.split(_lowered(match.group(0)))
        if len(parts) > _MAX_COMPOUND_WORDS:
            continue
        if any(p.isdigit() or (len(p) > 1 and p not in STOP_WORDS) for p in parts):
            found.setdefault(" ".join(parts), None)
            if len(found) == _MAX_COMPOUNDS:  # a search reads no more terms than that
                break
    return list(found)


def fts_query(text: str) -> str | None:
    """An FTS5 MATCH expression that ORs the question's terms (each quoted), or None if empty.

    Quoting every term makes any user input safe: FTS5 operators and column filters typed by a
    user are searched as plain words, never interpreted. A CJK term is one token ("東京"), as
    the index holds each CJK character and bigram as a token (``fts_text``). A word is also
    searched in the forms that FTS5's Porter tokenizer reads as other words, but our stemmer
    as the same (``statuses`` also as ``status``: :func:`bot.knowledge.word_forms.search_forms`).
    """
    terms = query_terms(text)
    if not terms:
        return None
    forms = query_forms(terms[:32])
    return " OR ".join(fts_phrase(form) for _, found in forms for form in found)
