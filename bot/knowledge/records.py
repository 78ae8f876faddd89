"""Record tables (CSV files or SQLite tables named in ``index.records``) searchable by the tools.

Only the configured ``columns`` (plus the label) are kept from each row, so a column that is not
listed (an internal cost, say) can never reach the model or a citation. Each table is loaded once,
on first use, into an in-memory FTS5 table over the label, the kept columns and the row's id
(so a lookup by key, ``CC-TEAM``, finds its record first); which words a lookup ranks on, so that
a word most rows of a large table hold does not score them all, is
:mod:`bot.knowledge.record_ranking`. Reading rows is
:mod:`bot.knowledge.record_rows`; templates are :mod:`bot.knowledge.record_templates`; turning
rows into Sources is :mod:`bot.knowledge.record_sources`.

A record becomes a Source with ``kind="record"``, ``id`` ``"<table>/<row id>"`` (the
``id_column`` value, else the 1-based row number; a value an earlier row already has gets
``#<row number>`` after it, and a row whose ``id_column`` is blank is ``#<row number>``, each
with a warning, so two rows are never one citation and a row without an id never takes
another's; see :mod:`bot.knowledge.record_sources`), ``label`` (``label_column`` or
``label_template`` such as ``{name} ({sku})``, which may use any column of the row; on one
line; a blank one becomes the table name and row id), ``columns`` (each under its label from
``column_labels`` when it has one) and ``action``
(``action_url_template`` with URL-quoted row values; only http, https and mailto URLs).

A row the templates cannot fill (``{name[3]}`` of a shorter name) keeps its place with the
default label or without an action, and one warning per reason says how many rows did; when no
row can be filled the template is wrong, and that is a ConfigError naming it. A row whose
action URL would use a blank value (``https://example.com/buy/`` for a row without a ``sku``,
an empty ``mailto:``) has no action either, with the same kind of warning, but never a
ConfigError: a blank value is the row's (a product without a page yet), not the template's.

Audience is per table, written as a document's is (``[staff]``, ``"staff, hr"``; one that names
no group is refused at start): to a viewer outside a table's ``audience`` the table does not exist
(a lookup fails as for an unknown name, before the table is read, so neither its rows, its
file nor whether it can be read is ever told).
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.config import RecordTable
from bot.errors import ConfigError, KnowledgeIndexError
from bot.knowledge.audience import viewer_audience
from bot.knowledge.cjk import fts_text
from bot.knowledge.record_labels import shown_names
from bot.knowledge.record_ranking import plan_ranking, ranked_rows
from bot.knowledge.record_rows import check_names, table_key, with_audiences
from bot.knowledge.record_sources import read_records
from bot.knowledge.terms import STOP_WORDS, fts_query, stem, words
from bot.models import Source

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSummary:
    """What the assistant is told about one record table: the columns it may show (under
    the names its records carry them, ``column_labels``) and why anyone would ask about it
    (the configured ``description``, possibly empty)."""

    columns: tuple[str, ...]
    description: str = ""


def check_tables(tables: Sequence[RecordTable], origin: str = "") -> RecordTables | None:
    """Read every configured table as its first lookup will; ConfigError names the key, and
    first ``origin`` when given: the config file the tables come from, which a relative
    ``csv`` or ``sqlite`` path is taken from (``config.yaml: index.records.0.csv: …``), as
    config.yaml's other errors name it.

    ``citecast serve``, ``ask`` and ``eval`` call it at start: tables are otherwise read on
    first use, inside a tool call, where a missing file or column failed every question instead
    of stopping the command with the reason. Returns the tables already read (None when none are
    configured), for the assistant to use, so a large table is not read twice.
    """
    if not tables:
        return None
    try:
        loaded = RecordTables(tables)
        loaded.check()
    except ConfigError as exc:
        if origin:
            raise ConfigError(f"{origin}: {exc}") from None
        raise
    return loaded


class RecordTables:
    """The record tables of ``index.records``, searched with FTS5 BM25."""

    def __init__(self, tables: Sequence[RecordTable]) -> None:
        check_names(tables)
        tables = with_audiences(tables)
        self._tables = {t.name: t for t in tables}
        self._order = [t.name for t in tables]
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        self._records: dict[str, list[Source]] = {}
        # table -> row id as written -> position, and case-folded row id -> positions
        self._keys: dict[str, dict[str, int]] = {}
        self._folded_keys: dict[str, dict[str, list[int]]] = {}
        # table -> stem -> how many records have it, counted once at load: every extractive
        # question asks, and counting then took seconds for a table of 50,000 rows
        self._term_counts: dict[str, Counter[str]] = {}

    @property
    def names(self) -> list[str]:
        """The configured table names, in config order."""
        return list(self._order)

    def visible(self, audience: frozenset[str] | set[str]) -> list[str]:
        """The names of the tables a viewer in ``audience`` may see, in config order."""
        audience = viewer_audience(audience)
        return [
            name
            for name in self._order
            if any(group in audience for group in self._tables[name].audience)
        ]

    def keyed(self, name: str) -> bool:
        """Whether table ``name`` has an ``id_column``: its row ids are values people write,
        not row numbers (a "2" in a question names no row 2)."""
        return bool(self._tables[name].id_column)

    def describe(self, audience: frozenset[str] | set[str]) -> dict[str, TableSummary]:
        """Table name -> its shown columns and description (for the tool description), for the
        tables a viewer in ``audience`` may see: a table's name and description say what it
        holds, which a viewer outside its audience must not learn."""
        tables = [self._tables[name] for name in self.visible(audience)]
        return {t.name: TableSummary(tuple(shown_names(t).values()), t.description) for t in tables}

    def topic_terms(self, name: str) -> frozenset[str]:
        """Stems of the table's name, shown columns (their names and labels) and description:
        what a question about the whole table ("Which plans are there?") says, unlike one
        record's words."""
        table = self._tables[name]
        labels = shown_names(table).values()
        text = " ".join([table.name, *table.columns, *labels, table.description]).replace("_", " ")
        return frozenset(stem(w) for w in words(text) if w not in STOP_WORDS)

    def check(self) -> None:
        """Read every table now (ConfigError naming the key of the first that cannot serve), so
        the first question does not read them again (see ``check_tables``)."""
        for name in self._order:
            with self._lock:
                self._load(name)

    def _load(self, name: str) -> list[Source]:
        loaded = self._records.get(name)
        if loaded is not None:
            return loaded
        table = self._tables[name]
        position = self._order.index(name)
        records = read_records(table, table_key(position))
        prefix = len(name) + 1
        keys = [r.id[prefix:] for r in records]
        fts = f"records_{position}"
        self._db.execute(
            f"CREATE VIRTUAL TABLE {fts} USING fts5(label, body, key, tokenize='porter')"
        )
        self._db.executemany(
            f"INSERT INTO {fts}(rowid, label, body, key) VALUES (?, ?, ?, ?)",  # noqa: S608
            # CJK text as the knowledge index holds it (characters and bigrams, ``fts_text``):
            # ``fts_query`` searches a CJK word as one token
            [
                (i, fts_text(r.label or ""), fts_text(" ".join((r.columns or {}).values())), key)
                for i, (r, key) in enumerate(zip(records, keys, strict=True))
            ],
        )
        folded: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            folded.setdefault(key.casefold(), []).append(i)
        self._keys[name] = {key: i for i, key in enumerate(keys)}
        self._folded_keys[name] = folded
        counts: Counter[str] = Counter()
        for record in records:
            counts.update(record_terms(record))
        self._term_counts[name] = counts
        self._records[name] = records
        return records

    def distinctive_terms(self, name: str, terms: Sequence[str]) -> frozenset[str]:
        """Stems of ``terms`` found in some but at most half of the table's records.

        A word every record shares (the product family name, say) says nothing about which
        record a question is about. Labels and the shown columns' values count.
        """
        return frozenset(self.distinctive_weights(name, terms))

    def distinctive_weights(self, name: str, terms: Sequence[str]) -> dict[str, float]:
        """Each distinctive stem of ``terms`` (see :meth:`distinctive_terms`) and its weight.

        The weight is ``log(1 + records / records containing it)``: a word only one record has
        says more about which record is meant than a word two records share. A table that
        cannot be read has no distinctive words (its lookup reports why): one broken table
        must not stop answers from the others.
        """
        try:
            with self._lock:
                total = len(self._load(name))
                counts = self._term_counts[name]
        except ConfigError as exc:
            log.debug("record table %r cannot be read: %s", name, exc)
            return {}
        found = {t: counts.get(t, 0) for t in {stem(t) for t in terms}}
        return {
            t: math.log(1 + total / n) for t, n in found.items() if n > 0 and n * 2 <= max(total, 2)
        }

    def lookup(
        self, name: str, query: str, audience: frozenset[str] | set[str], limit: int = 5
    ) -> list[Source]:
        """The best ``limit`` records of table ``name`` for ``query`` that the viewer may see.

        A record whose row id is the whole query comes first: the one written exactly so, else
        those whose id differs only in letter case (``abc`` and ``ABC`` are two records, and
        ``ABC`` finds its own first). The viewer always counts as
        ``public`` as well as their groups (:func:`viewer_audience`). A table outside the
        viewer's audience is an unknown table: the same error, and it is not even read.
        Ranking scores at most a budget of rows, however many hold a question word
        (:mod:`bot.knowledge.record_ranking`).
        """
        audience = viewer_audience(audience)
        visible = self.visible(audience)
        if name not in visible:
            # only the tables this viewer may see: the message reaches the model
            known = ", ".join(visible) or "none"
            raise KnowledgeIndexError(f"no record table named {name!r} (tables: {known})")
        with self._lock:
            records = self._load(name)
            exact = self._exact(name, query)
            fts = f"records_{self._order.index(name)}"
            counts = self._term_counts[name]
            ranking = plan_ranking(self._db, fts, query, counts, len(records))
            if ranking is None:
                found = list(range(min(len(records), limit + 1)))
            else:
                # bounded: a word most rows hold must not score them all (record_ranking)
                found = ranked_rows(
                    self._db, fts, ranking, limit + 1, lambda i: record_terms(records[i])
                )
        if exact:
            found = [*exact, *(i for i in found if i not in exact)]
        return [records[i] for i in found[:limit]]

    def count(
        self, name: str, words_all: Sequence[str], audience: frozenset[str] | set[str]
    ) -> int:
        """How many records of table ``name`` hold every one of ``words_all`` (in any of their
        forms, as a lookup finds them), or all its records when none is given: counted by the
        table's FTS index, not by reading its rows, so an answer that shows five rows of
        20,000 can say so. A table the viewer may not see counts nothing."""
        if name not in self.visible(audience):
            return 0
        with self._lock:
            records = self._load(name)
            if not words_all:
                return len(records)
            groups: list[str] = []
            for term in words_all:
                match = fts_query(term)
                if match is None:
                    return len(records)  # a stop word: it narrows nothing down
                groups.append(f"({match})")
            fts = f"records_{self._order.index(name)}"
            row = self._db.execute(
                f"SELECT count(*) FROM {fts} WHERE {fts} MATCH ?",  # noqa: S608
                (" AND ".join(groups),),
            ).fetchone()
        return int(row[0])

    def holds_id(self, name: str, candidates: Iterable[str]) -> bool:
        """Whether one of ``candidates`` is a row id of table ``name``, as written or in another
        letter case. A table that cannot be read answers True: its lookup says why."""
        try:
            with self._lock:
                self._load(name)
                keys, folded = self._keys[name], self._folded_keys[name]
        except ConfigError:
            return True
        return any(word in keys or word.casefold() in folded for word in candidates)

    def _exact(self, name: str, query: str) -> list[int]:
        """Positions of the records whose row id is ``query`` ("CC-TEAM", quoted or not)."""
        key = query.strip().strip("\"'`").strip()
        if not key:
            return []
        position = self._keys[name].get(key)
        if position is not None:
            return [position]
        return self._folded_keys[name].get(key.casefold(), [])


def record_terms(record: Source) -> frozenset[str]:
    """Stems of a record's label and shown column values."""
    values = " ".join([record.label or "", *(record.columns or {}).values()])
    return frozenset(stem(w) for w in words(values))
