"""Which sentences the extractive backend quotes, and in what order (:func:`choose_sentences`).

Every candidate sentence is scored by the question words it holds (rarer words weigh more,
earlier passages get a small bonus, words its headings name count half); a sentence must hold
enough of the question to be quoted at all (:mod:`bot.assistant.extractive_precision`), each
part of a two-part question gets its sentences (:mod:`bot.assistant.extractive_parts`), and the
best few are returned grouped by passage in reading order. The backend itself (searching,
records, refusing to answer) is :mod:`bot.assistant.extractive`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from bot.assistant import extractive_parts as parts
from bot.assistant import extractive_precision as precision
from bot.assistant.extractive_candidates import Candidate, held_words, sentence_text, similar
from bot.assistant.extractive_compounds import term_key
from bot.assistant.extractive_faq import unasked
from bot.assistant.extractive_heads import Compound, other_kinds
from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_sections import encloses, siblings
from bot.assistant.extractive_tables import matching_rows

# A sentence about the document itself ("This page explains …", "Read the administration guide
# to …") points at an answer rather than giving it: it weighs half.
_SIGNPOST = re.compile(
    r"(?:this|the following) (?:page|guide|handbook|manual|document|section|chapter)\b"
    r"|read the\b|see the\b",
    re.I,
)


def choose_sentences(
    question_terms: Sequence[str],
    candidates: Sequence[Candidate],
    limit: int,
    context_terms: Sequence[str] = (),
    given: frozenset[str] = frozenset(),
    question_parts: Sequence[frozenset[str]] = (),
    compounds: Sequence[Compound] = (),
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

    ``compounds`` holds the question's noun compounds ("your refund policy":
    :func:`bot.assistant.extractive_heads.question_compounds`): a sentence about another thing
    of the kind ("The retry policy …") is not quoted beside one of another passage about the
    one asked for.
    """
    wanted = frozenset(term_key(t) for t in question_terms)
    if not wanted or not candidates:
        return []
    if not precision.found(wanted, candidates):
        return []
    extra = frozenset(word_key(t) for t in context_terms) - wanted
    total = len(candidates)
    weight = {
        term: math.log(1 + total / (1 + sum(term in c.terms for c in candidates)))
        for term in wanted | extra
    }

    # A number the question asks for numbers the word before it ("rule number 3", "chapter 3").
    # Once a sentence writes it, a heading lends it only when it names that word too: "Chapter 3"
    # numbers a chapter, and the rule under it is not "rule number 3".
    numbered = {
        t: term_key(before)
        for before, t in itertools.pairwise(question_terms)
        if t.isdigit() and any(t in c.terms for c in candidates)
    }

    def numbers_not_lent(headings: frozenset[str]) -> frozenset[str]:
        return frozenset(t for t, noun in numbered.items() if noun not in headings)

    def points(c: Candidate, terms: frozenset[str], borrowed: frozenset[str]) -> float:
        # A sentence inherits half the weight of question words its section headings name:
        # under "Retry policy", "it waits 1 second, then 2" is about the retry policy. A word
        # its own (innermost) heading names counts fully and then half again, so "How do I
        # install citecast on Linux?" prefers what the "Linux" section says over a macOS
        # sentence that merely mentions Linux.
        hits = terms & c.terms
        not_lent = numbers_not_lent(c.topic | c.context | borrowed)
        topical = (terms & c.topic) - not_lent
        inherited = (terms & (c.context | borrowed)) - hits - topical - not_lent
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

    # "The retry policy …" is another policy than "your refund policy", once a sentence of
    # another passage may answer about the refunds: it is not quoted, and the head noun that
    # only such sentences hold is no word the passages hold (extractive_heads)
    others = other_kinds(compounds, candidates, counted, [enough(i) for i in range(total)])
    if others:
        counted &= frozenset().union(
            *(held_words(c) for i, c in enumerate(candidates) if i not in others)
        )
    first = [score(c) if enough(i) and i not in others else 0.0 for i, c in enumerate(candidates)]
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
        (score(c, lead.context) if enough(i, lead.context) and i not in others else 0.0)
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
