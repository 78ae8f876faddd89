"""Questions the built-in answerer's sentences would seem to answer, but do not.

Two rules, beside :mod:`bot.assistant.extractive_missing` (a question of which at most one word
is anywhere the viewer may read is not answered):

- A yes/no question about a thing it names ("Does citecast run on Windows?", "Is there a
  Docker image?") cannot be confirmed or denied by documents that never name it: "citecast
  runs as one process" says nothing about Windows (:func:`names_the_unknown`). So it is with
  a question asking what, which, who, when, where, why, whose or how much (many, long, often
  …) about a name: "When does the Frankfurt office open?" is not answered by when the car park
  opens, nor "Who manages the Berlin warehouse?" by the list of other warehouses, where nothing
  names Frankfurt or Berlin. A name is a word written with a capital letter after the first
  word of its sentence, or in capitals ("SAML"). A how-to question is held to the next rule
  only: "How do I install citecast on a Raspberry Pi?" is answered with the install steps,
  which are the same there.
- An answer whose sentences write no word of the question themselves, quoted for a heading
  that names one, to a question that names what no passage holds, must rest on more than that
  word (:func:`rests_on_one_word`): their passages, with their headings, must hold two of the
  question's words (or its only one). "How do I configure SAML single sign-on?" is not
  answered by the sentences of a "Configuration" section that say nothing else of it, though
  another page says "a single SQLite file"; "How do I configure citecast?" is (every word of
  it is in a passage), and so is "What time do backups run?" by "Back up the store every
  night" under "Backups", whose passage says "while citecast runs".
- An answer quoted from passages that each hold (with their headings) one word of the question
  alone, to a question that names what no passage holds, answers nothing
  (:func:`one_word_each`): "General chat: Hello everyone, this is a general topic." (a forum
  topic's title and first post, no question) is not answered by a sentence about "@everyone"
  pings and another about embedding the web chat, though each writes a word of it. A question
  whose words one passage holds together ("How do I install Beacon on a Raspberry Pi?": the
  install steps name Beacon) is answered as before.

Greetings and the verbs that only carry a question ("made", "comes") are no words of the
question here; a compound ("1.4.2") counts as its words, as in
:func:`bot.assistant.extractive_missing.asks_what_is_missing`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.assistant.extractive_candidates import Candidate, held_words
from bot.assistant.extractive_compounds import term_key
from bot.assistant.extractive_missing import COURTESY, LIGHT_VERBS
from bot.assistant.turn import Turn
from bot.knowledge.terms import STOP_WORDS, words

# the words a yes/no question opens with ("Does …?", "Can I …?", "Is there …?")
_YES_NO = frozenset(
    """
    do does did is are was were can could will would should shall has have had may might must
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# the words a question about a fact opens with ("When does …?", "Who manages …?")
_WH = frozenset(["what", "which", "who", "whom", "whose", "when", "where", "why"])
# "how" with these asks for a fact ("How much …?"); "How do I …?" asks for steps
_HOW_FACT = frozenset(["much", "many", "long", "often", "far", "old", "big", "large", "soon"])
# one sentence of the question, with the mark that ends it
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
_WORD = re.compile(r"[\w][\w'’-]*")
# capitalised words that name nothing ("Is it OK to …?")
_NO_NAMES = frozenset({"ok", "okay"})


def asking_sentences(question: str) -> list[list[str]]:
    """The words (as written) of the sentences of ``question`` that ask yes or no, or for a
    fact (:func:`_asks_a_fact`), each without a greeting before it; not a how-to ("How do I
    …?"), nor a sentence that does not end with a question mark."""
    asking: list[list[str]] = []
    for match in _SENTENCE.finditer(question):
        sentence = match.group(0).strip()
        tokens = _WORD.findall(sentence)
        # a greeting before the question ("Hi, does …?") does not make it a statement
        while tokens and tokens[0].lower() in COURTESY:
            tokens = tokens[1:]
        if not sentence.endswith("?") or not tokens:
            continue
        if tokens[0].lower() in _YES_NO or _asks_a_fact(tokens):
            asking.append(tokens)
    return asking


def _asked_names(question: str) -> list[str]:
    """The names written in the questions among the sentences of ``question`` that ask yes or
    no, or for a fact (:func:`asking_sentences`)."""
    return [t for tokens in asking_sentences(question) for t in tokens[1:] if _is_name(t)]


def _asks_a_fact(tokens: Sequence[str]) -> bool:
    """Whether a question (its words ``tokens``) asks what, which, who, when, where, why or
    how much (many, long, …): the fact it asks about a name nothing holds is not there."""
    first = tokens[0].lower()
    return first in _WH or (first == "how" and len(tokens) > 1 and tokens[1].lower() in _HOW_FACT)


def _is_name(token: str) -> bool:
    plain = token.lower()
    if len(token) < 2 or plain in STOP_WORDS | COURTESY | _NO_NAMES or token.isdigit():
        return False
    return token[0].isupper() or token.isupper()


async def names_the_unknown(turn: Turn) -> bool:
    """Whether ``turn``'s question asks yes or no, or for a fact (what, who, when, …), about a
    name that nothing the viewer may read holds (no passage a search for it finds, no visible
    record table names or holds it)."""
    for name in _asked_names(turn.question):
        if not any([await turn.toolbox.holds(w, turn.audience) for w in words(name)]):
            return True
    return False


def rests_on_one_word(
    asked: Sequence[str],
    chosen: Sequence[Candidate],
    candidates: Sequence[Candidate],
    explained: frozenset[str],
) -> bool:
    """Whether the ``chosen`` sentences are quoted for one word of their headings alone, for a
    question that names what the passages lack: none of them writes a word of the question
    (``asked``: its terms, compounds as one) itself, their passages (their sentences among
    ``candidates``, with their headings) hold only one of its two or more words, and a word of
    it is in no passage at all (not in ``explained``: "saml" of "How do I configure SAML?",
    not "citecast" of "How do I configure citecast?", which the other passages hold)."""
    own = [t for t in asked if t not in COURTESY and t not in LIGHT_VERBS]
    keys = frozenset(term_key(t) for t in own)
    if any(keys & c.terms for c in chosen) or keys <= explained:
        return False
    total = sum(len(t.split()) for t in own)
    ranks = {c.rank for c in chosen}
    held = frozenset().union(*(held_words(c) for c in candidates if c.rank in ranks))
    known = sum(len(t.split()) for t in own if term_key(t) in held)
    return total >= 2 and known <= 1


def one_word_each(
    asked: Sequence[str],
    chosen: Sequence[Candidate],
    candidates: Sequence[Candidate],
    explained: frozenset[str],
) -> bool:
    """Whether the ``chosen`` sentences are stitched together from passages that each hold
    (with their headings) a different one of the question's words and no other, while the
    passages found hold no more than half of its words (``explained``). Such passages each
    share one word with the question and answer nothing it asks: "General chat: Hello
    everyone, this is a general topic." and a sentence about "@everyone" pings beside one
    about embedding the web chat, where "general" and "topic" are nowhere. A question the
    passages mostly hold ("What happens when Slack returns 429?", where none says "returns")
    is answered part by part, as before, and one passage quoted alone is left to
    :func:`rests_on_one_word`.

    ``asked`` is the question's terms, compounds as one; a compound counts as its words
    ("1.4.2" is three), as in :func:`rests_on_one_word`; greetings and the verbs that only
    carry a question are no words of it."""
    own = [t for t in asked if t not in COURTESY and t not in LIGHT_VERBS]
    size = {term_key(t): len(t.split()) for t in own}
    keys = frozenset(size)
    # most of the question in the passages: answered as the other rules decide
    if 2 * sum(size[k] for k in keys & explained) > sum(size.values()):
        return False
    seen: set[str] = set()
    for rank in {c.rank for c in chosen}:
        held = keys & frozenset().union(*(held_words(c) for c in candidates if c.rank == rank))
        if sum(size[k] for k in held) > 1:
            return False
        seen |= held
    return len(seen) >= 2
