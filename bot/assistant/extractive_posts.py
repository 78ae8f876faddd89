"""The questions of a post: what the built-in answerer answers when the post as a whole finds
nothing, or when it asks several things.

A forum post or a mail is seldom one bare question: "How do I install citecast on Linux?" comes
with "Any help appreciated, I am stuck on this since yesterday.", and one post may ask two or
three things. Read as one question, every word of the post counts, and a sentence of the
knowledge base must hold half of them (:mod:`bot.assistant.extractive_precision`): the filler's
five words ("help", "appreciated", "stuck", "since", "yesterday") outnumbered the question's
three, so the install steps were no answer and the member got "not found" (on Discourse: no
reply at all). Three questions in one post diluted one another the same way.

So the answerer reads a post as its questions (:func:`post_questions`): the sentences that end
with a question mark, or the first sentence when none does, each with the text before it (the
title, an earlier question) as its context. A post that asks one thing is first answered as a
whole, as before (its other sentences may name what it is about: "How do I fix this? Ingest
fails with 'database is locked'."), and by its question alone only when the whole finds
nothing. A post that asks several things, each of which says itself what it asks about
(:func:`stands_alone`), gets each question answered on its own, every rule of the answerer
judging each (so "how much does the gold plan cost?" beside an answered question is still no
answer of its own), and is "not found" only when none of them is answered, nor the post as a
whole. One whose questions lean on one another ("Does citecast support Slack? How do I set it
up?") is answered as a whole first, and question by question only when the whole finds
nothing. One sentence that joins two questions ("How do I reset the frobnicator and how long
are its logs kept?") is read as its two (:func:`joined_questions`) when it finds nothing as
one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.knowledge.terms import query_terms
from bot.pleasantries import QUESTION_MARKS

# what may close a sentence after its mark ('Is it "on"?', "(or is it?)")
_CLOSERS = "\"'”’»)]"
# where a sentence ends: after its mark (and a closing quote or bracket) and a space, after a
# CJK mark, or at a blank line (a title above its post); a single line break does not end one
# (mail wraps its lines)
_BREAK = re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"'”’»)\]]))\s+|(?<=[。！？])\s*|\n[ \t]*\n\s*")
# words with which a question leans on the text before it ("How do I set it up?", "And what
# support comes with it?"): read alone, it asks about nothing
_LEANING = frozenset("it its it's this that these those they them their theirs".split())  # noqa: SIM905
_CONTINUING = frozenset("and or also but so plus".split())  # noqa: SIM905
# ", and how long …", " and what …": a second question joined to the first
_AND_ASKS = re.compile(r",?\s+and\s+(?=(?:how|what|which|where|when|who|whom|whose|why)\b)", re.I)


@dataclass(frozen=True)
class Asked:
    """One question of a post (``question``) and the text of the post before it (``before``:
    a title, an earlier question), its context as a conversation's earlier turns are."""

    question: str
    before: str


def post_questions(text: str) -> list[Asked]:
    """The questions of the post ``text``: its sentences that end with a question mark (of any
    script, before a closing quote or bracket), or its first sentence when none does; each
    with the text before it. Empty for a post without words."""
    sentences: list[tuple[int, str]] = []
    start = 0
    for match in _BREAK.finditer(text):
        sentences.append((start, text[start : match.start()]))
        start = match.end()
    sentences.append((start, text[start:]))
    kept = [(at, s.strip()) for at, s in sentences if s.strip()]
    asking = [(at, s) for at, s in kept if s.rstrip(_CLOSERS)[-1:] in QUESTION_MARKS]
    chosen = asking or kept[:1]
    return [Asked(question, " ".join(text[:at].split())) for at, question in chosen]


def joined_questions(question: str) -> list[str]:
    """The questions one sentence joins with "and" before a question word ("How do I reset
    the frobnicator and how long are its logs kept?" is "How do I reset the frobnicator?" and
    "how long are its logs kept?"), each ending with the sentence's question mark; the sentence
    alone when it joins none."""
    parts = [p.strip() for p in _AND_ASKS.split(question) if p.strip()]
    if len(parts) < 2:
        return [question]
    mark = question.rstrip(_CLOSERS)[-1:]
    ending = mark if mark in QUESTION_MARKS else ""
    return [p if p.rstrip(_CLOSERS)[-1:] in QUESTION_MARKS else p + ending for p in parts]


def stands_alone(question: str) -> bool:
    """Whether ``question`` (one of a post's) says itself what it asks about: it has two or
    more search words, no pronoun that points back ("How do I set it up?" after "Does citecast
    support Slack?") and does not open by continuing ("And Discord?"). A post whose questions
    all do is answered question by question; one whose question leans on another is answered
    as a whole first, its questions together saying what it asks about."""
    tokens = [t.replace("’", "'") for t in re.findall(r"[\w'’]+", question.lower())]
    return (
        bool(tokens)
        and tokens[0] not in _CONTINUING
        and not _LEANING.intersection(tokens)
        and len(query_terms(question)) >= 2
    )
