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

# the line under a header: cells of dashes, each with an optional colon at either end
_DELIMITER = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
# a cell ends at a pipe that is not escaped ("a \| b" is one cell)
_CELL_END = re.compile(r"(?<!\\)\|")


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


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner.removeprefix("|")
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [" ".join(cell.replace("\\|", "|").split()) for cell in _CELL_END.split(inner)]
