"""What a web question reads of its conversation, however long the conversation has grown.

A question needs two things of the turns before it: its history (the last ``web.history_turns``
answers the model may build on) and whether those earlier answers leave its own answer
shareable. The share page's rule (:func:`bot.connectors.web_turn_page.shareable_answers`)
hides an answer when *any* earlier answer of its conversation may not be shown, not only one
of the last few: each answer was written with its own history before it, so what a staff
passage said can travel down a conversation of any length.

That rule has a part that never changes once a turn is answered (an unreadable answer or
registry, a source stored for an audience the viewer is not in) and a part that is judged
now: a knowledge-base file made private or dropped since, a record table made private
(:func:`bot.connectors.web_file_access.visible_now`). :class:`EarlierAnswers` keeps the first
as one flag and the second as the distinct files and records the answers cited or read, so a
question reads only the turns answered since the last one and checks each distinct source
once: the same verdict as parsing every earlier answer again, at a cost that does not grow
with the conversation. A counted turn not answered (yet) is not settled for good: one still
pending may be stored answered, and one marked failed by a restart may be answered again
later under its own turn (``slack_unanswered``, ``discord_answer``; the share page serves
those channels too), so the count keeps the ids of such turns and reads each again on every
call, counting it once it is answered. :class:`TurnReads` counts the stored turns read, so
tests can see it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.connectors.web_conversation_positions import TurnPositions
from bot.connectors.web_file_access import visible_now
from bot.connectors.web_turn_page import stored_sources
from bot.connectors.web_viewer_links import FileIndex
from bot.models import Source
from bot.store import Store, Turn

# turns read at a time while counting a conversation's answers (forwards, from the last count)
PAGE = 64
# history is read backwards this many times its length at a time (a few turns may be skipped)
HISTORY_PAGES = 2
# the most turns read for one question's history: when none of them is usable (every answer
# cites a file made private, say), older ones are not looked for
HISTORY_REACH = 200
# conversations whose earlier answers are remembered (the least recently asked is forgotten)
KNOWN_CONVERSATIONS = 512


@dataclass
class TurnReads:
    """How many stored turns the web channel has read (a counter that tests read)."""

    rows: int = 0


class EarlierAnswers:
    """The answered turns of one conversation and channel up to :attr:`upto`, as far as the
    share rule needs them: whether one is spoilt for good, and the files and records whose
    verdict is taken now (one :class:`~bot.models.Source` kept per file path or record id),
    and the ids of the turns counted while not answered (:attr:`unanswered`), which may be
    answered later."""

    def __init__(self) -> None:
        self.upto = 0  # the id of the last turn counted (answered, failed or pending)
        self.spoilt = False
        self.live: dict[str, Source] = {}
        self.unanswered: frozenset[int] = frozenset()

    def copy(self) -> EarlierAnswers:
        """An independent copy, to count further turns into."""
        other = EarlierAnswers()
        other.upto, other.spoilt, other.live = self.upto, self.spoilt, dict(self.live)
        other.unanswered = self.unanswered
        return other

    def add(self, turn: Turn, audience: frozenset[str]) -> None:
        """Count ``turn`` (the next one by id); only an answered turn is history, and one not
        answered is remembered in :attr:`unanswered` (see :meth:`answered`)."""
        self.upto = max(self.upto, turn.id)
        if turn.status != "done":
            self.unanswered |= {turn.id}
            return
        self._count(turn, audience)

    def answered(self, turn: Turn, audience: frozenset[str]) -> None:
        """Count ``turn``, one of :attr:`unanswered` read again, if it is answered now."""
        if turn.status == "done" and turn.id in self.unanswered:
            self.unanswered -= {turn.id}
            self._count(turn, audience)

    def _count(self, turn: Turn, audience: frozenset[str]) -> None:
        if self.spoilt:
            return
        sources = _sources_of(turn)
        if sources is None:
            self.spoilt = True
            return
        for source in sources:
            if not source.visible_to(audience):
                self.spoilt = True
                return
            if source.kind == "record":
                self.live.setdefault(f"record:{source.id}", source)
            elif source.path:
                self.live.setdefault(f"path:{source.path}", source)

    def clean(self, visible: Callable[[Source], bool]) -> bool:
        """True when no answer counted may be hidden: none spoilt, every file and record
        ``visible`` (the rule of ``visible_now``) now."""
        return not self.spoilt and all(visible(source) for source in self.live.values())


class ConversationHistory:
    """Reads the stored turns of conversations for one viewer audience, counting them."""

    def __init__(self, store: Store, audience: frozenset[str], files: FileIndex) -> None:
        self.store = store
        self.audience = audience
        self.files = files
        self.reads = TurnReads()
        # each turn's place in its conversation (the conversation endpoint's ``position``)
        self.positions = TurnPositions(store)
        self._known: OrderedDict[tuple[str, str], EarlierAnswers] = OrderedDict()
        # the web endpoints count in worker threads: the remembered counts are read and
        # replaced under this lock (an eviction between setting and reordering a key would
        # otherwise be a KeyError); the turns themselves are read outside it
        self._known_lock = threading.Lock()

    def latest(
        self, conversation_id: str, channel: str, limit: int, keep: Callable[[Turn], bool]
    ) -> list[Turn]:
        """The last ``limit`` turns of the conversation that ``keep`` accepts, oldest first,
        read backwards a page at a time until enough are found or :data:`HISTORY_REACH` turns
        were read (history is only the last few usable answers)."""
        size = max(HISTORY_PAGES * limit, 8)
        found: list[Turn] = []
        before: int | None = None
        read = 0
        while len(found) < limit and read < HISTORY_REACH:
            wanted = min(size, HISTORY_REACH - read)
            page = self.store.channel_turns(conversation_id, channel, before=before, limit=wanted)
            read += len(page)
            self.reads.rows += len(page)
            found.extend(turn for turn in reversed(page) if keep(turn))
            if len(page) < wanted:
                break
            before = page[0].id
        return found[:limit][::-1]

    def clean_before(self, conversation_id: str, channel: str, before: int) -> bool:
        """Whether every answered turn of the conversation and channel before the turn id
        ``before`` may be shown now (the share page's rule for the answers before it)."""
        key = (conversation_id, channel)
        with self._known_lock:
            known = self._known.get(key)
        if known is not None and known.unanswered:
            known = self._read_unanswered(known)
            self._remember(key, known)
        visible = visible_now(self.files, self.audience)
        if known is not None and known.upto >= before and known.clean(visible):
            return True  # a count past ``before`` holds every answer before it, and more
        work = known.copy() if known is not None and known.upto < before else EarlierAnswers()
        while True:
            page = self.store.channel_turns(
                conversation_id, channel, after=work.upto, before=before, limit=PAGE, oldest=True
            )
            self.reads.rows += len(page)
            for turn in page:
                work.add(turn, self.audience)
            if len(page) < PAGE:
                break
        self._remember(key, work)
        return work.clean(visible)

    def _read_unanswered(self, known: EarlierAnswers) -> EarlierAnswers:
        # a turn counted while pending or failed may be answered since (a restart marks a
        # question failed that a connector answers later under the same turn): read each again
        count = known.copy()
        for turn_id in sorted(known.unanswered):
            turn = self.store.turn(turn_id)
            self.reads.rows += 1
            if turn is None:
                count.unanswered -= {turn_id}  # no longer stored: nothing to wait for
            else:
                count.answered(turn, self.audience)
        return count

    def _remember(self, key: tuple[str, str], count: EarlierAnswers) -> None:
        with self._known_lock:
            known = self._known.get(key)
            if known is None or count.upto >= known.upto:
                self._known[key] = count
            self._known.move_to_end(key)
            while len(self._known) > KNOWN_CONVERSATIONS:
                self._known.popitem(last=False)


def _sources_of(turn: Turn) -> list[Source] | None:
    # what the share page checks of each earlier answer (web_turn_page), read once
    stored = stored_sources(turn)
    return None if stored is None else stored[1]
