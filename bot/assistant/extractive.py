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
readable holds, or about a subject word in lower case nothing readable holds ("the gold plan":
see :mod:`bot.assistant.extractive_subjects`), when its sentences are quoted for one heading
word alone or stitched from passages that each share one word with it (see
:mod:`bot.assistant.extractive_unconfirmed`), and for "how much" or "how many" of a word
nothing readable holds, answered by sentences that state no amount (see
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
table as a whole gets the table's first records as a list instead, and a line saying how many
rows there are, or match, when not all are shown (:func:`count_note`); sentences follow a named
record only when they hold a question word its line lacks. A follow-up in a
conversation is answered by its own words, the earlier questions' words weighing less (see
:mod:`bot.assistant.follow_up`). Marker-like text the question carries ("[1]", ``<source id="2">``)
is no question word (see :mod:`bot.assistant.extractive_question`). Small talk ("hello",
"thanks!") is greeted or thanked back without a search (see
:mod:`bot.assistant.extractive_small_talk`). With nothing at all to answer from (no index was
ever built, no record table configured) a question fails with KnowledgeIndexError rather than
"not found", which would blame the documents (see :mod:`bot.assistant.extractive_knowledge`).
The scoring and choice of the sentences is :mod:`bot.assistant.extractive_choice`. A post is
read as its questions (the sentences ending with "?"): filler around one question ("Any help
appreciated, I am stuck since yesterday.") that leaves the post as a whole unanswered is left
out, and several questions that each say what they ask about are answered one by one, each
judged by every rule above (see :mod:`bot.assistant.extractive_posts`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

from bot.assistant import extractive_parts as parts
from bot.assistant import extractive_precision as precision
from bot.assistant import own_replies
from bot.assistant.cited_lines import joiner, with_code, with_marker
from bot.assistant.extractive_amounts import lacks_the_amount
from bot.assistant.extractive_candidates import (
    covered_by_passages,
    covered_where,
    sentence_candidates,
)
from bot.assistant.extractive_choice import choose_sentences
from bot.assistant.extractive_compounds import answer_terms, is_compound, term_key
from bot.assistant.extractive_heads import question_compounds
from bot.assistant.extractive_knowledge import MISSING_INDEX, require_knowledge
from bot.assistant.extractive_missing import asks_what_is_missing
from bot.assistant.extractive_posts import (
    Asked,
    joined_questions,
    post_questions,
    stands_alone,
)
from bot.assistant.extractive_question import plain_turn
from bot.assistant.extractive_records import (
    RecordPick,
    count_note,
    pick_records,
    record_lines,
    records_cover,
)
from bot.assistant.extractive_small_talk import small_talk_reply
from bot.assistant.extractive_subjects import asks_about_the_unknown
from bot.assistant.extractive_unconfirmed import names_the_unknown, one_word_each, rests_on_one_word
from bot.assistant.follow_up import earlier_questions, is_follow_up, merge_passages, stems_of
from bot.assistant.turn import Turn
from bot.knowledge.terms import query_terms, stem
from bot.models import Exchange, Source

__all__ = [
    "MISSING_INDEX",
    "NOT_FOUND",
    "ExtractiveBackend",
    "choose_sentences",
    "sentence_candidates",
]

NOT_FOUND = own_replies.NOT_FOUND


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
        lines = await self._post_lines(turn)
        if not lines:
            yield NOT_FOUND
            return
        for i, line in enumerate(lines):
            yield line if i == 0 else joiner(lines[i - 1], line) + line

    async def _post_lines(self, turn: Turn) -> list[str]:
        """The answer's lines for a post (none: not found), read as its questions
        (:mod:`bot.assistant.extractive_posts`): a post of several questions that each stand
        alone question by question, then as a whole; any other post as a whole, then (its
        filler made a sentence of the answer hold too few of its words, or its questions
        diluted one another) question by question."""
        asked = post_questions(turn.question)
        if len(asked) > 1 and all(stands_alone(a.question) for a in asked):
            return await self._each(turn, asked) or await self._lines(turn)
        lines = await self._lines(turn)
        if lines or not asked:
            return lines
        if len(asked) == 1 and asked[0].question == turn.question.strip():
            joined = joined_questions(asked[0].question)
            asked = [Asked(q, asked[0].before) for q in joined] if len(joined) > 1 else []
        return await self._each(turn, asked)

    async def _each(self, turn: Turn, asked: Sequence[Asked]) -> list[str]:
        """The lines answering each of ``asked`` on its own, each answer a paragraph of its
        own, without a line an earlier answer already gave; none when none is answered."""
        lines: list[str] = []
        for one in asked:
            own = [line for line in await self._question_lines(turn, one) if line not in lines]
            if lines and own and not lines[-1].endswith("\n"):
                lines[-1] += "\n"  # joiner: a new paragraph, as after a code block
            lines.extend(own)
        return lines

    async def _question_lines(self, turn: Turn, asked: Asked) -> list[str]:
        """The lines answering one question of a post, or, when it finds nothing as one, each
        of the questions it joins ("… and how long …?": joined_questions)."""
        lines = await self._lines(self._part(turn, asked))
        joined = joined_questions(asked.question)
        if lines or len(joined) < 2:
            return lines
        return await self._each(turn, [Asked(q, asked.before) for q in joined])

    @staticmethod
    def _part(turn: Turn, asked: Asked) -> Turn:
        """``turn`` asking one question of its post, the text before it an earlier turn (so a
        question of one word, "And Discord?", is read as a follow-up: follow_up)."""
        history = [*turn.history, Exchange(asked.before, "")] if asked.before else turn.history
        return replace(turn, question=asked.question, history=history)

    async def _lines(self, turn: Turn) -> list[str]:
        """The answer's lines for ``turn``'s question read as one (none: not found)."""
        found = await self._evidence(turn)
        terms, passages = found.terms, found.passages
        # A record the question names only in passing ("Does citecast support email?" and the
        # "Priority support add-on") must explain as many question words as the passages do.
        asked = found.asked
        candidates = sentence_candidates(passages, [t for t in asked if is_compound(t)])
        covered = covered_by_passages(terms, passages, candidates)
        records = found.records.keeping(
            terms, len(covered), lambda w: len(covered_where(terms, passages, candidates, w))
        ).giving_way(asked, (c.topic for c in candidates))
        explained = covered_by_passages(asked, passages, candidates)
        # A yes/no question about a name nothing readable holds cannot be confirmed, nor one
        # asking for a fact about a lower-case word nothing holds ("the gold plan"):
        # extractive_subjects
        if await names_the_unknown(turn) or await asks_about_the_unknown(turn, explained):
            return []
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
        compounds = question_compounds(turn.question)
        chosen = choose_sentences(asked, candidates, limit, found.context, given, two, compounds)
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
        # "Showing 5 of 20,000 rows:": the records listed are not all that answer
        note = await count_note(records, turn) if lines else None
        for candidate in chosen:
            number = turn.registry.register(candidate.source)
            if number is not None:
                line = with_marker(candidate.text, number)
                lines.append(with_code(line, candidate.code) if candidate.code else line)
        if lines and note is not None:
            # before the rows, ending in a colon: it introduces them, and grounding takes no
            # such line for an uncited claim (after them it was flagged as one); a paragraph
            # of its own (joiner), or the first row's citation would be checked against it
            lines.insert(0, note + "\n")
        return lines

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
            keys = frozenset(term_key(t) for t in terms)  # keyed as the sentences' words are
            if records.records or precision.found(keys, sentence_candidates(passages)):
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
