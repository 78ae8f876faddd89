"""The share rule is judged in a worker thread, never on the event loop.

It reads every earlier answer of a conversation, however long: a QA pass measured 504 ms for
the first load of a conversation of 20,000 answers of 20 KB, during which the server answered
nothing else. The conversation endpoint, the share page and the answer payload of ``/api/ask``
and ``/api/ask/stream`` are now made in a worker thread. Each test holds that work on an Event
and checks that the event loop goes on running (a request made on the loop would block the
test itself until the safety timeout, and the test fails).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot.connectors import web as web_module
from bot.connectors.web_conversation_page import conversation_page
from bot.connectors.web_turn_page import load_answer
from bot.connectors.web_turns import WebTurns
from tests.connectors.web.conftest import WebHarness, parse_sse, passage
from tests.connectors.web.test_web_long_conversation import HTML, seed, share_path


class Held:
    """Wraps ``wrapped`` so that each call waits for ``release`` (set by the test) first,
    recording the thread it ran in."""

    def __init__(self, wrapped: Callable[..., Any]) -> None:
        self.wrapped = wrapped
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[threading.Thread] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.current_thread())
        self.started.set()
        # a safety net for a failing test only (on the event loop it blocks the test itself)
        self.release.wait(5)
        return self.wrapped(*args, **kwargs)


async def held_while_the_loop_runs(held: Held, request: asyncio.Future[Any]) -> Any:
    """Wait until ``held`` is entered, check the loop still runs while it is held, release it,
    and return what ``request`` gives."""
    ticks = 0
    while not held.started.is_set() and ticks < 500:
        await asyncio.sleep(0.01)
        ticks += 1
    await asyncio.sleep(0.05)  # the loop still runs, and the request is still held
    assert held.started.is_set() and not request.done()
    held.release.set()
    result = await request
    assert threading.main_thread() not in held.threads
    return result


async def test_the_conversation_endpoint_is_made_in_a_worker_thread(
    web: WebHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = web.services.store
    conversation = store.new_conversation_id()
    ids = seed(store, conversation, 3, passage(1))
    held = Held(conversation_page)
    monkeypatch.setattr(web_module, "conversation_page", held)
    request = asyncio.ensure_future(web.client.get(f"/api/conversations/{conversation}"))
    response = await held_while_the_loop_runs(held, request)
    assert response.status_code == 200
    assert [turn["turn_id"] for turn in response.json()["turns"]] == ids


async def test_the_share_page_is_made_in_a_worker_thread(
    web: WebHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = web.services.store
    [turn_id] = seed(store, store.new_conversation_id(), 1, passage(1))
    held = Held(load_answer)
    monkeypatch.setattr(web_module, "load_answer", held)
    path = share_path(web, turn_id)
    request = asyncio.ensure_future(web.client.get(path, headers=HTML))
    response = await held_while_the_loop_runs(held, request)
    assert response.status_code == 200
    assert "Answer Q0." in response.text


@pytest.mark.parametrize("streamed", [False, True])
async def test_the_answer_payload_is_made_in_a_worker_thread(
    web: WebHarness, monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    held = Held(WebTurns.payload)
    # a plain function, so that it binds to the WebTurns it is called on
    monkeypatch.setattr(WebTurns, "payload", lambda turns, *args: held(turns, *args))
    if streamed:
        request = asyncio.ensure_future(
            web.client.get("/api/ask/stream", params={"question": "Is it true?"})
        )
    else:
        request = asyncio.ensure_future(web.ask("Is it true?"))
    response = await held_while_the_loop_runs(held, request)
    assert response.status_code == 200
    body = parse_sse(response.text)[-1][1] if streamed else response.json()
    assert body["share_url"] is not None
    assert [citation["n"] for citation in body["citations"]] == [1, 2]
