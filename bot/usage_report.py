"""What people asked, what the knowledge base could not answer, and how answers were rated.

``citecast report`` sums the store's turns and votes since a time, per channel. An answer
*without sources* cites nothing: the built-in answerer's "not found", or a model's answer whose
only citations named a source the viewer may not see or were found not to back their claims.
The questions behind those show which documents are missing, so they are listed, most asked
first: grouped regardless of letter case, spacing and the punctuation around a question ("What
is X?" and "what is x"), and shown as most often asked (:func:`grouping_form`).
An answer whose every citation the resolver dropped for a fault of the marker (a number the
turn never gave, a key of another turn: ``bot.store_usage.MARKER_FAULTS``) has *citations
dropped*: the model answered from sources it then cited wrongly, so its questions are listed
apart, as markers to check rather than documents to write.
*Small talk* ("hello", "thanks!", see :mod:`bot.pleasantries`) is answered without sources by
design: it is counted apart, never as a question the knowledge base could not answer.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from bot.pleasantries import small_talk
from bot.store import Store


def one_line(question: str) -> str:
    """``question`` with every run of whitespace (newlines too) written as one space."""
    return " ".join(question.split())


COLUMNS = (
    "asked",
    "cited",
    "without_sources",
    "citations_dropped",
    "small_talk",
    "failed",
    "unfinished",
    "helpful",
    "not_helpful",
)


@dataclass(frozen=True)
class ChannelUsage:
    """One channel's questions and votes in the period.

    ``asked`` = ``cited`` + ``without_sources`` + ``citations_dropped`` (answered, but every
    citation marker was dropped for a fault of the marker) + ``small_talk`` (a greeting or
    thanks, answered without sources by design) + ``failed`` (not answered: a backend or
    delivery failure, a crash) + ``unfinished`` (still being answered, or answered but the reply
    still waits in a channel's outbox to be sent).
    """

    channel: str
    asked: int = 0
    cited: int = 0
    without_sources: int = 0
    citations_dropped: int = 0
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
    # how many more each list would hold without ``limit`` ("and 4 more"): a list cut at the
    # limit must not read as all there is
    unanswered_more: int = 0
    not_helpful_more: int = 0
    # (question, times answered with every citation dropped), grouped as ``unanswered``
    citations_dropped: tuple[tuple[str, int], ...] = ()
    citations_dropped_more: int = 0

    @property
    def total(self) -> ChannelUsage:
        """Every channel summed."""
        return ChannelUsage(
            "all", **{c: sum(getattr(u, c) for u in self.channels) for c in COLUMNS}
        )


def build_report(store: Store, since: float, days: float, limit: int = 10) -> UsageReport:
    """The usage since ``since``; at most ``limit`` unanswered questions, questions answered
    with every citation dropped, and rated-down turns."""
    counts: dict[str, Counter[str]] = {}
    unanswered, dropped = _Questions(), _Questions()
    # A turn is stored done once its answer is handed to a channel's outbox; while the reply
    # waits there (a Discourse rate limit, a Slack 429) the asker has not got it: pending. Read
    # first and few: a reply sent while the pages are read is still counted pending, as it was.
    waiting = store.waiting_turns()
    # summed page by page as the turns come: a year of them is never in memory at once
    for turn_id, channel, question, status, citations, faults in store.iter_report_turns_since(
        since
    ):
        row = counts.setdefault(channel, Counter())
        row["asked"] += 1
        if status == "failed":
            row["failed"] += 1
        elif status != "done" or turn_id in waiting:
            row["unfinished"] += 1
        elif citations:
            row["cited"] += 1
        elif small_talk(question) is not None:
            row["small_talk"] += 1  # "thanks!" wants no document written for it
        elif faults:
            # the model cited sources, wrongly: the documents exist, the markers want checking
            row["citations_dropped"] += 1
            dropped.add(question, turn_id)
        else:
            row["without_sources"] += 1
            unanswered.add(question, turn_id)
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
        unanswered=unanswered.most_asked(store, limit),
        not_helpful=tuple(reversed(rated_down.values()))[:limit],
        unanswered_more=max(0, len(unanswered.times) - limit),
        not_helpful_more=max(0, len(rated_down) - limit),
        citations_dropped=dropped.most_asked(store, limit),
        citations_dropped_more=max(0, len(dropped.times) - limit),
    )


@dataclass(frozen=True)
class _Questions:
    """Questions counted by :func:`grouping_form`, for a list of the most asked.

    A question is kept as digests (of its group and of its spelling) and the id of the first
    turn that spelt it so, not as text: a busy store may hold many thousands of different
    pasted-log questions, and only the few listed are read back (their most asked spelling) at
    the end.
    """

    times: Counter[bytes] = field(default_factory=Counter)  # group digest -> times asked
    # group + spelling digest -> [times, first turn id]
    spellings: dict[bytes, list[int]] = field(default_factory=dict)

    def add(self, question: str, turn_id: int) -> None:
        """Count ``question``, asked in ``turn_id``."""
        key = _digest(grouping_form(question))
        self.times[key] += 1
        spelling = self.spellings.setdefault(key + _digest(one_line(question)), [0, turn_id])
        spelling[0] += 1

    def most_asked(self, store: Store, limit: int) -> tuple[tuple[str, int], ...]:
        """The ``limit`` most asked groups as ``(most asked spelling, times)``; ties keep the
        order first asked (``Counter.most_common`` is stable)."""
        listed = self.times.most_common(limit)
        shown = _most_asked(self.spellings, {key for key, _ in listed})
        return tuple((_wording(store, shown[key]), n) for key, n in listed)


# Punctuation that frames a question without changing what it asks: quotes and the Spanish
# opening marks before it, sentence ends and quotes after it, with their full-width forms. Not
# "#", "+", "/" or brackets, nor a leading "." (".NET"), nor anything inside the question:
# "What is C#?" and "What is C?" ask different things.
_QUOTES = "\"'“”‘’«»„‚‹›「」『』"
_OPENING = _QUOTES + "¿¡ "
_CLOSING = _QUOTES + "?!.,;:…？！。，；：､、 "


def grouping_form(question: str) -> str:
    """The form unanswered questions are grouped by: letter case, runs of whitespace and the
    punctuation around the question set aside (a question that is nothing but punctuation
    keeps it).

    "What is the capital of France?" and "  what is the capital  of france" are one question;
    "What is C#?" and "What is C?" are two.
    """
    text = unicodedata.normalize("NFC", one_line(question)).casefold()
    return text.lstrip(_OPENING).rstrip(_CLOSING) or text


def _digest(text: str) -> bytes:
    """16 bytes for ``text``, however long it is."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _most_asked(spellings: dict[bytes, list[int]], groups: set[bytes]) -> dict[bytes, int]:
    """For each of ``groups``, the first turn of its most asked spelling (ties: the one asked
    first)."""
    best: dict[bytes, tuple[int, int]] = {}  # group -> (times, -first turn id)
    for key, (times, first) in spellings.items():
        group = key[:16]
        if group in groups and (times, -first) > best.get(group, (0, 0)):
            best[group] = (times, -first)
    return {group: -negated for group, (_, negated) in best.items()}


def _wording(store: Store, turn_id: int) -> str:
    """The question of ``turn_id``, its whitespace tidied, read back for the list."""
    turn = store.turn(turn_id)
    return one_line(turn.question) if turn else "(deleted)"
