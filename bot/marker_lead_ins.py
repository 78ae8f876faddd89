"""Lead-in words: what may introduce citations that go whole with their removed markers.

``Fact (see [9]).`` and ``Fact. See also [9].`` both read ``Fact.`` once [9] is removed: the
words only introduced the markers. :func:`lead_opener` finds an opener ``(`` that (a beginning
of) lead-in words follow at a text's end, :func:`sentence_lead` lead-in words that open a
sentence there; the resolver holds such text back until it knows whether a citation follows
(``bot.resolver_text``). Split out of ``bot.marker_lines`` for size.
"""

from __future__ import annotations

from typing import Final

from bot.marker_lines import bare_prefix, space_start

# Words that introduce the citations of a parenthesised group: "(see [9])" is a group of
# citations like "([9])", and goes whole when its markers are removed ("Fact (see [9])." ->
# "Fact."). Lower case, one space between words; a ":" or "," may follow ("(source: [9])").
LEAD_INS: Final = frozenset(
    (
        "see", "see also", "see e.g.", "e.g.", "cf", "cf.", "compare", "via", "per",
        "source", "sources", "src", "ref", "ref.", "refs", "refs.", "reference", "references",
        "citation", "citations",
        "siehe", "siehe auch", "vgl", "vgl.", "voir", "voir aussi", "véase", "vedi", "zie",
        "for more, see", "for more details, see", "for details, see", "more details in",
    )
)  # fmt: skip
MAX_LEAD_IN: Final = 24
"""How far back from a text's end an opener is looked for (its lead-in words are shorter)."""
_LEAD_CHARS = "".join(LEAD_INS)
LEAD_LAST: Final = frozenset(_LEAD_CHARS + _LEAD_CHARS.upper() + ":,") - {" "}
"""What text ending in (a beginning of) lead-in words can end with."""


def lead_opener(text: str) -> int:
    """Where an opener begins that only (a beginning of) lead-in words follow, else -1."""
    tail = text[-MAX_LEAD_IN:]  # asked for most text before a marker: one slice, two scans
    if "(" not in tail and "（" not in tail:
        return -1
    at = max(tail.rfind("("), tail.rfind("（"))
    if at == len(tail) - 1:
        return -1
    after = tail[at + 1 :]
    if "\n" in after or "\r" in after:
        return -1  # a line break after an opener makes it the writer's text (as in the stream)
    words = " ".join(after.lower().split())
    if not words:
        return -1
    if words in _BEGUN or is_lead_in(words):
        return len(text) - len(tail) + at
    return -1


def ends_in_lead_in(text: str) -> bool:
    """Whether ``text`` ends with an opener and (a beginning of) lead-in words, or with such
    words that open a sentence (``sentence_lead``; at its start, ``text`` may open one)."""
    # a cheap test first: most text before a marker has no opener near its end
    opener = text.rfind("(", -MAX_LEAD_IN) >= 0 or text.rfind("（", -MAX_LEAD_IN) >= 0
    return (opener and lead_opener(text) >= 0) or sentence_lead(text, None) >= 0


# what ends the sentence before one that lead-in words open ("Fact. See also [9].")
SENTENCE_ENDS: Final = frozenset(".!?。！？")
MAX_SENTENCE_LEAD: Final = 32
# every beginning of a lead-in ("see al"), with the ":" or "," that may end a whole one
_BEGUN: Final = frozenset(
    lead[:k] for lead in LEAD_INS for k in range(1, len(lead) + 1) if lead[k - 1] != " "
) | frozenset(lead + p for lead in LEAD_INS for p in (":", ",", " :", " ,"))
# the whole last words of each of them ("al", "see al", "more,"): words at a text's end that
# are none of these end no lead-in, however many words before them are read too
_BEGUN_TAILS: Final = frozenset(
    " ".join(words[k:])
    for words in (begun.split(" ") for begun in _BEGUN)
    for k in range(len(words))
)
# their last words alone: most text ends in none of them, decided by one look-up
_WORD_STARTS: Final = frozenset(begun.rsplit(" ", 1)[-1] for begun in _BEGUN)


def sentence_lead(text: str, before: str | None) -> int:
    """Where lead-in words begin that open a sentence and end ``text`` (or their beginning
    does: ``"Fact. See al"``), else -1.

    A sentence opens at the start of a line (after a list item's marker, quote arrows or a
    heading's hashes too) or after ``.``, ``!`` or ``?`` and a space. ``before`` is the end
    of what was written before ``text``, led by a line break when it is all of it; None when
    unknown, which counts as a sentence start (the caller then holds the words until it knows).
    """
    # the usual case first, in few steps: the last word begins no lead-in's word
    space = text.rfind(" ", -MAX_SENTENCE_LEAD)
    word = text[space + 1 :] if space >= 0 else text[-MAX_SENTENCE_LEAD:]
    if word.lower() not in _WORD_STARTS and (
        not ("\n" in word or "\t" in word or "\r" in word)
        or word[_word_start(word, len(word)) :].lower() not in _WORD_STARTS
    ):
        return -1
    tail = text[-MAX_SENTENCE_LEAD:]
    begin = _word_start(tail, len(tail))
    base = len(text) - len(tail)
    for _ in range(4):  # a lead-in has at most 4 words
        if begin == 0 and base > 0 and not text[base - 1].isspace():
            return -1  # the word began before the tail: too long for a lead-in
        words = " ".join(tail[begin:].lower().split())
        if words not in _BEGUN_TAILS:
            return -1  # no lead-in has these words: more words before them make none either
        if words in _BEGUN and _opens_sentence(text, base + begin, before):
            return base + begin
        end = space_start(tail, begin)
        if end == 0 or "\n" in tail[end:begin] or "\r" in tail[end:begin]:
            return -1
        begin = _word_start(tail, end)
    return -1


def _word_start(text: str, end: int) -> int:
    """Where the word that ends at ``end`` begins (after the last space or line break)."""
    return 1 + max(
        text.rfind(" ", 0, end),
        text.rfind("\t", 0, end),
        text.rfind("\n", 0, end),
        text.rfind("\r", 0, end),
    )


def _opens_sentence(text: str, at: int, before: str | None) -> bool:
    """Whether ``text[at]`` begins a sentence (see ``sentence_lead``)."""
    end = space_start(text, at)
    if "\n" in text[end:at] or "\r" in text[end:at]:
        return True
    if end and text[end - 1] in SENTENCE_ENDS:
        return end < at
    line = text.rfind("\n", 0, end) + 1
    if line or (end and before is None):
        return bare_prefix(text, line, end) in ("block", "heading")
    if before is None:
        return True  # the text's start, and nothing known before it
    # the line began before the text: read with what was written before it ("" when that is
    # known to be nothing more, as in a window of a line longer than it)
    return bool(before) and _opens_sentence(before + text[:at], len(before) + at, "")


def is_lead_in(words: str) -> bool:
    """Whether ``words`` (after an opener) are whole lead-in words, not just their beginning."""
    core = " ".join(words.lower().split())
    return core in LEAD_INS or (core[-1:] in (":", ",") and core[:-1].rstrip() in LEAD_INS)
