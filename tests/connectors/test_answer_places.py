"""One answer at a time posts into a place; waits are served in order and never leak."""

from __future__ import annotations

import asyncio

import pytest

from bot.connectors.answer_places import Places


async def test_a_place_is_taken_by_one_claim_and_forgotten_when_given_up() -> None:
    places = Places()
    first, second = places.claim(("C1", "1.0")), places.claim(("C1", "1.0"))
    other_thread = places.claim(("C1", "2.0"))
    assert first.try_take()
    assert not second.try_take()
    assert other_thread.try_take()  # another thread is another place
    first.release()
    assert second.try_take()
    second.release()
    first.release()  # not holding it: nothing to give up
    assert len(places) == 1  # only the other thread is held
    other_thread.release()
    assert len(places) == 0


async def test_waiting_claims_get_the_place_in_the_order_they_asked() -> None:
    places = Places()
    holder = places.claim(7)
    assert holder.try_take()
    order: list[str] = []

    async def wait(name: str) -> None:
        claim = places.claim(7)
        await claim.take()
        order.append(name)
        claim.release()

    waits = [asyncio.create_task(wait(name)) for name in ("b", "c")]
    await asyncio.sleep(0)
    assert not places.claim(7).try_take()  # nobody jumps the queue, even between two turns
    holder.release()
    assert not places.claim(7).try_take()  # handed to "b" before "b" even runs
    await asyncio.gather(*waits)
    assert order == ["b", "c"]
    assert len(places) == 0


async def test_a_cancelled_wait_leaves_no_trace() -> None:
    places = Places()
    holder = places.claim("C")
    assert holder.try_take()
    waiter = asyncio.create_task(places.claim("C").take())
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    holder.release()
    assert len(places) == 0


async def test_a_wait_cancelled_as_it_is_handed_the_place_hands_it_on() -> None:
    places = Places()
    holder = places.claim("C")
    assert holder.try_take()
    cancelled = asyncio.create_task(places.claim("C").take())
    after = places.claim("C")
    waiting = asyncio.create_task(after.take())
    await asyncio.sleep(0)
    holder.release()  # the place is the first waiter's now …
    cancelled.cancel()  # … which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    await asyncio.wait_for(waiting, timeout=5)
    assert after.held
    after.release()
    assert len(places) == 0


async def test_leaving_the_claim_by_a_failure_gives_the_place_up() -> None:
    places = Places()
    with pytest.raises(RuntimeError):
        async with places.claim("C") as claim:
            await claim.take()
            raise RuntimeError("the answer failed")
    assert len(places) == 0
    assert places.claim("C").try_take()
