"""The JSON forms of answers and citations as web clients receive them.

``Source.path`` is where the file lives on the server: the server needs it (the store keeps the
full Answer JSON, the signer reads the file) but a browser must never see it. A client gets a
file through the signed ``/files/{token}`` link in the rendered citations instead.
"""

from __future__ import annotations

from typing import Any

from bot.models import Answer, Citation

# Source fields that describe the server, not the source.
SERVER_ONLY_SOURCE_FIELDS = frozenset({"path"})


def client_citation_json(citation: Citation) -> dict[str, Any]:
    """``Citation.to_json()`` without server-only source fields."""
    data = citation.to_json()
    data["source"] = {
        key: value for key, value in data["source"].items() if key not in SERVER_ONLY_SOURCE_FIELDS
    }
    return data


def client_answer_json(answer: Answer) -> dict[str, Any]:
    """``Answer.to_json()`` with every citation in its client form."""
    data = answer.to_json()
    data["citations"] = [client_citation_json(citation) for citation in answer.citations]
    return data
