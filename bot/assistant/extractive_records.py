"""The record part of an extractive answer: which records lead it, and their lines.

For each record table (config order) the question either names a record (see
:mod:`bot.assistant.record_match`), is about the table as a whole, or neither. Named records
come first, one line each with their shown columns; a question about a whole table gets its
first rows as a list instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.assistant.cited_lines import with_marker
from bot.assistant.record_match import about_whole_table, best_record, covered_terms
from bot.assistant.turn import Turn
from bot.models import Source
from bot.registry import SourceRegistry


@dataclass(frozen=True)
class RecordPick:
    """Records to lead an answer with; ``listing`` when they are a table's first rows."""

    records: tuple[Source, ...] = ()
    listing: bool = False

    def keeping(self, question_terms: Sequence[str], explained: int) -> RecordPick:
        """Named records that cover at least ``explained`` of the question's words (a listing
        is kept whole: the table's name and description already cover most of them)."""
        if self.listing:
            return self
        kept = tuple(r for r in self.records if len(covered_terms(r, question_terms)) >= explained)
        return RecordPick(kept)


async def pick_records(turn: Turn, question: str, terms: Sequence[str], limit: int) -> RecordPick:
    """The records the question names (at most ``limit``), or a whole table's first rows."""
    tables = turn.toolbox.records
    if tables is None or not terms:
        return RecordPick()
    named: list[Source] = []
    # only the tables this viewer may see: a hidden one must change nothing, not end the walk
    for table in tables.visible(turn.audience):
        result = await turn.toolbox.fetch_async(
            "lookup_records", {"table": table, "query": question}, turn.audience
        )
        weights = tables.distinctive_weights(table, terms)
        best = best_record(result.sources, terms, weights)
        if best is not None:
            named.append(best)
            if len(named) >= limit:
                break
        elif not named and about_whole_table(tables.topic_terms(table), terms):
            rows = await turn.toolbox.fetch_async(
                "lookup_records", {"table": table, "query": ""}, turn.audience
            )
            return RecordPick(rows.sources, listing=True)
    return RecordPick(tuple(named))


def record_lines(pick: RecordPick, registry: SourceRegistry) -> list[str]:
    """One line per record, registered in order (list items for a listing)."""
    lines: list[str] = []
    for record in pick.records:
        number = registry.register(record)
        if number is None:
            continue
        cells = "; ".join(f"{k}: {v}" for k, v in (record.columns or {}).items())
        text = f"{record.label}: {cells}" if cells else f"{record.label}"
        # one line whatever the table holds: a value with a line break must not end the item
        line = with_marker(" ".join(text.split()), number)
        lines.append("- " + line if pick.listing else line)
    return lines
