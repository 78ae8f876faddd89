"""A question sent under another field name is told which fields the API takes.

Found in a new-user walkthrough: ``POST /api/ask`` with ``{"q": "…"}`` answered only
``unknown field(s): q``, leaving the client to find the right name in the README.
"""

from __future__ import annotations

from tests.connectors.web.conftest import WebHarness

HINT = '(send "question", and "conversation_id" to continue a conversation)'


async def test_an_unknown_field_of_a_question_names_the_fields_to_send(web: WebHarness) -> None:
    response = await web.client.post("/api/ask", json={"q": "How do refunds work?"})
    assert response.status_code == 400
    assert response.json() == {"error": f"unknown field(s): q {HINT}"}
    assert web.answerer.calls == []


async def test_the_stream_names_them_too(web: WebHarness) -> None:
    response = await web.client.get("/api/ask/stream?query=refunds&session=1")
    assert response.status_code == 400
    assert response.json() == {"error": f"unknown field(s): query, session {HINT}"}
    assert web.answerer.calls == []
