"""Rows of a Markdown table, read as sentences the extractive answerer can quote.

A row says nothing without its header: "| retries | 5 | attempts for a failed request |" under
"| Setting | Default | Meaning |" answers "How many retries for a failed request?" only when the
5 reads with its column. So each row becomes one sentence that names every column, as a record
line does: "Setting: retries; Default: 5; Meaning: attempts for a failed request". The header's
words are then the row's words too, so "What is the default timeout?" finds the "timeout" row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.assistant.extractive_keys import word_key
from bot.knowledge.terms import STOP_WORDS, words
from bot.models import Source
from bot.table_rows import DELIMITER as _DELIMITER
from bot.table_rows import cells as _cells

_PARAGRAPH = re.compile(r"\n\s*\n")


def is_table_line(line: str) -> bool:
    """Whether ``line`` (stripped) is a row of a pipe table, header and delimiter included."""
    return line.startswith("|")


def row_sentences(lines: Sequence[str]) -> list[str]:
    """One sentence per body row of the table ``lines`` (consecutive table lines, stripped).

    With a header (a first line followed by a delimiter line) each non-empty cell reads
    "Column: value", joined by "; "; a cell under an empty column name stands alone. Rows of a
    table whose header is not in ``lines`` (a passage cut inside a table) are their cells
    joined by "; ". A row of empty cells says nothing and is left out.
    """
    header: list[str] = []
    body = list(lines)
    if len(body) >= 2 and _DELIMITER.match(body[1]):
        header, body = _cells(body[0]), body[2:]
    out: list[str] = []
    for line in body:
        if _DELIMITER.match(line):
            continue
        cells = _cells(line)
        named = [
            f"{header[i]}: {cell}" if i < len(header) and header[i] else cell
            for i, cell in enumerate(cells)
            if cell
        ]
        if named:
            out.append("; ".join(named))
    return out


class _Sentence(Protocol):
    """What :func:`matching_rows` reads of a chosen sentence (an extractive candidate)."""

    @property
    def text(self) -> str: ...

    @property
    def terms(self) -> frozenset[str]: ...

    @property
    def source(self) -> Source: ...


_Chosen = TypeVar("_Chosen", bound=_Sentence)


@dataclass(frozen=True)
class _Row:
    """A body row of a passage's table: which table (its place in the passage), its words."""

    table: int
    terms: frozenset[str]


def matching_rows(
    chosen: Sequence[_Chosen], wanted: frozenset[str], given: frozenset[str] = frozenset()
) -> list[_Chosen]:
    """``chosen`` without the rows of a table that the question does not name, when it names
    some: of a table's rows, only those whose own cells hold the most question words stay.

    A row's sentence holds its header's words too ("Expense: Meals; Limit per day: 45 EUR"),
    so every row of a table covers "How much can I spend on meals per day?" as well as the
    others, and all of them were answered, the first row first. The cells tell them apart: the
    Meals row's own words hold "meals", the Hotel and Taxi rows' none. When no row's cells hold
    a question word (the header's words are the question's) the question is about the table as
    a whole, and its rows all stay. Beside a row the question names, a sentence of the same
    passage that holds no question word itself goes too: it was chosen for its heading's words
    ("See also the shipping page." under "Return fees"), which the row answers. ``wanted``
    holds the question's stemmed words.

    ``given`` holds the question words the record lines before the sentences answer. A table
    whose rows hold none of them and whose cells name no question word is about other things
    than the record the question names: after "citecast Team (CC-TEAM): …", "How much is the
    Team plan per month?" is not answered by the Bronze, Silver and Gold rows of a support
    plans table, which hold "plan" and "month" in their header but never "Team".
    """
    found: dict[int, tuple[tuple[str, int], int]] = {}
    for i, sentence in enumerate(chosen):
        row = _rows_of(sentence.source.text or "").get(sentence.text)
        if row is not None:
            found[i] = ((sentence.source.id, row.table), len(row.terms & wanted))
    most: dict[tuple[str, int], int] = {}
    for table, hits in found.values():
        most[table] = max(most.get(table, 0), hits)
    named = {source for (source, _), hits in most.items() if hits}
    held: dict[tuple[str, int], frozenset[str]] = {}
    for i, (table, _) in found.items():
        held[table] = held.get(table, frozenset()) | chosen[i].terms
    aside = {table for table, hits in most.items() if not hits and given - held[table]}

    def stays(i: int, sentence: _Chosen) -> bool:
        if i in found:
            return found[i][0] not in aside and found[i][1] == most[found[i][0]]
        return sentence.source.id not in named or bool(sentence.terms & wanted)

    return [sentence for i, sentence in enumerate(chosen) if stays(i, sentence)]


def _rows_of(passage: str) -> dict[str, _Row]:
    """The body rows of ``passage``'s tables by their sentence (as :func:`row_sentences` writes
    it, which is how the answerer quotes them)."""
    out: dict[str, _Row] = {}
    table = 0
    # paragraphs as bot.assistant.extractive_sentences cuts them: a table is one paragraph
    for paragraph in _PARAGRAPH.split(passage):
        rows = [line.strip() for line in paragraph.split("\n") if is_table_line(line.strip())]
        if not rows:
            continue
        table += 1
        header = rows[:2] if len(rows) >= 2 and _DELIMITER.match(rows[1]) else []
        for line in rows[len(header) :]:
            sentence = row_sentences([*header, line])
            if sentence and not _DELIMITER.match(line):
                terms = frozenset(
                    word_key(w) for cell in _cells(line) for w in words(cell) if w not in STOP_WORDS
                )
                out.setdefault(sentence[0], _Row(table, terms))
    return out
