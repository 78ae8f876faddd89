"""A queued Slack answer that pass after pass finds its thread busy waits its turn there.

The outbox posts into a thread only while it holds the thread's place (``answer_places``). A
pass does not wait for a place: it takes it only if no answer holds it or waits for it, and
leaves the thread's items for the next pass otherwise. In a busy thread that could go on for
good: while answers keep handing the thread on, every pass finds it taken, and a queued answer
would wait without end, its tries never counting (a pass that leaves it is no try).

So the passes that left a thread are counted, and the :data:`PASSES_BEFORE_WAITING`-th in a
row starts a task that waits for the place as an answer does (``Claim.take``): it gets the
thread once the answers holding or waiting for it then are posted, before any answer that
comes later, and posts the thread's due items in order. A pass that takes the thread, or finds
nothing due there, starts the count again.

Nothing else waits with it: the pass goes on with the other threads, and later passes leave
that thread to its task. It cannot deadlock: an answer holding a place never waits for the
outbox (what Slack refuses it queues, then it lets the place go). The tasks end with the
outbox's run (:meth:`ThreadWaits.cancel`); a cancelled wait gives up its turn, or the place.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Hashable

from bot.connectors.answer_places import Claim

log = logging.getLogger(__name__)

# Passes in a row that find a thread taken, the last of them starting the outbox's wait there.
# Not the first: an answer being shown is usually complete by the next pass or two (30 s apart
# by default), and while the outbox waits for a thread no later answer there shows its text as
# it is written (it is gathered until the outbox has posted, see ``slack_turn_sink``).
PASSES_BEFORE_WAITING = 3

# What posts the due items of one thread, called while the outbox holds the thread's place.
SendThread = Callable[[Hashable], Awaitable[None]]


class ThreadWaits:
    """The threads the outbox's passes have left in a row, and those it waits its turn in."""

    def __init__(self, send: SendThread) -> None:
        self._send = send
        self._left: dict[Hashable, int] = {}  # place -> passes in a row that left it
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}  # place -> the task waiting there

    def waiting(self, place: Hashable) -> bool:
        """Whether the outbox waits its turn at ``place`` (or posts there after waiting)."""
        return place in self._tasks

    def left(self, place: Hashable, claim: Claim) -> None:
        """A pass left ``place`` (``claim``, not holding it, could not take it); once the
        passes that did are :data:`PASSES_BEFORE_WAITING` in a row, ``claim`` waits for it."""
        if self.waiting(place):
            return
        self._left[place] = passes = self._left.get(place, 0) + 1
        if passes < PASSES_BEFORE_WAITING:
            return
        log.info(
            "a queued Slack answer waits its turn in thread %s (left by %d passes)", place, passes
        )
        self._tasks[place] = asyncio.create_task(self._wait_and_send(place, claim))

    def pass_over(self, left: Collection[Hashable]) -> None:
        """A pass is over, having left the places ``left``: the count of any other starts
        again (the pass took it, or nothing there was due)."""
        self._left = {place: n for place, n in self._left.items() if place in left}

    async def cancel(self) -> None:
        """Stop waiting everywhere (the outbox stops): the items stay queued."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _wait_and_send(self, place: Hashable, claim: Claim) -> None:
        try:
            async with claim:  # released however this ends
                await claim.take()
                await self._send(place)
        except Exception:
            # the store failing, or a bug: the items stay queued for the next passes
            log.exception("posting queued Slack answers after waiting for their thread failed")
        finally:
            del self._tasks[place]
            self._left.pop(place, None)


__all__ = ["PASSES_BEFORE_WAITING", "ThreadWaits"]
