"""How the web channel logs a failed turn, and what it says when the store fails.

Every web question is written to the store before it is answered (``WebTurns.begin``) and its
answer after. A store on a full disk, or with a damaged page, fails every question alike, and
asking again cannot help until whoever runs citecast frees the disk or restores the store: the
viewer is told so in one line with a 503 (:data:`STORE_UNAVAILABLE`, as ``POST /api/ask``'s
JSON error and the stream's ``error`` event; :data:`STORE_UNREADABLE` from any other route,
``bot.connectors.app``), and
the log has one line per question with SQLite's reason (:func:`log_store_failure`), never a
traceback per question. An expected outage (the model endpoint down) is one line too; anything
else is logged with its traceback (:func:`log_failure`).
"""

from __future__ import annotations

import logging

from bot.errors import BackendError, StoreError

# the logger a failed web turn was always logged under (bot.connectors.web_turns), which log
# filters and alerts may name
log = logging.getLogger("bot.connectors.web_turns")

# Outages an operator fixes outside the code; their message says it all, a traceback would not.
# (Setup errors, a refused key or no index, are not logged here: WebTurns.fail tells the alarm.)
EXPECTED_FAILURES = (BackendError, StoreError)

STORE_UNAVAILABLE = "the assistant cannot record questions right now; tell whoever runs this site"
"""What a viewer is told (503) when the store could not record the question or its answer."""

STORE_UNREADABLE = "conversations cannot be read or saved right now; tell whoever runs this site"
"""What any other route answers (503) when the store fails under it (a vote, a reload)."""


def log_store_failure(what: str, error: StoreError) -> None:
    """One ERROR line: ``web: {what}: the store cannot be written: {path}: {reason}``."""
    log.error("web: %s: the store cannot be written: %s", what, error)


def log_failure(turn_id: int, error: Exception) -> None:
    """Log why answering a web turn failed: one line when expected, else with the traceback."""
    if isinstance(error, StoreError):
        log_store_failure(f"turn {turn_id} failed", error)
    elif isinstance(error, EXPECTED_FAILURES):
        log.error("web turn %s failed: %s", turn_id, error)
    else:
        log.error("web turn %s failed", turn_id, exc_info=error)


__all__ = [
    "EXPECTED_FAILURES",
    "STORE_UNAVAILABLE",
    "STORE_UNREADABLE",
    "log_failure",
    "log_store_failure",
]
