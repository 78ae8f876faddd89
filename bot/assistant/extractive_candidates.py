"""The sentences the extractive answerer chooses from, each with the words it is scored by.

A candidate is one prose sentence of a passage (best passage first) with its own words, the
words of its section headings (``context``) and of its innermost heading (``topic``); a
question's compounds ("1.4.2") are among them where the sentence or heading writes one (see
:mod:`bot.assistant.extractive_compounds`). A question the document asks itself (a FAQ's
question line) is a candidate that is never quoted (``asks``); the sentences that answer it hold
its words as their innermost heading's (see :mod:`bot.assistant.extractive_faq`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.assistant.extractive_compounds import is_compound, term_key, written
from bot.assistant.extractive_faq import read_sentences
from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_sections import own_heading
from bot.knowledge.document import code_spans
from bot.knowledge.terms import STOP_WORDS, words
from bot.models import Source

# a code span that is one "name:name" (letters first on both sides, so not "localhost:8000")
_SCOPE_NAME = re.compile(r"(`+)\s*[A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*\s*\1")


@dataclass(frozen=True)
class Candidate:
    """One sentence of passage ``rank`` (its ``position`` there) and the words it is scored by."""

    rank: int
    position: int
    text: str
    terms: frozenset[str]
    context: frozenset[str]
    topic: frozenset[str]
    source: Source
    defines: str  # the stemmed subject of a document's opening sentence, else ""
    asks: bool = False  # a question the document asks itself: its answer follows it
    code: str = ""  # the fenced block the sentence introduces ("… as shown:"), else ""


def _sentence_terms(sentence: str, compounds: Sequence[str]) -> frozenset[str]:
    """The sentence's terms and the ``compounds`` it writes, without the words of code that is
    markup or a URL: the "data" of ``<script … data-citecast>`` says nothing about where data is
    stored. A permission or scope name (`app_mentions:read`) is a name, not prose: its words
    count only as a compound the question writes, so "Can citecast read PDF files?" is not
    answered by the Slack scopes sentence."""
    prose = sentence
    if "`" in sentence:
        sentence = "".join(
            _code_words(piece) if is_code else piece for is_code, piece in code_spans(sentence)
        )
        prose = _SCOPE_NAME.sub(" ", sentence)
    return _terms(prose) | written(compounds, sentence)


def _code_words(code: str) -> str:
    return " " if "<" in code or "://" in code else code


def _terms(text: str) -> frozenset[str]:
    return frozenset(word_key(w) for w in words(text) if w not in STOP_WORDS)


def sentence_candidates(
    passages: Sequence[Source], compounds: Sequence[str] = ()
) -> list[Candidate]:
    """Every prose sentence of ``passages`` (best passage first), with the terms it is scored by
    (the question's ``compounds`` among them where the sentence or its heading writes one)."""
    return [
        Candidate(
            rank,
            position,
            read.text,
            _sentence_terms(read.text, compounds),
            _heading_terms(source.section or "", read.question, compounds),
            _heading_terms(own_heading(source.section), read.question, compounds),
            source,
            _subject(read.text) if position == 0 and " > " not in (source.section or "") else "",
            read.asks,
            read.code,
        )
        for rank, source in enumerate(passages)
        for position, read in enumerate(read_sentences(source.text or ""))
    ]


def _heading_terms(heading: str, question: str, compounds: Sequence[str]) -> frozenset[str]:
    """The words of a heading and of the document's question line a sentence answers (which
    frames it as a question heading would), with the ``compounds`` they write."""
    return (
        _terms(heading)
        | _terms(question)
        | written(compounds, heading)
        | written(compounds, question)
    )


def sentence_text(candidate: Candidate) -> str:
    """The sentence's text, as written."""
    return candidate.text


def similar(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two sentences' words ``a`` and ``b`` are nearly the same: one repeats the other."""
    return bool(a | b) and len(a & b) / len(a | b) > 0.7


def held_words(candidate: Candidate) -> frozenset[str]:
    """The words a sentence holds, itself or in its section headings."""
    return candidate.terms | candidate.topic | candidate.context


def _subject(sentence: str) -> str:
    """The stemmed first word of ``sentence`` (its subject, in a plain declarative one)."""
    first = words(sentence[:80])
    return word_key(first[0]) if first else ""


def covered_by_passages(
    question_terms: Sequence[str], passages: Sequence[Source], candidates: Sequence[Candidate]
) -> frozenset[str]:
    """The question's (stemmed) words that a prose sentence of ``passages`` (its
    ``candidates``) or their section headings contain (a heading counts, as it does when
    sentences are scored)."""
    wanted = frozenset(term_key(t) for t in question_terms)
    sections = " ".join(source.section or "" for source in passages)
    headings = _terms(sections) | written([t for t in question_terms if is_compound(t)], sections)
    return wanted & headings.union(*(c.terms for c in candidates))


def covered_where(
    question_terms: Sequence[str],
    passages: Sequence[Source],
    candidates: Sequence[Candidate],
    naming: frozenset[str],
) -> frozenset[str]:
    """:func:`covered_by_passages` of the passages that hold one of the ``naming`` stems (in a
    sentence or a section heading): what the passages say about the thing a record's label
    names ("team"), not what the rest of them say about other things ("per month" in a table
    of Bronze, Silver and Gold plans)."""
    held = {c.rank for c in candidates if naming & (c.terms | c.context)}
    kept = [p for rank, p in enumerate(passages) if rank in held]
    return covered_by_passages(question_terms, kept, [c for c in candidates if c.rank in held])
