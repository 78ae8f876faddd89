"""Bounded-cost ranking of a record table's rows: which question words a lookup ranks on.

FTS5 scores every row a MATCH finds before ``ORDER BY rank LIMIT k`` can cut, and the built-in
answerer looks every question up in every table it may see: an OR over a word most rows of a
100,000-row table hold scored all of them (50–175 ms a question, under the tables' lock). As
:mod:`bot.knowledge.query_plan` does for passages, a lookup first counts the rows holding each
question word (each count stops past the budget, so counting is cheap), ranks on the rarer
words whose rows fit in the budget together, and moves those candidates up by the common words
they also hold (a small boost: BM25 weighs a common word little anyway). When even the rarest
word is in more rows than the budget, it ranks the rows holding every word if they fit, else
the first ``budget`` rows holding one.

A lookup whose words' rows fit in the budget (any question of a table of up to ``budget``
rows, most of a larger one) runs the very query it always did: BM25 over every word.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.knowledge.cjk import fts_phrase
from bot.knowledge.query_plan import rarest_within
from bot.knowledge.terms import query_terms, stem
from bot.knowledge.word_forms import query_forms

ROW_BUDGET = 2000
# candidates ranked on the rarer words, for the dropped common words to reorder
_CANDIDATES_PER_RESULT = 4


@dataclass(frozen=True)
class RowRanking:
    """How one lookup ranks: a MATCH expression, an optional last rowid, and boosts.

    ``boosts`` holds each dropped word's stem and weight: a candidate holding it moves up by
    that weight, as BM25 (lower is better in FTS5) would have scored it.
    """

    match: str
    max_rowid: int | None = None
    boosts: tuple[tuple[str, float], ...] = ()


def _count(conn: sqlite3.Connection, fts: str, match: str, cap: int) -> int:
    sql = f"SELECT count(*) FROM (SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?)"  # noqa: S608
    return int(conn.execute(sql, (match, cap)).fetchone()[0])


def _either(phrases: list[str]) -> str:
    return phrases[0] if len(phrases) == 1 else "(" + " OR ".join(phrases) + ")"


def plan_ranking(
    conn: sqlite3.Connection,
    fts: str,
    query: str,
    stem_counts: Mapping[str, int],
    total: int,
    budget: int = ROW_BUDGET,
) -> RowRanking | None:
    """The ranking of ``query`` over FTS5 table ``fts`` (None when it has no searchable word).

    ``stem_counts`` (stem -> records holding it) and ``total`` (the table's records) weigh the
    dropped words; the rows each word matches are counted by the index itself, as it matches.
    """
    units = query_forms(query_terms(query)[:32])
    if not units:
        return None
    every = " OR ".join(fts_phrase(form) for _, forms in units for form in forms)
    rows: dict[str, int] = {}
    phrases: dict[str, str] = {}
    for term, forms in units:
        quoted = [fts_phrase(form) for form in forms]
        rows[term] = sum(_count(conn, fts, phrase, budget + 1) for phrase in quoted)
        phrases[term] = _either(quoted)
    if sum(rows.values()) <= budget:
        return RowRanking(every)  # the query as it always was: nothing to bound
    present = sorted((term for term, _ in units if rows[term]), key=lambda t: rows[t])
    chosen, ranked = rarest_within(present, rows, budget)
    match = " OR ".join(phrases[t] for t in chosen)
    if ranked > budget and len(present) > 1:  # every word is common: rows holding them all
        both = " AND ".join(phrases[t] for t in present)
        if 0 < _count(conn, fts, both, budget + 1) <= budget:
            return RowRanking(both)
    boosts = tuple(
        (stem(t), _weight(stem_counts.get(stem(t), rows[t]), total))
        for t in present
        if t not in chosen
    )
    if ranked <= budget:
        return RowRanking(match, boosts=boosts)
    last = conn.execute(
        f"SELECT max(rowid) FROM (SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?)",  # noqa: S608
        (match, budget),
    ).fetchone()[0]
    return RowRanking(match, None if last is None else int(last), boosts)


def _weight(holding: int, total: int) -> float:
    # BM25's inverse document frequency, as FTS5 computes it (never below a small floor)
    return max(math.log((total - holding + 0.5) / (holding + 0.5)), 1e-6)


def ranked_rows(
    conn: sqlite3.Connection,
    fts: str,
    ranking: RowRanking,
    count: int,
    terms_of: Callable[[int], frozenset[str]],
) -> list[int]:
    """The best ``count`` rowids of ``fts`` by ``ranking``; ``terms_of`` gives a row's stems
    (for the boosts of dropped words)."""
    wanted = count * _CANDIDATES_PER_RESULT if ranking.boosts else count
    where = f"{fts} MATCH ?"
    params: tuple[object, ...] = (ranking.match,)
    if ranking.max_rowid is not None:
        where += " AND rowid <= ?"
        params += (ranking.max_rowid,)
    found = [
        (int(row[0]), float(row[1]))
        for row in conn.execute(
            f"SELECT rowid, rank FROM {fts} WHERE {where} ORDER BY rank LIMIT ?",  # noqa: S608
            (*params, wanted),
        )
    ]
    if not ranking.boosts:
        return [rowid for rowid, _ in found]

    def boosted(candidate: tuple[int, float]) -> float:
        held = terms_of(candidate[0])
        return candidate[1] - sum(weight for word, weight in ranking.boosts if word in held)

    # a stable sort: candidates the boosts leave level keep the rarer words' order
    return [rowid for rowid, _ in sorted(found, key=boosted)][:count]
