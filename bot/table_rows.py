"""Rows of a pipe table, as passages hold them: ``| Hotel | 140 EUR | yes |``.

A Markdown file's table reaches the index as written, and an HTML page's table is read into the
same form (:mod:`bot.knowledge.html_reader`), so one row is one line whose cells are split at
the pipes that are not escaped (``a \\| b`` is one cell). A quote of such a row is not what a
reader of the page sees: the page shows a ``<table>``, its cells apart and no pipes. So a
quote is shown as its cells (:func:`row_display`), and its deep link targets the row's first
cell (:func:`row_target`), the words the browser can find inside one cell.

Plain functions, no I/O: the answerer, the deep links and the renderers all read rows here.
"""

from __future__ import annotations

import re

# the line under a header: cells of dashes, each with an optional colon at either end
DELIMITER = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
# a cell ends at a pipe that is not escaped ("a \| b" is one cell)
_CELL_END = re.compile(r"(?<!\\)\|")
# what stands between the cells of a quoted row when it is shown
CELL_GAP = " · "


def is_row(line: str) -> bool:
    """Whether ``line`` (one line) is a row of a pipe table: it opens with a pipe and has a
    cell after it. A delimiter line (``|---|---|``) is a row too; see :data:`DELIMITER`."""
    inner = line.strip()
    return inner.startswith("|") and len(_CELL_END.findall(inner)) >= 2


def cells(line: str) -> list[str]:
    """The cells of the row ``line``, each with its spaces squeezed and ``\\|`` read as ``|``;
    the pipes at either end are not cells."""
    inner = line.strip()
    inner = inner.removeprefix("|")
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [" ".join(cell.replace("\\|", "|").split()) for cell in _CELL_END.split(inner)]


def quoted_rows(quote: str) -> list[list[str]] | None:
    """The cells of each row a quote holds, when the quote is rows of a pipe table and nothing
    else (a delimiter line is left out); None for any other quote."""
    lines = [line for line in quote.strip().split("\n") if line.strip()]
    if not lines or not all(is_row(line) for line in lines):
        return None
    rows = [cells(line) for line in lines if not DELIMITER.match(line)]
    return rows or None


def row_display(quote: str) -> str:
    """``quote`` as a reader of the page sees it: a quoted row's cells without the pipes
    between them (``Hotel · 140 EUR · yes``), one row after the other; any other quote as it
    is."""
    rows = quoted_rows(quote)
    if rows is None:
        return quote
    shown = (CELL_GAP.join(cell for cell in row if cell) for row in rows)
    return " ".join(row for row in shown if row)


def row_target(quote: str) -> str | None:
    """The words of a quoted row a deep link should find: its first non-empty cell; None when
    ``quote`` is no row (or its rows hold no words).

    A text fragment cannot reach across the cells of a ``<table>``: their text runs on with
    nothing between them ("Hotel140 EUR"), so the whole row is never found and the browser
    stays at the top of the page. One cell's text is found, and scrolls to its row.
    """
    rows = quoted_rows(quote)
    for row in rows or ():
        for cell in row:
            if cell:
                return cell
    return None
