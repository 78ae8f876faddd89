"""The extractive backend: a cited answer from the best sentences, with no model at all.

It searches the knowledge base with the question, scores every sentence of the top passages by
the question terms it contains (rarer terms weigh more, earlier passages get a small bonus; a
version or dotted name such as "1.4.2" is one term, which only a sentence that writes it holds:
see :mod:`bot.assistant.extractive_compounds`), and
writes the best few, each ending with its passage's marker (``… [2].``), grouped by passage in
reading order. When the passages do not cover at least half of the question's terms, or only
terms most of their sentences contain, or when no more than one of the question's own words is
anywhere the viewer may read, it says plainly that it found nothing and cites nothing; so it does
for a yes/no question (or one asking what, who, when, where, how much …) about a name nothing
readable holds, when its sentences are quoted for one heading word alone or stitched from
passages that each share one word with it (see :mod:`bot.assistant.extractive_unconfirmed`),
and for "how much" or "how many" of a word nothing readable holds, answered by sentences that
state no amount (see
:mod:`bot.assistant.extractive_amounts`). A question line of a FAQ ("Can I bring my dog to
work?" above its answer) is never quoted: its answer holds its words as a heading's (see
:mod:`bot.assistant.extractive_faq`). A sentence
must hold half of the question's words (with its headings), the best one more than half unless
its heading names one; one that opens by pointing back ("It holds …") is quoted with the
sentences before it, and one after a quoted sentence that points back to it and holds a question
word continues it (see :mod:`bot.assistant.extractive_precision`). A sentence of another passage
must answer a part of the question the quoted ones leave open, or answer it again in its own
words; each part of a two-part question ("… to Slack and Discord?") gets its sentences (see
:mod:`bot.assistant.extractive_parts`).
The record each table's search finds the question is most about (see
:mod:`bot.assistant.record_match`) comes first, as one line with its columns; a question about a
table as a whole gets the table's first records as a list instead; sentences follow a named
record only when they hold a question word its line lacks. A follow-up in a
conversation is answered by its own words, the earlier questions' words weighing less (see
:mod:`bot.assistant.follow_up`). Marker-like text the question carries ("[1]", ``<source id="2">``)
is no question word (see :mod:`bot.assistant.extractive_question`). Small talk ("hello",
"thanks!") is greeted or thanked back without a search (see
:mod:`bot.assistant.extractive_small_talk`). With nothing at all to answer from (no index was
ever built, no record table configured) a question fails with KnowledgeIndexError rather than
"not found", which would blame the documents (see :mod:`bot.assistant.extractive_knowledge`).
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from bot.assistant import extractive_parts as parts
from bot.assistant import extractive_precision as precision
from bot.assistant.cited_lines import joiner, with_code, with_marker
from bot.assistant.extractive_amounts import lacks_the_amount
from bot.assistant.extractive_candidates import (
    Candidate,
    covered_by_passages,
    covered_where,
    held_words,
    sentence_candidates,
    sentence_text,
    similar,
)
from bot.assistant.extractive_compounds import answer_terms, is_compound, term_key
from bot.assistant.extractive_faq import unasked
from bot.assistant.extractive_knowledge import MISSING_INDEX, require_knowledge
from bot.assistant.extractive_missing import asks_what_is_missing
from bot.assistant.extractive_question import plain_turn
from bot.assistant.extractive_records import (
    RecordPick,
    pick_records,
    record_lines,
    records_cover,
)
from bot.assistant.extractive_sections import encloses, siblings
from bot.assistant.extractive_small_talk import small_talk_reply
from bot.assistant.extractive_tables import matching_rows
from bot.assistant.extractive_unconfirmed import names_the_unknown, one_word_each, rests_on_one_word
from bot.assistant.follow_up import earlier_questions, is_follow_up, merge_passages, stems_of
from bot.assistant.turn import Turn
from bot.knowledge.terms import query_terms, stem
from bot.models import Source

__all__ = [
    "MISSING_INDEX",
    "NOT_FOUND",
    "ExtractiveBackend",
    "choose_sentences",
    "sentence_candidates",
]

NOT_FOUND = "I could not find anything about that in the knowledge base."

# A sentence about the document itself ("This page explains …", "Read the administration guide
# to …") points at an answer rather than giving it: it weighs half.
_SIGNPOST = re.compile(
    r"(?:this|the following) (?:page|guide|handbook|manual|document|section|chapter)\b"
    r"|read the\b|see the\b",
    re.I,
)


@dataclass(frozen=True)
class _Evidence:
    """What an answer is written from: the words that decide its topic (``terms``; ``asked``
    has each compound as one term, see :mod:`bot.assistant.extractive_compounds`), words that
    only rank (``context``, a follow-up's earlier questions), the passages and the records."""

    terms: list[str]
    asked: list[str]
    context: list[str]
    passages: Sequence[Source]
    records: RecordPick


def choose_sentences(
    question_terms: Sequence[str],
    candidates: Sequence[Candidate],
    limit: int,
    context_terms: Sequence[str] = (),
    given: frozenset[str] = frozenset(),
    question_parts: Sequence[frozenset[str]] = (),
) -> list[Candidate]:
    """The best ``limit`` of ``candidates`` for the question, in passage-then-reading order.

    ``question_terms`` may hold compounds (``"1 4 2"``), matched as the candidates were built
    with them (:func:`sentence_candidates`).

    ``context_terms`` (a follow-up's earlier questions) only rank the sentences that the
    question's own words found, raising a sentence's score by at most half.

    ``given`` holds the question words the record lines before the sentences hold: a sentence
    covers enough of the question when it does together with them ("compare" after the Team
    and Business plans for "Compare Team and Business").

    ``question_parts`` holds the words of each part of a question that asks two things
    (:func:`bot.assistant.extractive_parts.question_parts`): each part gets its sentences.
    """
    wanted = frozenset(term_key(t) for t in question_terms)
    if not wanted or not candidates:
        return []
    if not precision.found(wanted, candidates):
        return []
    extra = frozenset(stem(t) for t in context_terms) - wanted
    total = len(candidates)
    weight = {
        term: math.log(1 + total / (1 + sum(term in c.terms for c in candidates)))
        for term in wanted | extra
    }

    def points(c: Candidate, terms: frozenset[str], borrowed: frozenset[str]) -> float:
        # A sentence inherits half the weight of question words its section headings name:
        # under "Retry policy", "it waits 1 second, then 2" is about the retry policy. A word
        # its own (innermost) heading names counts fully and then half again, so "How do I
        # install citecast on Linux?" prefers what the "Linux" section says over a macOS
        # sentence that merely mentions Linux.
        hits = terms & c.terms
        topical = terms & c.topic
        inherited = (terms & (c.context | borrowed)) - hits - topical
        return (
            sum(weight[t] for t in hits | topical)
            + 0.5 * sum(weight[t] for t in topical)
            + 0.5 * sum(weight[t] for t in inherited)
        )

    context_total = sum(weight[t] for t in extra)

    def score(c: Candidate, borrowed: frozenset[str] = frozenset()) -> float:
        own = points(c, wanted, borrowed)
        if not own:
            return 0.0
        # The earlier questions' words raise a sentence's score by at most half: they choose
        # among the sentences the follow-up's own words found, and never outvote those words.
        if context_total:
            own *= 1 + 0.5 * min(1.0, points(c, extra, borrowed) / context_total)
        # A question about one thing ("What is citecast?") wants the sentence that opens a
        # document by defining it ("citecast answers questions from your own documents …"),
        # not any sentence that mentions it.
        if len(wanted) == 1 and c.defines in wanted:
            own += weight[c.defines]
        if _SIGNPOST.match(c.text):
            own *= 0.5
        return own / (1 + 0.2 * c.rank)

    # A sentence that holds less than half the question's words the passages hold (with its
    # headings) is about something else, however well it scores ("update the environment" for
    # "How do I update the index when a document changes?"); a word no passage holds ("returns"
    # where they say "answers") does not count against it: see
    # bot.assistant.extractive_precision (nor words its passage holds elsewhere, unless its
    # headings frame it: precision.leaves_out). One that points back is read
    # with the sentences it points back to (read_with), so it holds their words too; one that
    # opens a passage pointing back (to another passage) is never quoted.
    counted = precision.counted_words(
        wanted, frozenset().union(*(held_words(c) for c in candidates))
    )
    place = precision.places(candidates)
    # a question the document asks (a FAQ's question line) is never quoted: extractive_faq
    groups = [
        unasked(precision.read_with(i, candidates, sentence_text, place), candidates)
        for i in range(total)
    ]
    passage_words = precision.passage_words(candidates)

    def enough(i: int, borrowed: frozenset[str] = frozenset(), leading: bool = False) -> bool:
        group = groups[i]
        if group is None:
            return False
        c, held = candidates[i], frozenset().union(*(held_words(candidates[j]) for j in group))
        framing = c.context | borrowed | given  # its headings, and what comes before it
        if leading:
            return precision.can_lead(held | framing, counted, framing, weight)
        # or, in a question of two parts, most of one part ("the hotel limit" of "What is the
        # hotel limit and when does the car park open?"): extractive_parts.covers_a_part
        return precision.covers_enough(
            held | framing, counted, passage_words[c.rank], framing
        ) or parts.covers_a_part(held | framing, counted, question_parts)

    first = [score(c) if enough(i) else 0.0 for i, c in enumerate(candidates)]
    # The best sentence must hold most of the question's words, or be under a heading that
    # names one: precision.can_lead.
    leads = [i for i in range(total) if first[i] > 0 and enough(i, leading=True)]
    if not leads:
        return []
    top = max(leads, key=first.__getitem__)
    lead = candidates[top]
    # The section that encloses the best sentence's section says what applies to it too:
    # "Install" gives the steps that "Install > Linux" only adds to, so its sentences count the
    # words of the headings below them ("linux") as inherited.
    scores = [
        (score(c, lead.context) if enough(i, lead.context) else 0.0)
        if encloses(c.source, lead.source)
        else first[i]
        for i, c in enumerate(candidates)
    ]
    order = sorted((i for i in range(total) if scores[i] > 0), key=lambda i: (i != top, -scores[i]))
    floor = 0.5 * scores[top]
    # each part of a two-part question gets the sentence it would be answered with if asked
    # alone, right after the best one, whatever it scores: extractive_parts.part_leads
    answering = parts.part_leads(order, top, candidates, counted, question_parts, weight)
    order = [top, *answering, *(i for i in order if i != top and i not in answering)]
    # A sentence under a heading that names question words must be under one that names every
    # question word the best sentence's heading names: "connect citecast to Discord?" must not
    # borrow the section "connect citecast to Slack?", however many words the two share. A
    # sibling section of the best one ("macOS" beside "Linux") is held to that even when its
    # heading names none of them; an enclosing section never is.
    # A sentence answering another part of the question than the best one is not held to its
    # heading, and one of another passage must answer a part still open: extractive_parts.
    headline = wanted & lead.topic
    lead_words = parts.said(groups[top] or (top,), candidates, counted)
    chosen: list[int] = []
    for i in order:
        candidate = candidates[i]
        if len(chosen) >= limit:
            break
        # a part of the question no quoted sentence answers is answered however it scores
        group = groups[i] or [i]
        low = i not in answering and scores[i] < floor
        if low and not parts.opens_a_part(group, chosen, candidates, counted, question_parts):
            continue
        named = wanted & candidate.topic
        held = named or siblings(candidate.source, lead.source)
        own = parts.said(group, candidates, counted)
        other = i in answering or parts.answers_another_part(own, lead_words, question_parts)
        if (
            held
            and not other
            and not headline <= named
            and not encloses(candidate.source, lead.source)
        ):
            continue
        if i in chosen or any(similar(candidate.terms, candidates[j].terms) for j in chosen):
            continue
        if i not in answering and not parts.adds_a_part(group, chosen, candidates, counted, weight):
            continue
        # A sentence that opens by pointing back ("Clicking it opens …") comes with the
        # sentences it points back to, or not at all.
        new = [j for j in groups[i] or () if j not in chosen]
        if len(chosen) + len(new) <= limit:
            chosen.extend(new)
    # A sentence that points back to a quoted one and holds a question word continues it.
    more = precision.continuations(chosen, candidates, groups, place, lambda c: counted & c.terms)
    chosen.extend(more[: max(0, limit - len(chosen))])
    # Lead with the passage of the best sentence; keep reading order inside each passage.
    best: dict[int, float] = {}
    for i in chosen:
        rank = candidates[i].rank
        best[rank] = max(best.get(rank, 0.0), scores[i])
    picked = sorted(chosen, key=lambda i: (-best[candidates[i].rank], candidates[i].rank, i))
    return matching_rows([candidates[i] for i in picked], wanted, given)


class ExtractiveBackend:
    """Answers from the knowledge base without a language model (the default backend)."""

    name = "extractive"

    def __init__(self, max_sentences: int = 4) -> None:
        self.max_sentences = max_sentences

    async def generate(self, turn: Turn) -> AsyncIterator[str]:
        """Yield the answer sentence by sentence, each carrying its marker."""
        turn = plain_turn(turn)
        # "thanks!", "hello": greeted or thanked back, nothing searched and nothing cited
        reply = small_talk_reply(turn.question)
        if reply is not None:
            yield reply
            return
        await require_knowledge(turn)
        found = await self._evidence(turn)
        terms, passages = found.terms, found.passages
        # A record the question names only in passing ("Does citecast support email?" and the
        # "Priority support add-on") must explain as many question words as the passages do.
        asked = found.asked
        candidates = sentence_candidates(passages, [t for t in asked if is_compound(t)])
        covered = covered_by_passages(terms, passages, candidates)
        records = found.records.keeping(
            terms, len(covered), lambda w: len(covered_where(terms, passages, candidates, w))
        )
        explained = covered_by_passages(asked, passages, candidates)
        # A yes/no question about a name nothing readable holds cannot be confirmed.
        if await names_the_unknown(turn):
            yield NOT_FOUND
            return
        # Records that only share a value word with the question ("days" in "How many
        # vacation days do I get?" and "2 business days") answer it only when more than that
        # word is anywhere the viewer may read, as sentences must.
        missing: bool | None = None
        if records.by_values_alone:
            missing = await asks_what_is_missing(turn, explained)
            if missing:
                records = RecordPick()
        lines = record_lines(records, turn.registry)
        limit = self.max_sentences - len(lines)
        given = records_cover(records, asked) if lines and not records.listing else frozenset()
        two = parts.question_parts(turn.question)
        chosen = choose_sentences(asked, candidates, limit, found.context, given, two)
        # After the records, a sentence must hold a question word their lines lack (not a verb
        # that only carries the question, as "comes" in "What support comes with …?"): one that
        # only repeats theirs is about something else ("How much does citecast Team cost?" and
        # "… the person who runs citecast for a team"); when they hold every word the passages
        # hold, no sentence is added.
        if chosen and lines and not records.listing:
            lacking = frozenset(map(term_key, asked)) - given - precision.NOT_COUNTED
            chosen = [c for c in chosen if lacking & (c.terms | c.topic)]
        if chosen and not lines:
            if missing is None:
                missing = await asks_what_is_missing(turn, explained)
            # "How much do … earn?" is not answered by sentences that state no amount, when
            # nothing the viewer may read holds "earn": extractive_amounts
            if (
                missing
                or rests_on_one_word(asked, chosen, candidates, explained)
                or one_word_each(asked, chosen, candidates, explained)
                or await lacks_the_amount(turn, asked, chosen, explained)
            ):
                chosen = []
        for candidate in chosen:
            number = turn.registry.register(candidate.source)
            if number is not None:
                line = with_marker(candidate.text, number)
                lines.append(with_code(line, candidate.code) if candidate.code else line)
        if not lines:
            yield NOT_FOUND
            return
        for i, line in enumerate(lines):
            yield line if i == 0 else joiner(lines[i - 1], line) + line

    async def _evidence(self, turn: Turn) -> _Evidence:
        """The words that decide the topic, the earlier questions' words, passages, records.

        A follow-up ("And Slack?") is answered by its own words when they find passages or a
        record, the earlier questions adding words that weigh less; only when they find
        nothing is it searched together with the earlier questions, as one question.
        """
        question, terms = turn.question, query_terms(turn.question)
        records_limit = max(1, self.max_sentences // 2)
        if not is_follow_up(terms, turn.history):
            records = await pick_records(turn, question, terms, records_limit)
            passages = await self._search(turn, question)
            return _Evidence(terms, answer_terms(question), [], passages, records)
        earlier = earlier_questions(turn.history)
        together = f"{earlier} {question}"
        found_together = await self._search(turn, together)
        if terms:
            own = stems_of(terms)
            alone = await self._search(turn, question)
            top_k = turn.toolbox.top_k
            passages = merge_passages(own, found_together, alone, top_k)
            records = await pick_records(turn, question, terms, records_limit)
            if records.records or precision.found(own, sentence_candidates(passages)):
                context = [t for t in query_terms(earlier) if stem(t) not in own]
                return _Evidence(terms, answer_terms(question), context, passages, records)
        terms = query_terms(together)
        records = await pick_records(turn, together, terms, records_limit)
        return _Evidence(terms, answer_terms(together), [], found_together, records)

    @staticmethod
    async def _search(turn: Turn, question: str) -> Sequence[Source]:
        # not fetch_async (which tells a model): an index that cannot be searched fails the
        # turn with its reason, where "nothing found" would blame the documents
        query = {"query": question}
        return (
            await asyncio.to_thread(turn.toolbox.fetch, "search_docs", query, turn.audience)
        ).sources
