"""The store's part that records votes and reads what ``citecast report`` counts (``bot.store``).

Votes (``add_feedback``) are written by every channel; ``citecast report``
(``bot.usage_report``) reads the turns and votes of a period through ``iter_outcomes_since``
and ``votes_since``, a page at a time so a year of turns is never in memory at once.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.store_base import StoreBase

Outcome = tuple[int, str, str, str, int | None]
"""A turn as ``citecast report`` counts it: id, channel, question, status, citations."""

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
        """:meth:`outcomes_since` one page of ``page`` turns at a time, for a caller that sums
        them as they come: the store is locked while a page is read, never while the caller
        works, and a year of turns is never in memory at once."""
        after, names = 0, dict[str, str]()
        while True:
            with self._read() as db:
                rows = db.execute(
                    "SELECT id, channel, question, status,"
                    # a damaged answer counts as one without sources, not as the report's end
                    " CASE WHEN json_valid(answer_json)"
                    " THEN json_array_length(answer_json, '$.citations') END"
                    " FROM turns WHERE id > ? AND created_at >= ? ORDER BY id LIMIT ?",
                    (after, since, page),
                ).fetchall()
            # a channel and a status repeat on every turn: one string each, not one per turn
            for r in rows:
                yield (r[0], names.setdefault(r[1], r[1]), r[2], names.setdefault(r[3], r[3]), r[4])
            if len(rows) < page:
                return
            after = rows[-1][0]

    def votes_since(self, since: float) -> list[tuple[int | None, str, str]]:
        """``(turn id, channel, value)`` of every vote recorded at or after ``since``."""
        with self._read() as db:
            rows = db.execute(
                "SELECT turn_id, channel, value FROM feedback WHERE created_at >= ? ORDER BY id",
                (since,),
            ).fetchall()
        return [(row[0], str(row[1]), str(row[2])) for row in rows]
