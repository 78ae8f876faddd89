"""The messages one Slack answer put in its thread, and withdrawing them when the answer fails.

A long answer is several messages, and its sources are listed only at its end. When Slack takes
the first messages and then refuses a later one for good (a message it will never take, a
workspace that does not let the bot post there), the parts already posted cite ``[n]`` with no
source list: they must not stay. :class:`AnswerParts` knows them: the message a sink showed
itself (the streamed or edited first part, by its ts) and the messages it handed to the outbox
(by their delivery keys, found by reading the thread since they were handed over, which also
finds a post whose answer was lost). :meth:`AnswerParts.withdraw` makes the first of them the
apology and deletes the rest, as the Discord connector does with a half answer; with nothing
posted the apology is a new message. The outbox withdraws an answer the same way when it drops
the queued rest of it for good (``slack_outbox_drops``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Sequence

from bot.connectors.slack_client import QUESTION_GONE, UndeliverableError
from bot.connectors.slack_delivery import Message, SlackPoster
from bot.connectors.slack_delivery_keys import delivery_key, with_delivery_keys
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError

log = logging.getLogger(__name__)


def _ts_order(ts: str) -> float:
    try:
        return float(ts)
    except ValueError:
        return 0.0


class AnswerParts:
    """The parts of one answer in ``thread``, as a sink posts them."""

    def __init__(self, poster: SlackPoster, thread: SlackThread) -> None:
        self._poster = poster
        self._thread = thread
        self._shown: list[str] = []  # ts of parts the sink posted itself
        self._keys: list[str] = []  # delivery keys of the messages handed to the outbox
        self._since: float | None = None  # when the first of those was handed over

    def shown(self, ts: str | None) -> None:
        """The sink posted (or streamed) the part ``ts`` itself."""
        if ts and ts not in self._shown:
            self._shown.append(ts)

    def forget(self, ts: str | None) -> None:
        """The part ``ts`` is gone (deleted meanwhile): nothing to withdraw there."""
        if ts in self._shown:
            self._shown.remove(ts)

    def keyed(self, messages: Sequence[Message], since: float | None = None) -> list[Message]:
        """``messages`` with their delivery keys (kept when they have one), remembered as this
        answer's: hand these to the outbox. ``since``: when they were first tried, if before
        now (Unix seconds)."""
        keyed = with_delivery_keys(messages)
        moment = time.time() if since is None else since
        self._since = moment if self._since is None else min(self._since, moment)
        self._keys += [key for message in keyed if (key := delivery_key(message)) is not None]
        return keyed

    async def standing(self, *, quiet: bool = False) -> list[str]:
        """The ts of every part of the answer in the thread, oldest first. A thread that cannot
        be read costs only the parts known by their ts (logged, at INFO when ``quiet``)."""
        found = list(self._shown)
        if self._keys:
            try:
                posted = await self._poster.delivery_keys(self._thread, since=self._since)
            except ChannelError as exc:
                log.log(
                    logging.INFO if quiet else logging.WARNING,
                    "cannot read %s for the parts of a failed answer (%s)",
                    self._thread.channel,
                    exc,
                )
                posted = {}
            found += [ts for key in self._keys if (ts := posted.get(key)) and ts not in found]
        return sorted(found, key=_ts_order)

    async def withdraw(self, text: str | None = None) -> None:
        """Make the first part the apology (or ``text``: see ``SlackPoster.apologize``) and
        delete the rest; with no part, post the apology."""
        await self._withdraw(await self.standing(), text, apologize=True)

    async def delivered(self, delivery: Awaitable[object]) -> None:
        """Await ``delivery`` (the posting of this answer's messages); when Slack refuses one
        for good, withdraw the parts posted before it (:meth:`refused`) and raise again."""
        try:
            await delivery
        except UndeliverableError as exc:
            await self.refused(exc)
            raise

    async def refused(self, error: UndeliverableError) -> None:
        """Slack refused a part in a conversation now closed to the bot (no ``fail`` follows):
        withdraw the parts posted before it, if any. A question deleted meanwhile gets no
        apology; a workspace restriction gets one where Slack still takes it."""
        if not error.conversation_closed or not (self._shown or self._keys):
            return
        parts = await self.standing(quiet=True)
        if parts:
            await self._withdraw(parts, None, apologize=error.code != QUESTION_GONE)

    async def _withdraw(self, parts: list[str], text: str | None, *, apologize: bool) -> None:
        first = parts[0] if parts and apologize else None
        for ts in parts:
            if ts != first:
                await self._poster.delete(self._thread, ts)
        self._shown, self._keys = [], []
        if not apologize:
            return
        if not await self._poster.apologize(self._thread, first, text) and first is not None:
            # no apology in its place: the part would stay, citing sources it never lists
            await self._poster.delete(self._thread, first)


__all__ = ["AnswerParts"]
