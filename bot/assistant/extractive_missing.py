"""Whether the built-in answerer should say it found nothing: a question of which at most one
word is anywhere the viewer may read (and not every word) is not answered with a loosely related
source. Greetings and the verbs that only carry a question ("made", "taken", "exist") are no
topic."""

from __future__ import annotations

from bot.assistant.extractive_compounds import answer_terms, is_compound, term_key
from bot.assistant.turn import Turn
from bot.knowledge.cjk import has_cjk

# words that greet or thank ("Hi! Slack?"): never what a question is about
COURTESY = frozenset({"hi", "hello", "hey", "thanks", "thank", "please", "sorry", "cheers"})
# Verbs that only carry a question ("How are backups made?", "When are backups taken?", "What
# support comes with the Enterprise plan?"): a document says "Back up the store every night",
# never that backups are "made", so a verb missing from every document must not make a covered
# topic look unanswerable, nor may a heading that writes it ("… where a cited sentence comes
# from?") make a sentence look like an answer. So it is with the words that only ask whether
# something is there ("Which statuses exist?", "Which statuses are available?"): a document lists
# the statuses, it does not say that they "exist" ("there" is a stop word already).
LIGHT_VERBS = frozenset(
    """
    make makes made making done take takes took taken taking got gets getting gotten
    happen happens happened happening come comes came coming
    exist exists existed existing available
    """.split()  # noqa: SIM905 - a word list reads best as words
)


async def asks_what_is_missing(turn: Turn, covered: frozenset[str]) -> bool:
    """Whether at most one of the question's own words, and not all, is anywhere the viewer
    may read (``covered`` by the passages, or held by any passage or record table): "What is
    the meaning of life?" is not answered by a sentence that "means" something. A compound
    counts as its words: a passage that writes "1.4.2" holds three words of "What is new in
    1.4.2?", in their order."""
    own = [
        term
        for term in answer_terms(turn.question)
        if term not in COURTESY and term not in LIGHT_VERBS
    ]
    # a CJK "word" is a cut of a run without spaces, which may span a question word ("多长")
    unsure = [term for term in own if term_key(term) not in covered and not has_cjk(term)]
    total = sum(len(term.split()) for term in own)
    known = total - sum(len(term.split()) for term in unsure)
    for term in unsure:
        if known > 1:
            break
        # a search for a compound also finds its parts ("1.4.2" finds "wait 1 second, then 2"):
        # one that no passage the question found writes is not known
        if not is_compound(term):
            known += await turn.toolbox.holds(term, turn.audience)
    return known <= 1 and known < total
