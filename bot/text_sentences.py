"""Grounding's sentence ends of other scripts, taken from the knowledge reader's definition.

Grounding has always ended a sentence at ``.``, ``!`` or ``?`` before whitespace, whatever
follows (a claim or passage sentence may open with a lower-case command name, or a code span),
and at the CJK ``。！？``. The knowledge reader and the built-in answerer also end one at the
Hindi danda ``।``, the Arabic question mark ``؟``, the Urdu ``۔`` (and the other full stops of
:data:`bot.sentence_rules.FULL_STOPS`), a Greek ``;`` between Greek words, and after closing
quotes ``”’»`` (:mod:`bot.knowledge.sentence_ends`), never after ``Dr.``, an initial or a date's
ordinal (``am 3. Oktober``). :func:`script_cuts` adds those
ends to grounding's own, so an answer's Hindi claim is judged against its own sentence and a
passage's quote is one sentence. The knowledge module's cuts alone do not fit grounding: they
end a sentence only before a capital, a caseless letter or a digit, and grounding's ends before
a lower-case word or a code span (``stored. `index.path` sets``) would be lost.
"""

from __future__ import annotations

from bot.knowledge.sentence_ends import sentence_cuts

# Grounding ends CJK sentences its own way (half-width ``｡``, closers such as ``〕】``), so the
# knowledge module's CJK cuts are left out: both at once would cut a closer off its sentence.
_CJK_MARKS = "。！？"
_CLOSERS = "\"'”’»)]*_」』）"


def script_cuts(text: str) -> list[tuple[int, int]]:
    """``(end, start)`` of each sentence end of ``text`` that grounding's ``.!?`` and CJK rules
    miss or place elsewhere: the sentence ends at ``end`` (its mark and closing quotes kept),
    the next starts at ``start``. Empty for ASCII text, which those rules read alone (and as
    fast as before)."""
    if text.isascii():
        return []
    out: list[tuple[int, int]] = []
    for end, start in sentence_cuts(text):
        mark = end - 1
        while mark > 0 and text[mark] in _CLOSERS:
            mark -= 1
        if text[mark] not in _CJK_MARKS:
            out.append((end, start))
    return out
