"""The extractive backend: a cited answer from the best sentences, with no model at all.

It searches the knowledge base with the question, scores every sentence of the top passages by
the question terms it contains (rarer terms weigh more, earlier passages get a small bonus), and
writes the best few, each ending with its passage's marker (``… [2].``), grouped by passage in
reading order. When the passages do not cover at least half of the question's terms, or only
terms most of their sentences contain, it says plainly that it found nothing and cites nothing.
The record each table's search finds the question is most about (see
:mod:`bot.assistant.record_match`) comes first, as one line with its columns; a question about a
table as a whole gets the table's first records as a list instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from bot.assistant.cited_lines import CODE_SPAN, with_marker
from bot.assistant.extractive_records import pick_records, record_lines
from bot.assistant.turn import Turn
from bot.knowledge.terms import STOP_WORDS, query_terms, stem, words
from bot.models import Source

NOT_FOUND = "I could not find anything about that in the knowledge base."

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[`*]?\w)")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|p|pp|no|fig|approx)\.|\b[A-Z]\.)$", re.I)
_FENCED = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
# A sentence about the document itself ("This page explains …", "Read the administration guide
# to …") points at an answer rather than giving it: it weighs half.
_SIGNPOST = re.compile(
    r"(?:this|the following) (?:page|guide|handbook|manual|document|section|chapter)\b"
    r"|read the\b|see the\b",
    re.I,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True)
class _Candidate:
    rank: int
    position: int
    text: str
    terms: frozenset[str]
    context: frozenset[str]
    topic: frozenset[str]
    source: Source
    defines: str  # the stemmed subject of a document's opening sentence, else ""


def sentences_of(text: str) -> list[str]:
    """Prose sentences of a passage: code blocks dropped, list items and lines unwrapped."""
    text = _FENCED.sub("\n\n", text)
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        lines = [_LIST_MARK.sub("", line).strip() for line in paragraph.split("\n")]
        items = [line for line in lines if line and not line.startswith(("|", "#", "    "))]
        out.extend(s for s in _split_sentences(" ".join(items)) if len(s) > 12)
    return out


def _split_sentences(text: str) -> list[str]:
    """Split after ., ! or ? and a space, but not after an abbreviation or inside code."""
    pieces: list[str] = []
    start = 0
    code_spans = [m.span() for m in CODE_SPAN.finditer(text)]
    for match in _SENTENCE_END.finditer(text):
        cut = match.start()
        if any(a < cut < b for a, b in code_spans) or _ABBREVIATION.search(text[start:cut]):
            continue
        pieces.append(text[start:cut].strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def _sentence_terms(sentence: str) -> frozenset[str]:
    """The sentence's terms, without the words of code that is markup or a URL: the "data" of
    ``<script … data-citecast>`` says nothing about where data is stored."""
    if "`" not in sentence:
        return _terms(sentence)
    return _terms(CODE_SPAN.sub(_code_words, sentence))


def _code_words(match: re.Match[str]) -> str:
    code = match.group(0)
    return " " if "<" in code or "://" in code else code


def _terms(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words(text) if w not in STOP_WORDS)


def sentence_candidates(passages: Sequence[Source]) -> list[_Candidate]:
    """Every prose sentence of ``passages`` (best passage first), with the terms it is scored by."""
    return [
        _Candidate(
            rank,
            position,
            sentence,
            _sentence_terms(sentence),
            _terms(source.section or ""),
            _terms(_own_heading(source.section)),
            source,
            _subject(sentence) if position == 0 and " > " not in (source.section or "") else "",
        )
        for rank, source in enumerate(passages)
        for position, sentence in enumerate(sentences_of(source.text or ""))
    ]


def choose_sentences(
    question_terms: Sequence[str], candidates: Sequence[_Candidate], limit: int
) -> list[_Candidate]:
    """The best ``limit`` of ``candidates`` for the question, in passage-then-reading order."""
    wanted = frozenset(stem(t) for t in question_terms)
    if not wanted or not candidates:
        return []
    if not _found(wanted, candidates):
        return []
    total = len(candidates)
    weight = {
        term: math.log(1 + total / (1 + sum(term in c.terms for c in candidates)))
        for term in wanted
    }

    def score(c: _Candidate) -> float:
        # A sentence inherits half the weight of question words its section headings name:
        # under "Retry policy", "it waits 1 second, then 2" is about the retry policy. A word
        # its own (innermost) heading names counts fully and then half again, so "How do I
        # install citecast on Linux?" prefers what the "Linux" section says over a macOS
        # sentence that merely mentions Linux.
        hits = wanted & c.terms
        topical = wanted & c.topic
        inherited = (wanted & c.context) - hits - topical
        if not hits and not topical and not inherited:
            return 0.0
        points = (
            sum(weight[t] for t in hits | topical)
            + 0.5 * sum(weight[t] for t in topical)
            + 0.5 * sum(weight[t] for t in inherited)
        )
        # A question about one thing ("What is citecast?") wants the sentence that opens a
        # document by defining it ("citecast answers questions from your own documents …"),
        # not any sentence that mentions it.
        if len(wanted) == 1 and c.defines in wanted:
            points += weight[c.defines]
        if _SIGNPOST.match(c.text):
            points *= 0.5
        return points / (1 + 0.2 * c.rank)

    ranked = sorted((c for c in candidates if score(c) > 0), key=score, reverse=True)
    if not ranked:
        return []
    floor = 0.5 * score(ranked[0])
    # A sentence under a heading that names question words must be under one that names every
    # question word the best sentence's heading names: "connect citecast to Discord?" must not
    # borrow the section "connect citecast to Slack?", however many words the two share.
    headline = wanted & ranked[0].topic
    chosen: list[_Candidate] = []
    for candidate in ranked:
        if len(chosen) >= limit or score(candidate) < floor:
            break
        named = wanted & candidate.topic
        if named and not headline <= named:
            continue
        if any(_similar(candidate.terms, other.terms) for other in chosen):
            continue
        chosen.append(candidate)
    # Lead with the passage of the best sentence; keep reading order inside each passage.
    best: dict[int, float] = {}
    for c in chosen:
        best[c.rank] = max(best.get(c.rank, 0.0), score(c))
    return sorted(chosen, key=lambda c: (-best[c.rank], c.rank, c.position))


def _found(wanted: frozenset[str], candidates: Sequence[_Candidate]) -> bool:
    """Whether the sentences (or their headings) contain at least half the question's words,
    one of them specific: a word most of the sentences contain ("citecast" in "What does
    citecast cost?") says nothing about what else the question asks, unless it is all it asks."""
    headings = frozenset().union(*(c.context for c in candidates))
    covered = [t for t in wanted if t in headings or any(t in c.terms for c in candidates)]
    if len(covered) * 2 < len(wanted):
        return False
    if len(covered) == len(wanted):
        return True
    return any(2 * sum(t in c.terms for c in candidates) <= len(candidates) for t in covered)


def _subject(sentence: str) -> str:
    """The stemmed first word of ``sentence`` (its subject, in a plain declarative one)."""
    first = words(sentence[:80])
    return stem(first[0]) if first else ""


def covered_by_passages(
    question_terms: Sequence[str], passages: Sequence[Source], candidates: Sequence[_Candidate]
) -> frozenset[str]:
    """The question's (stemmed) words that a prose sentence of ``passages`` (its
    ``candidates``) or their section headings contain (a heading counts, as it does when
    sentences are scored)."""
    wanted = frozenset(stem(t) for t in question_terms)
    headings = _terms(" ".join(source.section or "" for source in passages))
    return wanted & headings.union(*(c.terms for c in candidates))


def _own_heading(section: str | None) -> str:
    """The innermost heading of a ``"Guide > Install > Linux"`` section path (``"Linux"``)."""
    return (section or "").rsplit(" > ", 1)[-1]


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a | b) and len(a & b) / len(a | b) > 0.7


class ExtractiveBackend:
    """Answers from the knowledge base without a language model (the default backend)."""

    name = "extractive"

    def __init__(self, max_sentences: int = 4) -> None:
        self.max_sentences = max_sentences

    async def generate(self, turn: Turn) -> AsyncIterator[str]:
        """Yield the answer sentence by sentence, each carrying its marker."""
        question = turn.question
        terms = query_terms(question)
        if len(terms) < 2 and turn.history:  # a follow-up: borrow the previous question's words
            question = f"{turn.history[-1].question} {question}"
            terms = query_terms(question)
        records = await pick_records(turn, question, terms, max(1, self.max_sentences // 2))
        result = await turn.toolbox.fetch_async("search_docs", {"query": question}, turn.audience)
        # A record the question names only in passing ("Does citecast support email?" and the
        # "Priority support add-on") must explain as many question words as the passages do.
        candidates = sentence_candidates(result.sources)
        explained = len(covered_by_passages(terms, result.sources, candidates))
        lines = record_lines(records.keeping(terms, explained), turn.registry)
        chosen = choose_sentences(terms, candidates, self.max_sentences - len(lines))
        for candidate in chosen:
            number = turn.registry.register(candidate.source)
            if number is not None:
                lines.append(with_marker(candidate.text, number))
        if not lines:
            yield NOT_FOUND
            return
        for i, line in enumerate(lines):
            yield line if i == 0 else _joiner(lines[i - 1], line) + line


def _joiner(previous: str, line: str) -> str:
    """What goes between two lines: items of one list break lines, a list ends with a blank
    line, sentences share a paragraph."""
    items = previous.startswith("- "), line.startswith("- ")
    if all(items):
        return "\n"
    return "\n\n" if any(items) else " "
