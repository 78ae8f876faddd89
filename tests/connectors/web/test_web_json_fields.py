"""JSON bodies that name a field twice: refused, as the stream's query string refuses them."""

from __future__ import annotations

import pytest

from tests.connectors.web.conftest import WebHarness

JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    "body",
    [
        b'{"question": "harmless", "question": "the one answered"}',
        b'{"question": "q", "conversation_id": null, "conversation_id": "' + b"a" * 32 + b'"}',
    ],
)
async def test_a_question_naming_a_field_twice_is_refused_before_any_work(
    web: WebHarness, body: bytes
) -> None:
    answer = await web.client.post("/api/ask", content=body, headers=JSON)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("request body repeats the field(s): ")
    assert web.answerer.calls == []


async def test_a_vote_naming_a_field_twice_is_refused_and_nothing_recorded(
    web: WebHarness,
) -> None:
    asked = (await web.ask("How do I install it?")).json()
    conversation, turn = asked["conversation_id"], asked["turn_id"]
    body = (
        f'{{"conversation_id": "{conversation}", "turn_id": {turn},'
        ' "value": "helpful", "value": "not_helpful"}'
    ).encode()
    answer = await web.client.post("/api/feedback", content=body, headers=JSON)
    assert answer.status_code == 400
    assert answer.json() == {"error": "request body repeats the field(s): value; send each once"}
    assert web.services.store.feedback(asked["turn_id"]) == []


async def test_the_same_name_in_two_different_objects_is_not_a_repeat(web: WebHarness) -> None:
    # only a name repeated within one object is ambiguous; this is refused for another reason
    body = b'{"question": {"question": "x"}}'
    answer = await web.client.post("/api/ask", content=body, headers=JSON)
    assert answer.json() == {"error": "question must be a string"}


async def test_a_stream_naming_its_conversation_twice_is_refused(web: WebHarness) -> None:
    first = (await web.ask("How do I install it?")).json()["conversation_id"]
    second = (await web.ask("And on Linux?")).json()["conversation_id"]
    calls = len(web.answerer.calls)
    query = f"question=q&conversation_id={first}&conversation_id={second}"
    answer = await web.client.get(f"/api/ask/stream?{query}")
    assert (answer.status_code, answer.json()) == (400, {"error": "give one conversation_id"})
    assert len(web.answerer.calls) == calls
