"""Which parts of a question the sentences of an extractive answer answer.

A sentence after the best one is worth quoting from another passage only when it answers a
part of the question that the sentences already quoted leave open: it holds a question word
(itself, or its own heading) that none of them holds (:func:`adds_a_part`). "Which Python
version does citecast need?" is answered by "citecast needs Python version 3.11 or newer";
"After an upgrade, citecast may refuse an old index" under "The index was built by an older
version" holds no word that sentence lacks, so it only repeats the question's words in
another sense. One that answers the question again in its own words (not its headings) may
follow too: "Secrets never belong in the file: write `${SLACK_BOT_TOKEN}` …" after the Slack
setup's "Put the bot token … in the environment", for "How do I keep the Slack bot token out
of config.yaml?". A two-part question ("How do I connect citecast to Slack and Discord?") gets
each part: the Slack steps hold "slack", which the Discord steps do not. Each part of two or
more words gets the sentence it would be answered with if asked alone (:func:`part_leads`),
even when a sentence that leads the whole question holds that part's words in passing.

Sentences of a passage already quoted follow the usual rules (they continue what it says), and
so do those of a section that encloses the best sentence's one ("Install" around "Install >
Linux"), but not of a document's opening passage, which introduces the whole document rather
than one of its sections.

A sentence under a heading that names other question words than the best sentence's heading
is held to that heading (see :func:`bot.assistant.extractive.choose_sentences`) unless it
answers another part of the question (:func:`answers_another_part`): "connect citecast to
Slack?" must not answer "How do I connect citecast to Discord?", but answers half of "… to
Slack and Discord?".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from bot.assistant.extractive_candidates import Candidate
from bot.assistant.extractive_compounds import answer_terms, term_key
from bot.assistant.extractive_precision import can_lead
from bot.assistant.extractive_sections import encloses

# what joins the parts of a question that asks two things
_AND = re.compile(r"\s(?:and|&|as well as)\s", re.IGNORECASE)


def said(
    group: Iterable[int], candidates: Sequence[Candidate], counted: frozenset[str]
) -> frozenset[str]:
    """The ``counted`` question words the sentences of ``group`` hold, in their own words or
    their own (innermost) heading: not the headings above it, which a whole page shares ("Slack
    and Discord integration FAQ" names Slack above the Discord steps)."""
    out: frozenset[str] = frozenset()
    for i in group:
        out |= counted & (candidates[i].terms | candidates[i].topic)
    return out


def question_parts(question: str) -> list[frozenset[str]]:
    """The words (stemmed keys) of each part of a question that asks two or more things joined
    by "and" ("How do I set up email answers and which mail is ignored?"); none for a question
    that asks one."""
    pieces = [piece for piece in _AND.split(question) if piece.strip()]
    if len(pieces) < 2:
        return []
    return [frozenset(term_key(t) for t in answer_terms(piece)) for piece in pieces]


def answers_another_part(
    own: frozenset[str], lead: frozenset[str], parts: Sequence[frozenset[str]]
) -> bool:
    """Whether a sentence that holds the question words ``own`` answers a part of a question of
    several ``parts`` (:func:`question_parts`) with words the best sentence (which holds
    ``lead``) lacks. A question of one part has no other part: "Can you check the attached
    mail?" is not answered by the health checks beside the mail rules."""
    return any((part & own) - lead for part in parts)


def adds_a_part(
    group: Sequence[int],
    chosen: Sequence[int],
    candidates: Sequence[Candidate],
    counted: frozenset[str],
    weight: Mapping[str, float],
) -> bool:
    """Whether a sentence (the last of ``group``, which holds what it is read with) may follow
    the ``chosen`` ones (the best first).

    It may when it is of a passage one of them is of, or holds a ``counted`` question word none
    of them holds. Else, one of a section that encloses the best one's section may, unless that
    is its document's opening passage ("Install" frames "Install > Linux"; the introduction
    frames no one section); any other may when its own words (not its headings) answer the
    question again, in another passage's words: they hold every question word the quoted
    sentences hold, or more than half of the counted words, each weighed by how rare it is
    (``weight``), as the best sentence must (see
    :func:`bot.assistant.extractive_precision.can_lead`).
    """
    if not chosen:
        return True
    c, lead = candidates[group[-1]], candidates[chosen[0]]
    if any(candidates[j].rank == c.rank for j in chosen):
        return True
    quoted = said(chosen, candidates, counted)
    if said(group, candidates, counted) - quoted:
        return True
    if encloses(c.source, lead.source):
        return " > " in (c.source.section or "")
    words = frozenset().union(*(candidates[j].terms for j in group))
    return quoted <= words or can_lead(words, counted, frozenset(), weight)


def covers_a_part(
    held: frozenset[str], counted: frozenset[str], parts: Sequence[frozenset[str]]
) -> bool:
    """Whether a sentence that holds ``held`` (with its headings and what it is read with)
    holds more than half of the ``counted`` words of one of the question's ``parts``
    (:func:`question_parts`) that has two or more: "Expense: Hotel; Limit per day: 140 EUR"
    answers "the hotel limit" of "What is the hotel limit and when does the car park open?",
    though it holds two of the question's five words. A part of one word ("… and Discord?")
    is no more than a word of the question."""
    for part in parts:
        words = part & counted
        if len(words) >= 2 and 2 * len(held & words) > len(words):
            return True
    return False


def opens_a_part(
    group: Sequence[int],
    chosen: Sequence[int],
    candidates: Sequence[Candidate],
    counted: frozenset[str],
    parts: Sequence[frozenset[str]],
) -> bool:
    """Whether the sentences of ``group`` answer a part of the question (:func:`covers_a_part`,
    in their own words or their own heading) that the ``chosen`` sentences hold no word of
    besides the words it shares with another part: the sentences of each part of a two-part
    question score by their part's words alone, so a part's best one may score well below the
    other part's."""
    own = said(group, candidates, counted)
    quoted = said(chosen, candidates, counted)
    for n, part in enumerate(parts):
        shared = frozenset().union(*(p for m, p in enumerate(parts) if m != n))
        if covers_a_part(own, counted, [part]) and not (part - shared) & quoted:
            return True
    return False


def part_leads(
    order: Sequence[int],
    top: int,
    candidates: Sequence[Candidate],
    counted: frozenset[str],
    parts: Sequence[frozenset[str]],
    weight: Mapping[str, float],
) -> list[int]:
    """The sentence that answers each part of a question (:func:`question_parts`) best, by the
    part's own words alone (``part_score``), where that is not the best sentence ``top``: the
    one each part would be answered with if it were asked alone: a part's word counts by its
    rarity (``weight``) where the sentence holds it and half again where its own heading names
    it, as when sentences are scored; the headings above it, which a whole page shares, count
    for nothing here.

    ``order`` holds the sentences that may be quoted. A tie goes to the best sentence (which
    then answers the part itself), else to the first in reading order, which opens what its
    section says. Only a part of two or more counted
    words has one, and only a sentence that holds most of them (:func:`covers_a_part`) in its
    own words or its own heading answers it. So for "How do I connect citecast to Slack and
    how long can a Discord answer be?" the Discord steps, which hold "answer" ("List the
    channel ids citecast should answer in") and lead by the whole question's words, do not
    answer the second part: "Discord limits a message to 2,000 characters" under "How long can
    a Discord answer be?" does.
    """
    leads: list[int] = []
    for part in parts:
        words = part & counted
        if len(words) < 2:
            continue
        able = [
            i
            for i in dict.fromkeys([top, *order])
            if covers_a_part(said([i], candidates, counted), counted, [words])
        ]
        if not able:
            continue
        best = max(
            able,
            key=lambda i: (
                _part_score(candidates[i], words, weight),
                i == top,
                -candidates[i].rank,
                -candidates[i].position,
            ),
        )
        if best != top and best not in leads:
            leads.append(best)
    return leads


def _part_score(c: Candidate, words: frozenset[str], weight: Mapping[str, float]) -> float:
    own, topical = words & (c.terms | c.topic), words & c.topic
    return sum(weight[t] for t in own) + 0.5 * sum(weight[t] for t in topical)
