"""The store's part that records votes and reads what ``citecast report`` counts (``bot.store``).

Votes (``add_feedback``) are written by every channel; ``citecast report``
(``bot.usage_report``) reads the turns and votes of a period through ``iter_report_turns_since``
and ``votes_since``, a page at a time so a year of turns is never in memory at once, and the
turns whose reply still waits in the outbox through ``waiting_turns``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from bot.store_base import StoreBase

Outcome = tuple[int, str, str, str, int | None]
"""A turn as ``citecast report`` counts it: id, channel, question, status, citations."""

ReportTurn = tuple[int, str, str, str, int | None, int]
"""An :data:`Outcome` and, for an answer that cites nothing, how many of its markers were
dropped for a fault of the marker (:data:`MARKER_FAULTS`); 0 for every other turn."""

MARKER_FAULTS = (
    "unknown",
    "out_of_range",
    "invalid_token",
    "placeholder",
    "uncitable",
    "over_limit",
)
"""Drop reasons (``bot.models.DROP_REASONS``) that say the marker was wrong, not the knowledge
base: it named a number or id this turn never gave, a key of another turn, a placeholder
(``[source]``), a source that is evidence only, or one past ``max_citations``. An answer whose
every citation went so is no sign that a document is missing: ``citecast report`` lists it apart."""

NO_SOURCE_DROPS = ("forbidden", "unsupported")
"""Drop reasons that leave the answer truly without sources: a source this viewer may not see
(for them there is none), or one the claim's own check found not to say it (grounding)."""

FEEDBACK_VALUES = ("helpful", "not_helpful")
"""The votes a person can give an answer, on every channel (``add_feedback``'s ``value``)."""


class UsageStore(StoreBase):
    """Votes and the usage reads (one of the parts ``bot.store.Store`` is made of)."""

    # -- feedback ----------------------------------------------------------------------------

    def add_feedback(self, turn_id: int | None, channel: str, user: str | None, value: str) -> None:
        """Record a helpful / not helpful vote on a turn."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO feedback (turn_id, channel, user, value, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (turn_id, channel, user, value, self._clock()),
            )

    def feedback(self, turn_id: int) -> list[str]:
        """The votes recorded for a turn, oldest first."""
        with self._read() as db:
            rows = db.execute(
                "SELECT value FROM feedback WHERE turn_id = ? ORDER BY id", (turn_id,)
            ).fetchall()
        return [str(row[0]) for row in rows]

    # -- usage (citecast report) -------------------------------------------------------------

    def outcomes_since(self, since: float) -> list[Outcome]:
        """``(turn id, channel, question, status, citations)`` of every turn asked at or after
        ``since`` (Unix time), oldest first; ``citations`` counts the answer's citations (None
        without an answer). The answers themselves are not loaded."""
        return list(self.iter_outcomes_since(since))

    def iter_outcomes_since(self, since: float, page: int = 10_000) -> Iterator[Outcome]:
        """:meth:`outcomes_since` one page of ``page`` turns at a time (see
        :meth:`iter_report_turns_since`)."""
        for turn in self.iter_report_turns_since(since, page):
            yield turn[:5]

    def iter_report_turns_since(self, since: float, page: int = 10_000) -> Iterator[ReportTurn]:
        """:meth:`outcomes_since` and the markers an answer citing nothing lost for a fault of the
        marker (:data:`MARKER_FAULTS`; 0 for a cited answer and without one), one page of
        ``page`` turns at a time, for a caller that sums them as they come: the store is locked
        while a page is read, never while the caller works, and a year of turns is never in
        memory at once."""
        faults = json.dumps(MARKER_FAULTS)
        after, names = 0, dict[str, str]()
        while True:
            with self._read() as db:
                rows = db.execute(
                    "SELECT id, channel, question, status,"
                    # a damaged answer counts as one without sources, not as the report's end
                    " CASE WHEN json_valid(answer_json)"
                    " THEN json_array_length(answer_json, '$.citations') END,"
                    # only an answer citing nothing is read for them: the report needs no more,
                    # and reading every answer's list made it a third slower
                    " CASE WHEN json_valid(answer_json)"
                    " AND coalesce(json_array_length(answer_json, '$.citations'), 0) = 0 THEN"
                    " (SELECT count(*) FROM json_each(answer_json, '$.dropped') AS d"
                    # an entry that is not an object has no reason (and json_extract would stop
                    # the report on it)
                    "  WHERE d.type = 'object'"
                    "  AND json_extract(d.value, '$.reason') IN (SELECT value FROM json_each(?)))"
                    " ELSE 0 END"
                    " FROM turns WHERE id > ? AND created_at >= ? ORDER BY id LIMIT ?",
                    (faults, after, since, page),
                ).fetchall()
            # a channel and a status repeat on every turn: one string each, not one per turn
            for r in rows:
                channel, status = names.setdefault(r[1], r[1]), names.setdefault(r[3], r[3])
                yield (r[0], channel, r[2], status, r[4], r[5])
            if len(rows) < page:
                return
            after = rows[-1][0]

    def waiting_turns(self) -> frozenset[int]:
        """The turns with a reply still waiting in the outbox (any channel): queued behind a
        rate limit or retried, not yet sent nor given up. Their turn is stored ``done`` once the
        answer is handed to the outbox, but the asker has not got it yet.

        The turn is the one the payload carries (``bot.connectors.outbox_turns.TURN_KEY``); an
        item without one (queued by an older version, or not an answer) names none.
        """
        with self._read() as db:
            rows = db.execute(
                "SELECT DISTINCT json_extract(payload_json, '$.turn_id') FROM outbox"
                " WHERE status = 'pending'"
                # a CASE, so a damaged payload is never parsed (json_type would stop the report);
                # only a JSON integer is a turn id, as queued_turn reads it (true is not turn 1)
                " AND CASE WHEN json_valid(payload_json)"
                " THEN json_type(payload_json, '$.turn_id') END = 'integer'"
            ).fetchall()
        return frozenset(int(row[0]) for row in rows)

    def votes_since(self, since: float) -> list[tuple[int | None, str, str]]:
        """``(turn id, channel, value)`` of every vote recorded at or after ``since``."""
        with self._read() as db:
            rows = db.execute(
                "SELECT turn_id, channel, value FROM feedback WHERE created_at >= ? ORDER BY id",
                (since,),
            ).fetchall()
        return [(row[0], str(row[1]), str(row[2])) for row in rows]
