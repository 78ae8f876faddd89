"""One answer at a time posts into a place: a Slack thread, a Discord channel or thread.

Two questions asked in one thread are answered at the same time, but an answer longer than one
message is posted as several, and two such answers posted at once would interleave part by
part (a part of one reading ``[2]`` right above the other's source list). So an answer *claims*
its place (:meth:`Places.claim`) and takes it before it shows anything; it keeps the place
until its last part, or its apology, is posted. Another answer to the same place is still
written meanwhile: only its posting waits.

The rule for streaming: the answer that starts showing first keeps the place until it is
complete. A later one shows nothing while the place is taken (its text is gathered, not lost)
and starts showing the moment the place is free: its first message then comes below the other
answer's last part, never between two of them. An answer that waits (its text is complete, or
it fails) gets the place in the order the waits began.

A place that no answer holds or waits for is forgotten, so the registry does not grow with
every thread ever answered. A claim is released when its ``async with`` is left, by a failure
or a cancellation too, so a failed answer never holds its thread for good; a claim gives up
its wait when cancelled, and hands on a place it was given meanwhile.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Hashable
from types import TracebackType


class _Place:
    """Who posts into one place now, and who waits for it, first come first served."""

    def __init__(self) -> None:
        self.holder: Claim | None = None
        self.waiting: deque[tuple[Claim, asyncio.Future[None]]] = deque()


class Places:
    """The places answers are being posted to (see the module docstring)."""

    def __init__(self) -> None:
        self._places: dict[Hashable, _Place] = {}

    def __len__(self) -> int:
        """How many places an answer holds or waits for now."""
        return len(self._places)

    def claim(self, key: Hashable) -> Claim:
        """One answer's claim on place ``key``; it holds the place once taken, until released."""
        return Claim(self, key)

    def _place(self, key: Hashable) -> _Place:
        return self._places.setdefault(key, _Place())

    def _forget_if_idle(self, key: Hashable) -> None:
        place = self._places.get(key)
        if place is not None and place.holder is None and not place.waiting:
            del self._places[key]


class Claim:
    """One answer's turn at one place: taken before it first shows something, released when
    its ``async with`` is left (or by :meth:`release`)."""

    def __init__(self, places: Places, key: Hashable) -> None:
        self._places = places
        self._key = key
        self.held = False

    def try_take(self) -> bool:
        """Take the place if nobody holds it or waits for it; True when this claim holds it."""
        if self.held:
            return True
        place = self._places._place(self._key)
        if place.holder is None and not place.waiting:
            place.holder, self.held = self, True
            return True
        self._places._forget_if_idle(self._key)
        return False

    async def take(self) -> None:
        """Wait until this claim holds the place."""
        if self.try_take():
            return
        place = self._places._place(self._key)
        turn = asyncio.get_running_loop().create_future()
        entry = (self, turn)
        place.waiting.append(entry)
        try:
            await turn
        except asyncio.CancelledError:
            if self.held:  # handed the place just as the wait was cancelled: hand it on
                self.release()
            else:
                if entry in place.waiting:  # (a release may have passed it by already)
                    place.waiting.remove(entry)
                self._places._forget_if_idle(self._key)
            raise

    def release(self) -> None:
        """Give the place up (to the longest waiting claim); nothing when not holding it."""
        if not self.held:
            return
        self.held = False
        place = self._places._places[self._key]
        place.holder = None
        while place.waiting:
            claim, turn = place.waiting.popleft()
            if turn.done():  # its wait was cancelled
                continue
            place.holder, claim.held = claim, True
            turn.set_result(None)
            break
        self._places._forget_if_idle(self._key)

    async def __aenter__(self) -> Claim:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


__all__ = ["Claim", "Places"]
