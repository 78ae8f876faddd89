"""``POST /api/feedback``: a helpful / not helpful vote on an answer of one's own conversation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.connectors.web.conftest import WebHarness


async def answered(web: WebHarness) -> tuple[str, int]:
    body = (await web.ask("How do I install it?")).json()
    return body["conversation_id"], body["turn_id"]


async def test_a_vote_is_recorded_once_per_answer(web: WebHarness) -> None:
    conversation, turn = await answered(web)
    vote = {"conversation_id": conversation, "turn_id": turn, "value": "not_helpful"}
    first = await web.client.post("/api/feedback", json=vote)
    again = await web.client.post("/api/feedback", json={**vote, "value": "helpful"})
    assert (first.status_code, first.json()) == (200, {"recorded": True, "vote": "not_helpful"})
    # refused, naming the vote that stands (the page shows that one pressed, not this one)
    assert (again.status_code, again.json()) == (200, {"recorded": False, "vote": "not_helpful"})
    assert web.services.store.feedback(turn) == ["not_helpful"]


async def test_the_conversation_returns_each_answers_vote(web: WebHarness) -> None:
    # after a reload the page shows the vote an answer already has
    conversation, turn = await answered(web)
    await web.ask("And then?", conversation_id=conversation)
    await web.client.post(
        "/api/feedback",
        json={"conversation_id": conversation, "turn_id": turn, "value": "helpful"},
    )
    turns = (await web.client.get(f"/api/conversations/{conversation}")).json()["turns"]
    assert [t["vote"] for t in turns] == ["helpful", None]


async def test_only_an_answer_of_that_conversation_can_be_rated(web: WebHarness) -> None:
    conversation, turn = await answered(web)
    _, other_turn = await answered(web)
    pending = web.services.store.add_turn(conversation, "web", "still thinking", status="pending")
    for conversation_id, turn_id in (
        (conversation, other_turn),  # turn ids are sequential: not someone else's answer
        ("0" * 32, turn),  # a conversation that does not exist
        (conversation, pending),  # nothing to rate yet
    ):
        response = await web.client.post(
            "/api/feedback",
            json={"conversation_id": conversation_id, "turn_id": turn_id, "value": "helpful"},
        )
        assert response.status_code == 404
        assert response.json() == {"error": "no such answer in this conversation"}
    assert web.services.store.feedback(other_turn) == []


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"turn_id": 1, "value": "helpful"}, "conversation_id is required"),
        ({"conversation_id": "c" * 32, "turn_id": "1", "value": "helpful"},
         "turn_id must be a positive integer"),
        ({"conversation_id": "c" * 32, "turn_id": True, "value": "helpful"},
         "turn_id must be a positive integer"),
        ({"conversation_id": "c" * 32, "turn_id": 1, "value": "meh"},
         "value must be one of: helpful, not_helpful"),
        ({"conversation_id": "c" * 32, "turn_id": 1, "value": "helpful", "user": "x"},
         "unknown field(s): user"),
        ({"conversation_id": "../x", "turn_id": 1, "value": "helpful"},
         "conversation_id must be an id returned by this server"),
        (["helpful"], 'send a JSON object like {"conversation_id": "...", "turn_id": 3, '
                      '"value": "helpful"}'),
    ],
)  # fmt: skip
async def test_a_bad_vote_is_refused_with_its_reason(
    web: WebHarness, body: Any, reason: str
) -> None:
    response = await web.client.post("/api/feedback", json=body)
    assert (response.status_code, response.json()) == (400, {"error": reason})


async def test_a_vote_from_a_site_that_may_not_embed_citecast_is_refused(web: WebHarness) -> None:
    conversation, turn = await answered(web)
    response = await web.client.post(
        "/api/feedback",
        json={"conversation_id": conversation, "turn_id": turn, "value": "helpful"},
        headers={"origin": "https://elsewhere.example"},
    )
    assert response.status_code == 403
    assert web.services.store.feedback(turn) == []


async def test_a_vote_that_is_not_json_is_told_to_send_the_vote_as_json(web: WebHarness) -> None:
    conversation, turn = await answered(web)
    response = await web.client.post(
        "/api/feedback", data={"conversation_id": conversation, "turn_id": str(turn)}
    )
    assert (response.status_code, response.json()) == (
        415,
        {"error": "send the vote as JSON (Content-Type: application/json)"},
    )
    question = await web.client.post("/api/ask", data={"question": "hi"})
    assert question.json() == {
        "error": "send the question as JSON (Content-Type: application/json)"
    }
