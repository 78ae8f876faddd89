"""A queued Slack answer is checked against who reads its thread now, just before it is posted.

An answer waits in the outbox for minutes or hours. Meanwhile its private channel may be made
public or shared with another organisation (Slack Connect), or a knowledge-base file it cites
made private or dropped from the index (``citecast ingest``). So before the outbox posts what is
left of an answer, or uploads its files, :meth:`QueuedAudience.check` judges the answer again as
the share page does (:func:`bot.connectors.web_turn_page.visible_answer`: every source it cites
or its answerer read, a file as the index has it now) for the thread's audience as the live
path decides it (``SlackAudiences.for_viewer``), except that a lookup that fails raises
:class:`ReadersUnknownError`: the answer waits for the next try, as when Slack fails to take it.

The cheap check comes first: an answer that ``public_audience`` may read is posted anywhere,
without a Slack call. Only an answer citing or read from more than that costs one audience
lookup (``conversations.info``; a private channel's kind is never cached), and in a DM or a
channel that grants the asker's own groups, the asker's lookups once their cache has expired
(``users.info``, ``usergroups.users.list``): any of them failing keeps the answer queued.

Which answers are judged is :func:`bot.connectors.outbox_audience.judged_turn`'s: not the rest
of a shared answer (queued without a turn; checked when its button was pressed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bot.config import SlackSettings
from bot.connectors.outbox_audience import ReadersChangedError, ReadersUnknownError, judged_turn
from bot.connectors.slack_thread import SlackThread
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import FileIndex, IndexedFiles
from bot.runtime import Services
from bot.store import Store


class ThreadReaders(Protocol):
    """Who reads a conversation (``SlackAudiences``, whose ``for_viewer`` the live path uses)."""

    async def for_viewer(
        self,
        channel: str,
        user: str | None,
        event_channel_type: str | None = None,
        *,
        strict: bool = False,
    ) -> frozenset[str]:
        """The groups whose sources may be cited to ``user`` in ``channel`` (``strict``: a
        failed lookup raises ReadersUnknownError)."""
        ...


class QueuedAudience:
    """Judges a queued answer against the readers of its thread and the index, as they are now."""

    def __init__(
        self,
        store: Store,
        settings: SlackSettings,
        readers: ThreadReaders,
        files: FileIndex | None,
    ) -> None:
        self._store = store
        self._public = frozenset(settings.public_audience)
        self._readers = readers
        self._files = files

    @classmethod
    def of(cls, services: Services, readers: ThreadReaders) -> QueuedAudience:
        """The check of a connector's outbox: its store, the Slack settings, ``readers``
        (the connector's audience lookups) and the knowledge index of ``index.path``."""
        settings = services.settings
        return cls(services.store, settings.slack, readers, IndexedFiles.of(settings.index))

    async def check(self, thread: SlackThread, payload: Mapping[str, Any]) -> None:
        """Raise ReadersChangedError unless the answer of the item ``payload`` may be posted
        into ``thread`` now (see the module docstring); ReadersUnknownError when Slack cannot
        say who reads the thread now."""
        turn = judged_turn(self._store, payload)
        if turn is None or visible_answer(turn, self._public, self._files) is not None:
            return  # nothing to judge it by, or everyone may read it: no lookup needed
        # strict: an outage must keep the answer queued, not drop it as if the channel were
        # public now (the live path may count a failed lookup as public: it answers for that)
        readers = await self._readers.for_viewer(thread.channel, thread.user, strict=True)
        if visible_answer(turn, readers, self._files) is None:
            raise ReadersChangedError(
                f"{thread.channel} is read by {', '.join(sorted(readers))} now, who may not "
                f"see every source the answer of turn {turn.id} cites or read (a file as the "
                f"index has it now)"
            )


__all__ = ["QueuedAudience", "ReadersChangedError", "ReadersUnknownError", "ThreadReaders"]
