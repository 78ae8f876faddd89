"""Bounded-cost BM25 search: which question words the FTS5 query ranks on.

FTS5 computes BM25 for every row that matches before ``ORDER BY rank LIMIT k`` can cut, so an OR
of a very common word costs time proportional to the corpus. The plan probes each word's
document frequency (capped, so the probe itself is cheap), ranks on the rarer words whose matches
fit in a budget of rows, and keeps the dropped common words as a small re-ranking boost for the
candidates (their BM25 weight is low anyway). When even the rarest word is common, it ranks the
intersection of all words if that fits, else only the first ``budget`` matching rows.
A small corpus never hits the budget, so its ranking is exactly BM25 over every word.

The probes count every row, whoever may read it, so a plan cut to the budget may hold only rows
a viewer may not see (the rare word is in private documents only; the viewer's documents come
after a large private part of the index). When the viewer's search finds too few rows and some
were hidden, :func:`widen` ranks every word's matches up to the ``budget``-th row that viewer may
see: what the plan would have been had the hidden rows not been counted, near enough.

A compound of the question ("2.4.1", "config.yaml", :func:`bot.knowledge.terms.compound_terms`)
is ranked as a phrase beside its words, so the passage that writes it comes before one that
only holds its parts ("1.4.2").

A word whose forms FTS5's Porter tokenizer reads as two tokens ("status" and "statuses",
:func:`bot.knowledge.word_forms.search_forms`) is one term of the plan: its forms that the
index holds are ORed in brackets, so it is chosen, dropped to a boost or intersected whole.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.knowledge.cjk import fts_phrase, is_cjk_term
from bot.knowledge.terms import compound_terms, query_terms, stem
from bot.knowledge.word_forms import query_forms

NO_CAP = 2**62
_COUNT = "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
_NTH_ROWID = (
    "SELECT max(rowid) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
)
_COUNT_BELOW = (
    "SELECT count(*) FROM "
    "(SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid <= ? LIMIT ?)"
)
_NTH_VISIBLE_ROWID = (
    "SELECT max(rowid) FROM (SELECT chunks_fts.rowid AS rowid FROM chunks_fts "
    "JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? "
    "AND EXISTS (SELECT 1 FROM json_each(?) AS g "
    "WHERE instr(c.audience, '|' || g.value || '|') > 0) "
    "ORDER BY chunks_fts.rowid LIMIT ?)"
)


@dataclass(frozen=True)
class QueryPlan:
    """An FTS5 MATCH expression, a rowid cap for ranking, and boosts for dropped words.

    ``wider`` is set when the plan leaves out rows that hold a word of the question (a word
    dropped to a boost, an intersection, a cap): the OR of every word, which :func:`widen`
    caps for one viewer.
    """

    match: str
    max_rowid: int = NO_CAP
    boosts: tuple[tuple[re.Pattern[str], float], ...] = ()
    wider: QueryPlan | None = None

    def adjust(self, rank: float, text: str) -> float:
        """``rank`` (FTS5: lower is better) improved by the dropped words found in ``text``."""
        if not self.boosts:
            return rank
        return rank - sum(weight for word, weight in self.boosts if word.search(text))


def _quote(term: str) -> str:
    return fts_phrase(term)


def _boost_pattern(term: str) -> re.Pattern[str]:
    # A CJK term stands inside a run of word characters ("の東京"), where \b never matches.
    if is_cjk_term(term):
        return re.compile(re.escape(term))
    if " " in term:  # a compound: its words with any separator ("2.4.1", "2-4-1")
        parts = (re.escape(part) for part in term.split())
        return re.compile(r"\b" + r"[\W_]+".join(parts) + r"\b", re.IGNORECASE)
    prefix = stem(term)
    if len(prefix) > 3 and prefix.endswith("e"):
        prefix = prefix[:-1]  # "store" also finds "storing", "hope" "hoping"
    return re.compile(r"\b" + re.escape(prefix), re.IGNORECASE)


def _probe(conn: sqlite3.Connection, forms: tuple[str, ...], budget: int) -> tuple[int, str]:
    """How many rows hold one of a term's ``forms`` (each counted up to ``budget + 1``) and
    the expression that matches them.

    A word searched in several forms (:func:`bot.knowledge.word_forms.search_forms`) counts
    the sum of its forms' rows, an overestimate only where a row holds two; forms no row
    holds are left out of its expression, so a word is one phrase unless the index really
    has it in two forms Porter reads apart.
    """
    counts = [int(conn.execute(_COUNT, (_quote(f), budget + 1)).fetchone()[0]) for f in forms]
    found = [_quote(f) for f, n in zip(forms, counts, strict=True) if n] or [_quote(forms[0])]
    if len(found) == 1:
        return sum(counts), found[0]
    return sum(counts), "(" + " OR ".join(found) + ")"


def rarest_within(
    terms: Sequence[str], rows: Mapping[str, int], budget: int
) -> tuple[list[str], int]:
    """The first of ``terms`` (rarest first) whose ``rows`` fit ``budget`` together, at least
    one, and how many rows they hold: the words a bounded search ranks on (records too,
    ``bot.knowledge.record_ranking``)."""
    chosen: list[str] = []
    total = 0
    for term in terms:
        if chosen and total + rows[term] > budget:
            break
        chosen.append(term)
        total += rows[term]
    return chosen, total


def plan_query(conn: sqlite3.Connection, query: str, budget: int = 1000) -> QueryPlan | None:
    """The plan for ``query``, or None when it has no searchable word or none matches."""
    words = query_terms(query)
    if not words:
        return None
    units = [*((c, (c,)) for c in compound_terms(query)), *query_forms(words)][:32]
    terms = [term for term, _ in units]
    df: dict[str, int] = {}
    quoted: dict[str, str] = {}
    for term, forms in units:
        df[term], quoted[term] = _probe(conn, forms, budget)
    present = sorted((t for t in terms if df[t]), key=lambda t: df[t])
    if not present:
        return None
    chosen, rows = rarest_within(present, df, budget)
    total = int(conn.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()[0])
    # A dropped word counts when a word starting with its stem is in the text ("kettle" also
    # finds "kettles"), which is close to what the Porter tokenizer matched.
    boosts = tuple(
        (
            _boost_pattern(t),
            math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5)),
        )
        for t in present
        if t not in chosen
    )
    match = " OR ".join(quoted[t] for t in chosen)
    every = None if chosen == present else QueryPlan(" OR ".join(quoted[t] for t in present))
    if rows <= budget:
        return QueryPlan(match, NO_CAP, boosts, wider=every)
    every = every or QueryPlan(match)
    if len(present) > 1:  # every word is common: try their intersection
        both = " AND ".join(quoted[t] for t in present)
        if 0 < int(conn.execute(_COUNT, (both, budget + 1)).fetchone()[0]) <= budget:
            return QueryPlan(both, wider=every)
    cap = conn.execute(_NTH_ROWID, (match, budget)).fetchone()[0]
    return QueryPlan(match, int(cap or NO_CAP), boosts, wider=every)


def widen(
    conn: sqlite3.Connection, plan: QueryPlan, viewer: str, found: int, budget: int = 1000
) -> QueryPlan | None:
    """For a viewer (a JSON list of groups) who found only ``found`` rows with ``plan``:
    ``plan.wider`` capped at the ``budget``-th matching row they may see. None when ``plan``
    left nothing out, when the viewer saw every row it matched (the audience hid nothing, so
    the result stays exactly as before), or when the viewer may see no match at all.

    Ranking the wider plan costs the rows up to that cap, including those the viewer may not
    see: more than ``plan``, bounded by the corpus.
    """
    if plan.wider is None:
        return None
    matched = conn.execute(_COUNT_BELOW, (plan.match, plan.max_rowid, found + 1)).fetchone()[0]
    if int(matched) <= found:
        return None
    cap = conn.execute(_NTH_VISIBLE_ROWID, (plan.wider.match, viewer, budget)).fetchone()[0]
    if cap is None:
        return None
    return replace(plan.wider, max_rowid=int(cap))
