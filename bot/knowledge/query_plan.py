"""Bounded-cost BM25 search: which question words the FTS5 query ranks on.

FTS5 computes BM25 for every row that matches before ``ORDER BY rank LIMIT k`` can cut, so an OR
of a very common word costs time proportional to the corpus. The plan probes each word's
document frequency (capped, so the probe itself is cheap), ranks on the rarer words whose matches
fit in a budget of rows, and keeps the dropped common words as a small re-ranking boost for the
candidates (their BM25 weight is low anyway). When even the rarest word is common, it ranks the
intersection of all words if that fits, else only the first ``budget`` matching rows.
A small corpus never hits the budget, so its ranking is exactly BM25 over every word.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass

from bot.knowledge.cjk import fts_phrase, is_cjk_term
from bot.knowledge.terms import query_terms, stem

NO_CAP = 2**62
_COUNT = "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
_NTH_ROWID = (
    "SELECT max(rowid) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
)


@dataclass(frozen=True)
class QueryPlan:
    """An FTS5 MATCH expression, a rowid cap for ranking, and boosts for dropped words."""

    match: str
    max_rowid: int = NO_CAP
    boosts: tuple[tuple[re.Pattern[str], float], ...] = ()

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
    return re.compile(r"\b" + re.escape(stem(term)), re.IGNORECASE)


def plan_query(conn: sqlite3.Connection, query: str, budget: int = 1000) -> QueryPlan | None:
    """The plan for ``query``, or None when it has no searchable word or none matches."""
    terms = query_terms(query)[:32]
    if not terms:
        return None
    df = {t: int(conn.execute(_COUNT, (_quote(t), budget + 1)).fetchone()[0]) for t in terms}
    present = sorted((t for t in terms if df[t]), key=lambda t: df[t])
    if not present:
        return None
    chosen: list[str] = []
    rows = 0
    for term in present:
        if chosen and rows + df[term] > budget:
            break
        chosen.append(term)
        rows += df[term]
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
    match = " OR ".join(_quote(t) for t in chosen)
    if rows <= budget:
        return QueryPlan(match, NO_CAP, boosts)
    if len(present) > 1:  # every word is common: try their intersection
        both = " AND ".join(_quote(t) for t in present)
        if 0 < int(conn.execute(_COUNT, (both, budget + 1)).fetchone()[0]) <= budget:
            return QueryPlan(both)
    cap = conn.execute(_NTH_ROWID, (match, budget)).fetchone()[0]
    return QueryPlan(match, int(cap or NO_CAP), boosts)
