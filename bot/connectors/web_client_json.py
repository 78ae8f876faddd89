"""The JSON forms of answers and citations as web clients receive them.

``Source.path`` is where the file lives on the server: the server needs it (the store keeps the
full Answer JSON, the signer reads the file) but a browser must never see it. A client gets a
file through the signed ``/files/{token}`` link in the rendered citations instead.

A quote that is a table row (``| Pallet | 95 EUR |``) also gets ``display_quote``, the row as a
reader of the page sees it (``Pallet · 95 EUR``, :func:`bot.table_rows.row_display`), which the
chat's tooltips show as the source list does. ``quote`` itself stays the passage's own text:
API clients, ``citecast render`` and the stored answers read it as it was cited.
"""

from __future__ import annotations

from typing import Any

from bot.models import Answer, Citation
from bot.table_rows import row_display

# Source fields that describe the server, not the source.
SERVER_ONLY_SOURCE_FIELDS = frozenset({"path"})


def client_citation_json(citation: Citation) -> dict[str, Any]:
    """``Citation.to_json()`` without server-only source fields, with display quotes."""
    data = citation.to_json()
    data["source"] = {
        key: value for key, value in data["source"].items() if key not in SERVER_ONLY_SOURCE_FIELDS
    }
    return with_display_quotes(data)


def client_answer_json(answer: Answer) -> dict[str, Any]:
    """``Answer.to_json()`` with every citation in its client form."""
    data = answer.to_json()
    data["citations"] = [client_citation_json(citation) for citation in answer.citations]
    return data


def with_display_quotes(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` (a citation's JSON, the answer's or the renderer's) with ``display_quote``
    beside each ``quote`` of it and of its ``occurrences`` that a reader sees otherwise (a
    table row); the same object, changed in place, for chaining."""
    _add_display_quote(entry)
    for occurrence in entry.get("occurrences") or ():
        if isinstance(occurrence, dict):
            _add_display_quote(occurrence)
    return entry


def _add_display_quote(entry: dict[str, Any]) -> None:
    quote = entry.get("quote")
    if isinstance(quote, str):
        shown = row_display(quote)
        if shown != quote:
            entry["display_quote"] = shown
