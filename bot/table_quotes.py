"""The row of a passage's table that a claim quotes, rather than the table's header.

Grounding quotes the passage sentence that backs a claim best, and a table row is a sentence of
its own (:func:`bot.support.passage_sentences`). A claim made from a row names its columns as
the answerer reads them ("Expense: Hotel; Limit per day: 140 EUR; Receipt needed: yes"), so the
header line ("| Expense | Limit per day | Receipt needed |") holds more of its words than the
row that backs it, and two rows side by side ("| Office | … | | Warehouse day shift | … |")
more than one. The quote a reader should see, and the one its deep link finds, is the row.
"""

from __future__ import annotations

from bot.table_rows import DELIMITER, cells, is_row
from bot.text_terms import term_set


def row_quote(passage: str, claim: str, quote: str | None) -> str | None:
    """``quote``, or when it is a line of a pipe table (its header, or rows run together) the
    body row of ``passage`` whose own cells hold most of ``claim``'s words, as the passage
    writes it; ``quote`` unchanged when it is prose or no row holds a word of the claim.

    A row is a body row when its table's header (a line followed by a delimiter line) is above
    it; the header's words are every row's, so only a row's cells count. A tie goes to the row
    the quote holds, then to the first.
    """
    if quote is None or not is_row(quote.split("\n", 1)[0]):
        return quote
    stated = term_set(claim)
    best: tuple[int, bool] = (0, False)
    chosen = quote
    for line in _body_rows(passage):
        held = len(stated & term_set(" ".join(cells(line))))
        rank = (held, line in quote)
        if held and rank > best:
            best, chosen = rank, line
    return chosen


def _body_rows(passage: str) -> list[str]:
    """The body rows of ``passage``'s pipe tables (stripped), header and delimiter left out."""
    lines = [line.strip() for line in passage.split("\n")]
    out: list[str] = []
    in_body = False
    for i, line in enumerate(lines):
        if not is_row(line):
            in_body = False
        elif DELIMITER.match(line):
            in_body = True
        elif in_body or not (i + 1 < len(lines) and DELIMITER.match(lines[i + 1])):
            out.append(line)
    return out
