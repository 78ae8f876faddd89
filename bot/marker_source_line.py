"""A trailing source list the model wrote on one line: ``Sources: [5], [4]``, ``**Source:** [5]``.

:class:`bot.marker_line_starts.LineStarts` removes a trailing "Sources:" heading whose item
lines only name registry sources; a model writes the same list on the heading's own line too.
That line counts as the heading with its items when, after the heading word and a colon (in or
after its emphasis), it holds nothing but bracket numbers (``[5]``, ``[^5]``) separated by
spaces, commas, semicolons or ``and``, and perhaps a final full stop. The judge then decides as
for a list of lines, which also means it must be the end of the answer (blank lines or more
items may follow, nothing else).
"""

from __future__ import annotations

import re

from bot.marker_lines import COLON, HEADING_LEAD, HEADING_WORDS

_ITEM = r"\[\^?\d{1,3}\^?\]"
_ITEMS = re.compile(_ITEM)
_ONE_LINE = re.compile(
    HEADING_LEAD + r"(?:" + "|".join(HEADING_WORDS) + r")"
    rf"[ \t]*(?P<inner>{COLON})?[ \t]*(?:\*\*|__|\*|_)?[ \t]*(?P<outer>{COLON})?[ \t]*"
    rf"(?P<items>{_ITEM}(?:[ \t]*(?:[,;]|and)?[ \t]*{_ITEM})*)[ \t]*\.?[ \t\r]*",
    re.IGNORECASE,
)


def one_line_source_items(line: str) -> list[str] | None:
    """The items (``["[5]", "[4]"]``) of a one-line source list, or None for any other line."""
    m = _ONE_LINE.fullmatch(line)
    if m is None or not (m["inner"] or m["outer"]):
        return None
    return _ITEMS.findall(m["items"])
