"""An amount asked for ("How much …?", "How many …?") that the answer's sentences do not state.

"How much do warehouse operators earn?", asked by someone who may not read the salary bands,
was answered with the opening of a forklift manual ("… used in all Northwind warehouses"), and
"How much do shift leads earn?" with "Overtime must be approved … by your shift lead": the
sentences hold the question's other words, but nothing the viewer may read holds "earn", and
neither states an amount. Such sentences are not quoted (:func:`lacks_the_amount`) when all
three hold: the question asks how much or how many; a word of it is anywhere the viewer may
read neither in the passages found nor in any other (what it asks the amount of, as far as the
documents can tell); and no sentence writes a number ("34,000", "05:30", "3.11", "two",
"free", "unlimited"; a name with digits such as "FL-200" is no number). A word the documents
write otherwise ("spend" where they say "Limit per day: 45 EUR") leaves an answer that states
an amount, and an answer to a question that asks no amount needs no number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.assistant.extractive_candidates import Candidate
from bot.assistant.extractive_compounds import is_compound, term_key
from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.assistant.turn import Turn

# "How much …?", "How many …?", also after a greeting ("Hi, how much …?")
_AMOUNT = re.compile(r"\bhow\s+(?:much|many)\b", re.I)
# a run of characters with a digit in it: a number unless a letter opens it ("FL-200", "v2")
_DIGITS = re.compile(r"[\w.,:/’'-]*\d[\w.,:/’'-]*")
_NUMBER_WORDS = frozenset(
    """
    one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty
    fifty sixty hundred thousand million billion dozen half once twice free unlimited
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_WORD = re.compile(r"[A-Za-z]+")


def asks_an_amount(question: str) -> bool:
    """Whether ``question`` asks how much or how many."""
    return bool(_AMOUNT.search(question))


def states_an_amount(sentence: str) -> bool:
    """Whether ``sentence`` writes a number: digits that no letter opens, or a number word."""
    if any(not token[0].isalpha() for token in _DIGITS.findall(sentence)):
        return True
    return any(word.lower() in _NUMBER_WORDS for word in _WORD.findall(sentence))


async def lacks_the_amount(
    turn: Turn, asked: Sequence[str], chosen: Sequence[Candidate], explained: frozenset[str]
) -> bool:
    """Whether the ``chosen`` sentences leave out the amount ``turn``'s question asks for, of
    a word nothing the viewer may read holds: the question asks how much or how many, none of
    them states an amount (:func:`states_an_amount`), and one of its words (``asked``; a
    greeting or a verb that only carries the question aside) is neither among the words the
    passages hold (``explained``) nor anywhere else the viewer may read."""
    if not chosen or not asks_an_amount(turn.question):
        return False
    if any(states_an_amount(c.text) for c in chosen):
        return False
    for term in asked:
        if term in COURTESY or term in LIGHT_VERBS or term_key(term) in explained:
            continue
        # a search for a compound also finds its parts: one no passage found writes is unknown
        if is_compound(term) or not await turn.toolbox.holds(term, turn.audience):
            return True
    return False
