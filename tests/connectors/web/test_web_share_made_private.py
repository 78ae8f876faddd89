"""A shared answer stops being shared once a knowledge-base file it cites is no longer public:
the QA steps over the real app with the built-in answerer (ingest, ask, re-ingest private).

The share page (``/turns/{key}``) then answers the "Answer not found" 404 every unshareable
turn gets, and so does a later answer of the same conversation (the model had the first as
history). An answer citing only public files stays shared. The asker's own reload still shows
the answer, its source "(no longer available)", but the model is not given it as history again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.base import Answerer, Reply, ReplyEvent
from bot.knowledge import ingest
from bot.models import Exchange
from bot.runtime import Services
from tests.connectors.web.conftest import build_harness, make_settings
from tests.connectors.web.test_web_files_made_private import (
    QUESTION,
    REMOVED,
    SECRET,
    ingest_private,
    kb_with_roadmap,
    local,
)

MAIL = "Who answers mail?"
HTML = {"accept": "text/html"}


@dataclass
class RecordingAnswerer:
    """The built-in answerer, recording the history each question is asked with."""

    inner: Answerer
    histories: list[tuple[Exchange, ...]] = field(default_factory=list)

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.histories.append(tuple(history))
        return await self.inner.reply(question, audience, history)

    def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.histories.append(tuple(history))
        return self.inner.stream(question, audience, history)


def harness(tmp_path: Path) -> tuple[Services, RecordingAnswerer, httpx.AsyncClient]:
    answerer = RecordingAnswerer(Assistant.from_settings(make_settings(tmp_path)))
    services, client = build_harness(tmp_path, answerer)
    return services, answerer, client


async def ask(
    client: httpx.AsyncClient, question: str, conversation_id: str | None = None
) -> dict[str, object]:
    body: dict[str, object] = {"question": question}
    if conversation_id is not None:
        body["conversation_id"] = conversation_id
    response = await client.post("/api/ask", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def cited_titles(answer: dict[str, object]) -> list[str]:
    citations = answer["citations"]
    assert isinstance(citations, list)
    return [str(citation["title"]) for citation in citations]


def share_path(answer: dict[str, object]) -> str:
    return local(str(answer["share_url"]))


def make_gone(kb: Path, tmp_path: Path, how: str) -> None:
    """Make ``kb/roadmap.md`` unreadable to the public: private, or dropped from the index."""
    settings = make_settings(tmp_path).index
    if how in ("front matter", "audience rule"):
        ingest_private(kb, settings, how)
    elif how == "unreadable":  # front matter that cannot be read: ingest drops the file
        (kb / "roadmap.md").write_text("---\ntitle: [unclosed\n---\nThe depot.\n")
        assert ingest([kb], settings).skipped
    else:  # deleted and re-ingested
        (kb / "roadmap.md").unlink()
        ingest([kb], settings)


@pytest.mark.parametrize("how", ["front matter", "audience rule", "unreadable", "deleted"])
async def test_the_share_page_of_an_answer_citing_a_file_no_longer_public_is_not_found(
    tmp_path: Path, how: str
) -> None:
    folder = "plans" if how == "audience rule" else ""
    kb = kb_with_roadmap(tmp_path, folder)
    ingest([kb], make_settings(tmp_path).index)
    services, _, client = harness(tmp_path)
    async with client:
        roadmap = await ask(client, QUESTION)
        assert cited_titles(roadmap) == ["Roadmap"]
        # a later answer of the same conversation that cites only the public welcome page
        follow_up = await ask(client, MAIL, str(roadmap["conversation_id"]))
        # an answer of another conversation that cites only the public welcome page
        mail = await ask(client, MAIL)
        assert cited_titles(follow_up) == cited_titles(mail) == ["Welcome"]
        for answer in (roadmap, follow_up, mail):
            shared = await client.get(share_path(answer), headers=HTML)
            assert shared.status_code == 200, shared.text

        make_gone(kb, tmp_path, how)

        # the page any unshareable or mistyped link gets: nothing tells why
        nobody = await client.get("/turns/1-forged", headers=HTML)
        assert nobody.status_code == 404 and "Answer not found" in nobody.text
        for answer in (roadmap, follow_up):
            page = await client.get(share_path(answer), headers=HTML)
            assert (page.status_code, page.text) == (404, nobody.text)
            assert "Leipzig" not in page.text and SECRET not in page.text
            script = await client.get(share_path(answer))
            assert (script.status_code, script.json()) == (404, {"error": "not found"})
        # an answer citing only public files is still shared, in full
        kept = await client.get(share_path(mail), headers=HTML)
        assert kept.status_code == 200 and "The help desk answers mail" in kept.text
    services.store.close()


async def test_an_answer_citing_a_file_made_private_is_shown_on_reload_but_not_given_as_history(
    tmp_path: Path,
) -> None:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    services, answerer, client = harness(tmp_path)
    async with client:
        roadmap = await ask(client, QUESTION)
        conversation = str(roadmap["conversation_id"])
        await ask(client, MAIL, conversation)
        # while the file is public, the model has the roadmap answer as history
        assert [exchange.question for exchange in answerer.histories[-1]] == [QUESTION]
        assert "Leipzig" in answerer.histories[-1][0].answer

        make_gone(kb, tmp_path, "front matter")
        await ask(client, MAIL, conversation)
        # now it does not, and the public answer after it still is history
        assert [exchange.question for exchange in answerer.histories[-1]] == [MAIL]
        assert "Leipzig" not in str(answerer.histories[-1])
        # streamed questions get the same history
        streamed = await client.get(
            "/api/ask/stream", params={"question": MAIL, "conversation_id": conversation}
        )
        assert streamed.status_code == 200
        assert [exchange.question for exchange in answerer.histories[-1]] == [MAIL, MAIL]

        # the asker's reload still shows the answer, its source by name only
        reload = await client.get(f"/api/conversations/{conversation}")
        assert reload.status_code == 200, reload.text
        first = reload.json()["turns"][0]
        assert first["status"] == "done" and "Leipzig" in first["html"]
        [citation] = first["citations"]
        assert citation["title"] == f"Roadmap {REMOVED}" and "url" not in citation
    services.store.close()
