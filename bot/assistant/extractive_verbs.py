"""The verbs questions ask with, which a noun phrase of a question can run on into.

A question's noun phrase is read from an article, a possessive or a preposition to the next
stop word (:mod:`bot.assistant.extractive_subjects`), so in "Does the Team plan include phone
support?", whose object has no article, the phrase runs on past its verb: "Team plan include
phone support". A document answers it ("The Team plan comes with phone support.") without
writing "include", so the verb must not be read as what the question asks about. Which word
is the verb is what a compact list of the verbs questions use tells: the phrase's grammar
alone does not (both "phone" and "include" stand between two nouns). The list is matched by
the index's own stem, so "includes", "included" and "including" are "include" too.
"""

from __future__ import annotations

from bot.knowledge.terms import stem

# The verbs a question asks with ("Does … include …?", "Which plans offer …?", "Can the bot
# send …?"), in their plain form; the irregular forms the stemmer does not bring back are
# listed too. A verb that is a noun as well ("support", "export") is read as a noun where a
# noun phrase opens with it ("about the export"), see :func:`is_verb_after`.
_VERBS = """
    include support offer need require allow permit work run cost take have use send show
    handle accept cover mean contain provide let get give come store keep save delete remove
    export import sync connect integrate enable disable add answer reply notify charge renew
    cancel expire reset restore upload download install host
    took taken had has sent ran shown meant kept got gotten gave given came
""".split()  # noqa: SIM905 - a word list reads best as words
VERB_STEMS = frozenset(stem(verb) for verb in _VERBS)


def is_verb_after(word: str) -> bool:
    """Whether ``word`` (lower-cased), standing after the first word of a question's noun
    phrase, is a verb the phrase ran on into ("the Team plan include …") rather than a word
    of the phrase. Only after its first word: right after an article or a preposition a word
    names a thing ("about the export", "for support"), as the opener before it says."""
    return stem(word) in VERB_STEMS
