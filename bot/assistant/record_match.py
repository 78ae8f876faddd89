"""Which record, if any, a question is about: the relevance bar for the extractive record lines.

One shared word is not enough ("per" in "per workspace", "1" in "within 1 hour"). A record is
about the question when a distinctive question word names it (is in its label), or when its
label, values and column names cover at least half of the question's words — the same coverage
rule passages must meet. Among the records that pass, the best named leads: a distinctive word
in the label weighs fully, one in a shown value half. Others join it when the question names
them too ("Compare Team and Business") or cannot tell them from it (see :func:`named_records`).
Whether a named record then leads the answer over the passages is weighed by the question words
it answers (:func:`answered_terms`): one named by its label answers its table's name and its
column names too, "warehouse" and "manages" for the Hamburg record's ``manager`` of a
``warehouses`` table.

A record is named by its id as well, when a whole word of the question is that id ("PX-200" in
"What does PX-200 cost?", :func:`named_by_id`), though its label and values do not hold it: the
id is what the lookup found it by, and how people who know the table ask about a row.

A question that names no record may be about the table as a whole ("Which plans are there and
what do they cost?"): the table's name and description must then cover more than half of the
question's words (its column names count too; "list" or "available" count for nothing), so "How
do I contact support?" does not list a table with a ``support`` column.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.knowledge.records import record_terms
from bot.knowledge.terms import STOP_WORDS, stem, words
from bot.models import Source


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words(text))


def record_score(
    record: Source, question_terms: Sequence[str], weights: Mapping[str, float]
) -> float:
    """How well ``record`` matches the question (0 when it does not meet the bar).

    ``weights`` maps the question's distinctive stems to their weight in the record's table
    (:meth:`bot.knowledge.records.RecordTables.distinctive_weights`).
    """
    wanted = frozenset(stem(t) for t in question_terms)
    if not wanted:
        return 0.0
    label = _stems(record.label or "")
    everything = record_terms(record)
    named = label & weights.keys()
    mentioned = (everything & weights.keys()) - named
    if not named and not mentioned:
        return 0.0
    covered = covered_terms(record, question_terms)
    if not named and len(covered) * 2 < len(wanted):
        return 0.0
    return sum(weights[t] for t in named) + 0.5 * sum(weights[t] for t in mentioned)


# what surrounds a word without being part of it: "PX-200?" and "(PX-200)" are "PX-200"
_AROUND = "\"'`“”‘’()[]{}<>.,;:!?"


def id_words(question: str) -> frozenset[str]:
    """The whole words of ``question`` that may be a record's id, as written ("PX-200" of
    "What does PX-200 cost?"). A number or a stop word only when it is the whole question:
    "2" in "Can I get 2 seats?" names no row 2, nor "it" in "Is it free?" a row "IT"."""
    found = [word.strip(_AROUND) for word in question.split()]
    found = [word for word in found if word]
    if len(found) == 1:
        return frozenset(found)
    return frozenset(
        word
        for word in found
        if any(char.isalpha() for char in word) and word.casefold() not in STOP_WORDS
    )


def row_id(record: Source) -> str:
    """The row id of ``record``: its id after ``<table>/`` (a table name has no ``/``)."""
    return record.id.partition("/")[2]


def named_by_id(records: Sequence[Source], question_words: frozenset[str]) -> list[Source]:
    """The records of ``records`` whose row id is one of ``question_words`` (:func:`id_words`),
    in their order: the one written exactly so, else those differing from it only in letter
    case, as a lookup of the id alone finds them ("ABC" names ``ABC``, not ``abc``, when the
    table has both)."""
    wanted: set[str] = set()
    for word in question_words:
        exact = [r.id for r in records if row_id(r) == word]
        folded = [r.id for r in records if row_id(r).casefold() == word.casefold()]
        wanted.update(exact or folded)
    return [record for record in records if record.id in wanted]


def id_terms(record: Source, question_terms: Sequence[str]) -> frozenset[str]:
    """The question's (stemmed) words in ``record``'s row id ("px" and "200" for PX-200)."""
    wanted = frozenset(stem(t) for t in question_terms)
    return wanted & _stems(row_id(record))


def names(record: Source, weights: Mapping[str, float]) -> bool:
    """Whether a distinctive question word (a key of ``weights``) is in ``record``'s label."""
    return bool(naming_words(record, weights))


def naming_words(record: Source, weights: Mapping[str, float]) -> frozenset[str]:
    """The distinctive question words (keys of ``weights``) in ``record``'s label."""
    return _stems(record.label or "") & weights.keys()


def covered_terms(record: Source, question_terms: Sequence[str]) -> frozenset[str]:
    """The question's (stemmed) words in the record's label, shown values or column names."""
    wanted = frozenset(stem(t) for t in question_terms)
    columns = _stems(" ".join(record.columns or {}))
    return wanted & (record_terms(record) | columns)


def answered_terms(record: Source, question_terms: Sequence[str]) -> frozenset[str]:
    """:func:`covered_terms` of a record the question names by its label, with the words its
    table's name and its column names answer: "Who manages the Hamburg warehouse?" asks the
    ``warehouses`` table's Hamburg record for its ``manager``, so "warehouse" and "manages" are
    answered by that record as much as "Hamburg" is, though its line holds neither word.

    Only for a named record: that a table is about warehouses, or has a manager column, says
    nothing about which of its records a question means."""
    wanted = frozenset(stem(t) for t in question_terms)
    # a record's id is "<table>/<row id>", and a table's name has no "/" (check_names)
    table = _stems(record.id.partition("/")[0].replace("_", " "))
    return covered_terms(record, question_terms) | (wanted & (table | _doer_stems(record)))


def _doer_stems(record: Source) -> frozenset[str]:
    """The stems of the verbs the record's column names are doers of: "manages" for a
    ``manager`` column, "owns" for ``owner``, "edits" for ``editor``. The doer's "-er" or "-or"
    read as the "-ed" of its verb ("managed", "owned", "edited") gives the stemmer's repairs
    ("shipper" is "ship", "driver" "drive"); a column name that only looks like a doer
    ("order", "number") gives a stem a question hardly ever holds ("ord", "numb"). A name of
    four letters is too short to tell: a ``user`` column does not answer "use"."""
    return frozenset(
        stem(word[:-2] + "ed")
        for word in words(" ".join(record.columns or {}))
        if len(word) > 4 and word.endswith(("er", "or"))
    )


def best_record(
    records: Sequence[Source], question_terms: Sequence[str], weights: Mapping[str, float]
) -> Source | None:
    """The record of ``records`` (best search match first) the question is most about, if any."""
    best: Source | None = None
    best_score = 0.0
    for record in records:
        score = record_score(record, question_terms, weights)
        if score > best_score:  # strictly better: on a tie the search order decides
            best, best_score = record, score
    return best


def named_records(
    records: Sequence[Source], question_terms: Sequence[str], weights: Mapping[str, float]
) -> list[Source]:
    """The records of ``records`` (best search match first) the question names, best first.

    The best record (:func:`best_record`) leads. Another one joins it when the question cannot
    tell them apart (the same score from the same label words, or from values alone: "Which
    plans have unlimited seats?" when two have), or when its label names a distinctive
    question word that neither a label nor a column name of the records before it has
    ("Compare Team and Business"). So a word a record only has in its values ("business
    days") names nothing, and "What support does Enterprise include?" asks about Enterprise's
    ``support`` column, not for the "Priority support add-on".
    """
    scored = [(record_score(r, question_terms, weights), i, r) for i, r in enumerate(records)]
    ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))
    if not ranked:
        return []
    top = ranked[0][0]
    best_words = _stems(ranked[0][2].label or "") & weights.keys()
    named: list[Source] = []
    claimed: set[str] = set()
    for score, _, record in ranked:
        own = _stems(record.label or "") & weights.keys()
        tied = math.isclose(score, top) and own == best_words
        if not named or tied or own - claimed:
            named.append(record)
            claimed |= own | _stems(" ".join(record.columns or {}))
    return named


# Words that ask for a listing without saying what of: "Which plans are available?" is about
# plans alone, so these neither count for nor against a table.
_LISTING = frozenset(stem(w) for w in ("list", "available", "offer", "offered", "exist"))


def about_whole_table(topic_terms: frozenset[str], question_terms: Sequence[str]) -> bool:
    """True when the table's ``topic_terms`` (name, column names and description; see
    :meth:`RecordTables.topic_terms`) cover more than half of the question's words."""
    wanted = frozenset(stem(t) for t in question_terms) - _LISTING
    covered = wanted & topic_terms
    return bool(covered) and len(covered) * 2 > len(wanted)
