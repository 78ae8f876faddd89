"""The record part of an extractive answer: which records lead it, and their lines.

For each record table (config order) the question either names records (one, or several:
"Compare Team and Business"; see :mod:`bot.assistant.record_match`), by their labels or by
their ids ("What does PX-200 cost?" of a table labelled by name), is about the table as a
whole, or neither. Named records come first (at most the answer's limit, half its sentences),
one line each with their shown columns; a question about a whole table gets its first rows as
a list instead. A passage whose own heading holds the question's words ("Support hours" for
"What are the support hours?") answers it as no record sharing a word of it can, and the
records give way (:meth:`RecordPick.giving_way`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from bot.assistant.cited_lines import with_marker
from bot.assistant.extractive_compounds import term_key
from bot.assistant.extractive_precision import NOT_COUNTED
from bot.assistant.record_match import (
    about_whole_table,
    answered_terms,
    covered_terms,
    id_terms,
    id_words,
    named_by_id,
    named_records,
    names,
    naming_words,
)
from bot.assistant.turn import Turn
from bot.knowledge.records import record_terms
from bot.knowledge.terms import stem
from bot.models import Source
from bot.registry import SourceRegistry


@dataclass(frozen=True)
class RecordPick:
    """Records to lead an answer with; ``listing`` when they are a table's first rows.

    ``joined`` holds the ids of records that the question names beside a better one of their
    table ("Compare Team and Business"): each follows the record it joined in ``records``.
    ``labelled`` holds the ids of records a distinctive question word names in their label
    ("Team"), or a whole question word is the row id of ("PX-200"); the others matched by
    their values alone ("2 business days"). ``described`` holds the words of each of their
    tables' name, columns and description (table name -> stems;
    :meth:`bot.knowledge.records.RecordTables.topic_terms`), ``naming`` the distinctive
    question words in each labelled record's label (record id -> stems), ``matched_by`` the
    question words that the lead record holds and at most half of its table's records do (the
    rows "like it": :func:`count_note`).
    """

    records: tuple[Source, ...] = ()
    listing: bool = False
    joined: frozenset[str] = frozenset()
    labelled: frozenset[str] = frozenset()
    described: tuple[tuple[str, frozenset[str]], ...] = ()
    naming: tuple[tuple[str, frozenset[str]], ...] = ()
    matched_by: tuple[str, ...] = ()

    @property
    def by_values_alone(self) -> bool:
        """Whether there are named records and the question names none of them by label."""
        labelled = any(record.id in self.labelled for record in self.records)
        return bool(self.records) and not self.listing and not labelled

    def answered(self, record: Source, question_terms: Sequence[str]) -> frozenset[str]:
        """The question's words ``record`` answers: a record the question names by its label
        answers its table's name and its column names too ("warehouse" and "manages" in "Who
        manages the Hamburg warehouse?"; :func:`answered_terms`) and the words of its table's
        description ("plan" and "cost" in "How much does the Team plan cost?" of a table
        described "Plans and pricing (what each plan costs …)"), any other one the words its
        line holds (:func:`covered_terms`)."""
        if record.id in self.labelled:
            table = dict(self.described).get(record.id.partition("/")[0], frozenset())
            wanted = frozenset(stem(t) for t in question_terms)
            own = answered_terms(record, question_terms) | id_terms(record, question_terms)
            return own | (wanted & table)
        return covered_terms(record, question_terms)

    def keeping(
        self,
        question_terms: Sequence[str],
        explained: int,
        explained_where: Callable[[frozenset[str]], int] | None = None,
    ) -> RecordPick:
        """Named records that answer at least ``explained`` of the question's words (a listing
        is kept whole: the table's name and description already cover most of them). A record
        that joined a better one stands or falls with it: it covers its own part of the
        question ("Business" of "Compare Team and Business"), not as much as the whole.

        A record the question names by its label is held only to what the passages that hold
        those label words explain (``explained_where``, given them): "How much is the Team plan
        per month?" is about Team, which a table of Bronze, Silver and Gold plans priced "per
        month" does not name."""
        if self.listing:
            return self
        naming = dict(self.naming)
        kept: list[Source] = []
        lead_kept = False
        for record in self.records:
            if record.id not in self.joined:
                bar = explained
                if explained_where is not None and naming.get(record.id):
                    bar = explained_where(naming[record.id])
                lead_kept = len(self.answered(record, question_terms)) >= bar
            if lead_kept:
                kept.append(record)
        return replace(self, records=tuple(kept))

    def giving_way(self, asked: Sequence[str], headings: Iterable[frozenset[str]]) -> RecordPick:
        """No named records when a passage's own heading (``headings``: each sentence's
        innermost heading and the FAQ question line it answers, as keys) holds every word of
        ``asked`` that counts, two or more: its document says under that heading what the
        question asks. The passages then explain every word a record could, so a tie at the
        bar of :meth:`keeping` is theirs: "Support" naming the "Priority support add-on" and
        "hours" in its "phone within 1 hour" is not "Support hours" (one heading word alone,
        "Support", is not enough: it names a topic, not the question). A listing stays: the
        question is about the table as a whole."""
        wanted = frozenset(map(term_key, asked)) - NOT_COUNTED
        if self.listing or not self.records or len(wanted) < 2:
            return self
        return RecordPick() if any(wanted <= heading for heading in headings) else self


async def pick_records(turn: Turn, question: str, terms: Sequence[str], limit: int) -> RecordPick:
    """The records the question names (at most ``limit``), or a whole table's first rows.

    Each table's best record comes before any record that joined one (a table does not crowd
    out the next one's best), and a joined record follows the one it joined. A table is looked
    up only when the question could name one of its records (a distinctive word, a row id):
    a lookup on words most of its rows hold finds none it could name, at a cost that grows
    with the table.
    """
    tables = turn.toolbox.records
    if tables is None or not terms:
        return RecordPick()
    groups: list[list[Source]] = []
    matched_by: tuple[str, ...] = ()
    labelled: set[str] = set()
    described: list[tuple[str, frozenset[str]]] = []
    naming: list[tuple[str, frozenset[str]]] = []
    by_id = id_words(question)
    # only the tables this viewer may see: a hidden one must change nothing, not end the walk
    for table in tables.visible(turn.audience):
        weights = tables.distinctive_weights(table, terms)
        keyed_table = tables.keyed(table)
        found_rows: tuple[Source, ...] = ()
        # no distinctive word and no row id: nothing the lookup finds could be named, and
        # ranking a large table on common words alone is what costs (record_ranking)
        if weights or (keyed_table and tables.holds_id(table, by_id)):
            result = await turn.toolbox.fetch_async(
                "lookup_records", {"table": table, "query": question}, turn.audience
            )
            found_rows = result.sources
        found = named_records(found_rows, terms, weights)
        # a record the question names by its id leads, whatever its label and values hold
        keyed = named_by_id(found_rows, by_id) if keyed_table else []
        found = [*keyed, *(record for record in found if record not in keyed)]
        labelled.update(record.id for record in keyed)
        labelled.update(record.id for record in found if names(record, weights))
        naming += [(r.id, naming_words(r, weights)) for r in found if names(r, weights)]
        if found:
            if not groups:
                held = record_terms(found[0]) & weights.keys()
                matched_by = tuple(t for t in terms if stem(t) in held)
            groups.append(found)
            described.append((table, tables.topic_terms(table)))
            if len(groups) >= limit:
                break
        elif not groups and about_whole_table(tables.topic_terms(table), terms):
            rows = await turn.toolbox.fetch_async(
                "lookup_records", {"table": table, "query": ""}, turn.audience
            )
            return RecordPick(rows.sources, listing=True)
    room = limit - len(groups)
    named: list[Source] = []
    joined: set[str] = set()
    for best, *others in groups:
        taken, room = others[: max(room, 0)], room - len(others)
        named += [best, *taken]
        joined.update(record.id for record in taken)
    return RecordPick(
        tuple(named),
        False,
        frozenset(joined),
        frozenset(labelled),
        tuple(described),
        tuple(naming),
        matched_by,
    )


async def count_note(pick: RecordPick, turn: Turn) -> str | None:
    """A line saying that the records shown are only some of those that answer: "Showing 5 of
    20,000 rows:" before a table's first rows, "Showing 2 of 46 matching rows:" before records
    matched by words that more records of their table hold ("a headcount of 500"); None when
    every one is shown. Counted by the table's search index
    (:meth:`bot.knowledge.records.RecordTables.count`), never by reading its rows."""
    tables = turn.toolbox.records
    if tables is None or not pick.records or not (pick.listing or pick.matched_by):
        return None
    table = pick.records[0].id.partition("/")[0]
    shown = sum(record.id.partition("/")[0] == table for record in pick.records)
    total = await asyncio.to_thread(tables.count, table, pick.matched_by, turn.audience)
    if total <= shown:
        return None
    return f"Showing {shown} of {total:,} {'rows' if pick.listing else 'matching rows'}:"


def record_lines(pick: RecordPick, registry: SourceRegistry) -> list[str]:
    """One line per record, registered in order (list items for a listing)."""
    lines: list[str] = []
    for record in pick.records:
        number = registry.register(record)
        if number is None:
            continue
        # a blank value says nothing: "page: " would read as if the page were the answer
        cells = "; ".join(f"{k}: {v}" for k, v in (record.columns or {}).items() if v.strip())
        text = f"{record.label}: {cells}" if cells else f"{record.label}"
        # one line whatever the table holds: a value with a line break must not end the item
        line = with_marker(" ".join(text.split()), number)
        lines.append("- " + line if pick.listing else line)
    return lines


def records_cover(pick: RecordPick, asked: Sequence[str]) -> frozenset[str]:
    """The keys of ``asked`` (question terms, compounds as one: see
    :mod:`bot.assistant.extractive_compounds`) that the records answer (:meth:`RecordPick.answered`:
    their lines, and for a record named by its label its table's name and column names); a
    compound counts when every one of its parts is in one record ("CC-TEAM" in the Team plan's
    label)."""
    held: set[str] = set()
    for record in pick.records:
        words = pick.answered(record, [part for t in asked for part in t.split()])
        held.update(term_key(t) for t in asked if all(stem(part) in words for part in t.split()))
    return frozenset(held)
