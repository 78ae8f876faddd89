"""The titles of cited files uploaded into a Slack thread.

The renderer lists each cited file once (``payload["files"]``), under the first citation of
it, though an answer often cites several passages of one file (``[1]`` to ``[4]`` all from
``getting-started.md``). The upload is titled with every number the source list gives that
file, written as the list writes them: ``[1][2][3][4] getting-started.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.models import Answer

# Markers beyond this many characters give way to an ellipsis: the title is for the file.
MAX_MARKER_CHARS = 40


def numbered_files(payload: dict[str, Any], answer: Answer, audience: frozenset[str]) -> None:
    """Give each file entry of ``payload`` its ``numbers``: every citation of ``answer`` whose
    source is that file and that ``audience`` may see (the entry's own ``n`` among them)."""
    files: Sequence[dict[str, Any]] = payload.get("files") or []
    if not files:
        return
    numbers: dict[str, set[int]] = {}
    for citation in answer.citations:
        source = citation.source
        if source.path and source.visible_to(audience):
            numbers.setdefault(source.path, set()).add(citation.n)
    for entry in files:
        own = entry.get("n")
        found = numbers.get(str(entry.get("path") or ""), set())
        entry["numbers"] = sorted(found | ({own} if isinstance(own, int) else set()))


def upload_title(entry: Mapping[str, Any], name: str) -> str:
    """``[1][2][3][4] name``: the file's citation numbers (``numbers``, else its ``n``)."""
    numbers = entry.get("numbers") or [entry.get("n")]
    markers = ""
    for number in numbers:
        marker = f"[{number}]"
        if markers and len(markers) + len(marker) > MAX_MARKER_CHARS:
            markers += "\u2026"
            break
        markers += marker
    return f"{markers} {name}"
