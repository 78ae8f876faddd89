"""A question about a thing nothing the viewer may read names, written in lower case.

"how much does the gold plan cost?" was answered with all five plans, "What is the file content
about llamas?" with the Discord set-up steps, and "What is the rotation code in section
zebraunicorn?" with the rotation code of another section: the question's other words ("plan",
"cost", "file", "content", "code", "section") found passages, while the word that says what it
asks about was nowhere. Capitalised, the same word is a name, and
:func:`bot.assistant.extractive_unconfirmed.names_the_unknown` already finds nothing for it.

:func:`asks_about_the_unknown` does the same for the question's subject words in any case: in a
sentence that asks yes or no or for a fact (as that rule reads it: not a how-to, which is
answered with what holds wherever it names), a word of a noun phrase (after an article, a
possessive or a preposition: "the gold plan", "about llamas"; not the verb that ends "… does
the gold plan cost?" or that the phrase runs on into, "Does the Team plan include phone
support?" (:mod:`bot.assistant.extractive_verbs`), nor a word outside one, most often a verb:
"when Slack returns 429")
that is no stop word, no greeting, no verb that only carries a question, no word that only
shapes a question ("difference", "best", "possible") and no generic term ("file", "content",
"plan", "section", "code") must be held by a passage the question found or by anything else
the viewer may read. The search that tells
is the index's own, which stems ("downloads" finds "download", "installing" "install", and
"instal", Porter's stem of both, finds them too), so an inflected word is held as its
document writes it. Numbers, compounds ("1.4.2", "config.yaml") and CJK words are left to the
other rules.
"""

from __future__ import annotations

from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.assistant.extractive_unconfirmed import asking_sentences
from bot.assistant.extractive_verbs import is_verb_after
from bot.assistant.turn import Turn
from bot.knowledge.cjk import has_cjk
from bot.knowledge.terms import STOP_WORDS, words

# Words that shape a question rather than say what it is about ("What is the difference
# between …?", "Is it possible to …?", "What is the best way to …?"): a document answers them
# without writing them.
QUESTION_WORDS = frozenset(
    """
    difference differences different compare comparison versus vs possible impossible best
    better good way ways kind kinds type types sort sorts recommended recommend suggested
    maximum minimum max min default purpose example examples step steps requirement
    requirements required require option options feature features information info detail
    details thing things something anything anyone someone everyone everybody anybody people
    idea reason reasons problem problems issue issues question questions help work works
    working current currently latest exactly actually really usually typically normally right
    correct proper properly wrong ok okay yes list name names number numbers amount total count
    much many long often far old big large soon else there here new mean means
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# Terms so general that many documents hold them and none is named by them alone: a question's
# "plan" or "section" says of what kind its subject is, not which ("the gold plan").
GENERIC_TERMS = frozenset(
    """
    file files content contents plan plans section sections code codes page pages document
    documents doc docs item items entry entries record records row rows table tables value
    values field fields topic topics part parts category categories text data
    """.split()  # noqa: SIM905 - a word list reads best as words
)
_SKIPPED = STOP_WORDS | COURTESY | LIGHT_VERBS | QUESTION_WORDS | GENERIC_TERMS


# Words after which a noun phrase begins ("the gold plan", "about llamas", "in section …"):
# a question's subject is named there, while a word outside one is most often a verb ("What
# happens when Slack returns 429?", where the documents say "answers").
_OPENERS = frozenset(
    """
    the a an this that these those my your our their its his her each every any some what which
    whose about of in on for with from at by into onto within without between under over via
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# the helping verbs of a question whose last word is its verb ("How much does the plan cost?")
_DO = frozenset("do does did can could will would should shall may might must".split())  # noqa: SIM905
# words that end a noun phrase without opening one: "per seat" names a unit, not the subject
_ENDERS = frozenset({"per", "vs", "versus"})


def subject_words(question: str) -> list[str]:
    """The subject words of the sentences of ``question`` that ask yes or no or for a fact, in
    order, lower-cased: the plain words of three letters or more in a noun phrase (after an
    article, a possessive or a preposition: :data:`_OPENERS`) but the skipped kinds (stop
    words, greetings, verbs that only carry a question, question-shaping words, generic terms),
    numbers and CJK; and not the verbs a phrase runs on into ("Does the Team plan include phone
    support?") nor the last word of a question asked with "do" that has none of those ("… does
    the gold plan cost?"), which is its verb."""
    found: dict[str, None] = {}
    for tokens in asking_sentences(question):
        for phrase in _phrases(tokens):
            for token in phrase:
                parts = words(token)
                if len(parts) != 1 or has_cjk(token):
                    continue  # a compound ("config.yaml", "retry-after") or a CJK run
                plain = parts[0].removesuffix("'s")
                if len(plain) >= 3 and plain.isalpha() and plain not in _SKIPPED:
                    found.setdefault(plain, None)
    return list(found)


def _phrases(tokens: list[str]) -> list[list[str]]:
    """The noun phrases of a question's words: the runs of words that are no stop word after
    an opener (:data:`_OPENERS`), up to the next stop word or opener, without the verbs they
    run on into (:func:`_without_verbs`)."""
    lowered = [t.lower() for t in tokens]
    helper = next((i for i, t in enumerate(lowered[:3]) if t in _DO), None)
    verb_at = -1 if helper is None else helper + 1  # where a phrase holding the verb opens
    phrases: list[list[str]] = []
    current: list[str] | None = None
    start = -1
    for i, word in enumerate([*lowered, "."]):
        closing = word in _OPENERS or word in STOP_WORDS or word in _ENDERS or word == "."
        if closing and current is not None:
            phrases.append(_without_verbs(current, asked_with_do=start == verb_at))
            current = None
        if word in _OPENERS:
            current, start = [], i
        elif not closing and current is not None:
            current.append(tokens[i])
    return phrases


def _without_verbs(phrase: list[str], *, asked_with_do: bool) -> list[str]:
    """``phrase`` without the verbs it ran on into (:func:`is_verb_after`: "the Team plan
    include phone support" is "Team plan", "phone"); the phrase right after the "do" of a
    question (``asked_with_do``) whose verb is none the list knows ends with it, so its last
    word goes ("… does the gold plan cost?")."""
    kept = [phrase[0], *(t for t in phrase[1:] if not is_verb_after(t.lower()))] if phrase else []
    return kept[:-1] if asked_with_do and len(kept) == len(phrase) else kept


async def asks_about_the_unknown(turn: Turn, explained: frozenset[str]) -> bool:
    """Whether ``turn``'s question asks yes or no, or for a fact, about a subject word
    (:func:`subject_words`) that no passage it found holds (its stem not in ``explained``) and
    nothing else the viewer may read holds either (no passage a search for it finds, no
    visible record table names or holds it)."""
    for word in subject_words(turn.question):
        if word_key(word) in explained:
            continue
        if not await turn.toolbox.holds(word, turn.audience):
            return True
    return False
