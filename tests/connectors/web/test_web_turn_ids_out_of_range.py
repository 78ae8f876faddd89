"""Turn ids a client sends that SQLite cannot hold: the same 400 or 404 as any other wrong id.

SQLite's ids are signed 64-bit integers. A security review found ``?before=`` of 19 nines (which
passed the length check) and a vote on ``turn_id`` 2**64 raising OverflowError in the store: a
500. ``before`` above 2**63 - 1 is refused like any other bad value (400), and a vote on such an
id is "no such answer in this conversation" (404), as it was before votes looked turns up by id.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from tests.connectors.web.conftest import WebHarness, cited_answer, passage

BIGGEST = 2**63 - 1  # the largest id SQLite can hold


def seed(store: Store) -> tuple[str, int]:
    conversation = store.new_conversation_id()
    answer = cited_answer(passage(1), text="A.[^1]").to_json()
    return conversation, store.add_turn(conversation, "web", "Q?", answer, {"sources": []})


@pytest.mark.parametrize("before", ["9" * 19, str(BIGGEST + 1), str(2**64)])
async def test_a_before_above_what_sqlite_holds_is_a_400(web: WebHarness, before: str) -> None:
    conversation, _ = seed(web.services.store)
    response = await web.client.get(f"/api/conversations/{conversation}?before={before}")
    assert response.status_code == 400, response.text[:200]
    assert response.json() == {"error": "before must be the turn_id of a turn of this conversation"}


async def test_the_largest_id_sqlite_holds_is_a_before_like_any_other(web: WebHarness) -> None:
    conversation, turn_id = seed(web.services.store)
    response = await web.client.get(f"/api/conversations/{conversation}?before={BIGGEST}")
    assert response.status_code == 200, response.text[:200]
    assert [turn["turn_id"] for turn in response.json()["turns"]] == [turn_id]


@pytest.mark.parametrize("turn_id", [BIGGEST + 1, 2**64, 10**30])
async def test_a_vote_on_an_id_above_what_sqlite_holds_is_no_such_answer(
    web: WebHarness, turn_id: int
) -> None:
    conversation, answered = seed(web.services.store)
    vote = {"conversation_id": conversation, "turn_id": turn_id, "value": "helpful"}
    response = await web.client.post("/api/feedback", json=vote)
    assert response.status_code == 404, response.text[:200]
    assert response.json() == {"error": "no such answer in this conversation"}
    # the conversation's real answer can still be rated
    real = {"conversation_id": conversation, "turn_id": answered, "value": "helpful"}
    rated = await web.client.post("/api/feedback", json=real)
    assert rated.json() == {"recorded": True, "vote": "helpful"}


def test_the_store_has_no_turn_of_an_id_it_cannot_hold(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    _, turn_id = seed(store)
    assert store.turn(turn_id) is not None
    assert [store.turn(bad) for bad in (BIGGEST + 1, 2**64, 0, -1)] == [None] * 4
    store.close()
