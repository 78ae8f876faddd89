"""What people asked, what the knowledge base could not answer, and how answers were rated.

``citecast report`` sums the store's turns and votes since a time, per channel. An answer
*without sources* cites nothing: the built-in answerer's "not found", or a model's answer none
of whose citations survived resolving. The questions behind those show which documents are
missing, so they are listed, most asked first (grouped regardless of case and spacing).
*Small talk* ("hello", "thanks!", see :mod:`bot.pleasantries`) is answered without sources by
design: it is counted apart, never as a question the knowledge base could not answer.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from bot.pleasantries import small_talk
from bot.store import Store


def one_line(question: str) -> str:
    """``question`` with every run of whitespace (newlines too) written as one space."""
    return " ".join(question.split())


COLUMNS = (
    "asked",
    "cited",
    "without_sources",
    "small_talk",
    "failed",
    "unfinished",
    "helpful",
    "not_helpful",
)


@dataclass(frozen=True)
class ChannelUsage:
    """One channel's questions and votes in the period.

    ``asked`` = ``cited`` + ``without_sources`` + ``small_talk`` (a greeting or thanks, answered
    without sources by design) + ``failed`` (not answered: a backend or delivery failure, a
    crash) + ``unfinished`` (still being answered).
    """

    channel: str
    asked: int = 0
    cited: int = 0
    without_sources: int = 0
    small_talk: int = 0
    failed: int = 0
    unfinished: int = 0
    helpful: int = 0
    not_helpful: int = 0


@dataclass(frozen=True)
class UsageReport:
    """The period from ``since`` (Unix time) to now, ``days`` long."""

    since: float
    days: float
    channels: tuple[ChannelUsage, ...]  # most asked first
    unanswered: tuple[tuple[str, int], ...]  # (question, times asked without sources)
    # (turn id, channel, question), latest first; a turn rated down by several people once
    not_helpful: tuple[tuple[int, str, str], ...]

    @property
    def total(self) -> ChannelUsage:
        """Every channel summed."""
        return ChannelUsage(
            "all", **{c: sum(getattr(u, c) for u in self.channels) for c in COLUMNS}
        )


def build_report(store: Store, since: float, days: float, limit: int = 10) -> UsageReport:
    """The usage since ``since``; at most ``limit`` unanswered questions and rated-down turns."""
    counts: dict[str, Counter[str]] = {}
    # A question is kept as a digest of its tidied wording and the id of its latest turn, not
    # as text: a busy store may hold many thousands of different pasted-log questions, and
    # only the few listed are read back (their latest wording) at the end.
    unanswered: Counter[bytes] = Counter()
    latest: dict[bytes, int] = {}
    # summed page by page as the turns come: a year of them is never in memory at once
    for turn_id, channel, question, status, citations in store.iter_outcomes_since(since):
        row = counts.setdefault(channel, Counter())
        row["asked"] += 1
        if status == "failed":
            row["failed"] += 1
        elif status != "done":
            row["unfinished"] += 1
        elif citations:
            row["cited"] += 1
        elif small_talk(question) is not None:
            row["small_talk"] += 1  # "thanks!" wants no document written for it
        else:
            row["without_sources"] += 1
            key = _grouping_key(question)
            unanswered[key] += 1
            latest[key] = turn_id  # the latest wording is shown
    # turn id -> entry, in the order of each turn's latest "not helpful": several Slack users
    # may each rate one answer down, and it is still one answer to look at
    rated_down: dict[int, tuple[int, str, str]] = {}
    for rated, channel, value in store.votes_since(since):
        counts.setdefault(channel, Counter())[value] += 1
        if value == "not_helpful" and rated is not None:
            # votes are few: each rated-down turn is read once (it may predate the period)
            entry = rated_down.pop(rated, None)
            if entry is None:
                turn = store.turn(rated)
                question = turn.question if turn else "(deleted)"
                entry = (rated, turn.channel if turn else channel, question)
            rated_down[rated] = entry
    channels = sorted(
        (ChannelUsage(name, **{c: row[c] for c in COLUMNS}) for name, row in counts.items()),
        key=lambda usage: (-usage.asked, usage.channel),
    )
    return UsageReport(
        since=since,
        days=days,
        channels=tuple(channels),
        unanswered=tuple(
            (_wording(store, latest[key]), n) for key, n in unanswered.most_common(limit)
        ),
        not_helpful=tuple(reversed(rated_down.values()))[:limit],
    )


def _grouping_key(question: str) -> bytes:
    """Equal for questions that differ only in case and spacing; 16 bytes, however long."""
    folded = one_line(question).casefold().encode("utf-8", "surrogatepass")
    return hashlib.blake2b(folded, digest_size=16).digest()


def _wording(store: Store, turn_id: int) -> str:
    """The question of ``turn_id``, its whitespace tidied, read back for the list."""
    turn = store.turn(turn_id)
    return one_line(turn.question) if turn else "(deleted)"
