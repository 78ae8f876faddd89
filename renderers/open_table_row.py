"""What a streaming preview shows of the open tail: a table's unfinished last row held back.

A table row is only known to be one once its line is complete: mistune reads ``| 3 |`` under
a two-column table as an invalid row, and then the whole table as a paragraph of pipes; ``| 3``
as a paragraph after it. A preview taken while the stream stops mid-row would flip the table to
raw ``| a | b | |---|---|`` text and back on every row. Left out, the unfinished line shows
once its newline arrives; the rows above it keep showing as a table. Only previews use this:
the final render reads the whole text as it is.
"""

from __future__ import annotations

from bot.markdown import Token, parse


def without_open_table_row(tail: str) -> str:
    """``tail`` without its unfinished last line when the complete lines above it end in a
    table (at the top level, or last in a block quote or list item); else ``tail`` itself."""
    cut = tail.rfind("\n") + 1
    if cut == 0 or cut == len(tail):
        return tail  # one line, not yet a table; or nothing unfinished
    head = tail[:cut]
    above = head[head.rfind("\n", 0, cut - 1) + 1 :]
    # every line of a table holds a pipe; a blank line ends it (the next line is not its row)
    if "|" not in above or not above.strip():
        return tail
    return head if _ends_in_table(parse(head)) else tail


def _ends_in_table(tokens: list[Token]) -> bool:
    shown = [token for token in tokens if token.get("type") != "blank_line"]
    if not shown:
        return False
    last = shown[-1]
    if last.get("type") == "table":
        return True
    if last.get("type") in ("block_quote", "list", "list_item"):
        return _ends_in_table(last.get("children") or [])
    return False
