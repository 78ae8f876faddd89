"""A stored answer re-rendered after a re-ingest changed a cited file's public URL: the QA steps
over the real app with the built-in answerer (ingest, ask, re-ingest, reload).

The conversation API (``GET /api/conversations/{id}``) and the share page (``/turns/{key}``)
both cite the file at the URL the index gives it now, its text fragment rebuilt on it, so one
conversation never cites one file at two addresses; a file that got its first URL loses its
``/files/`` link, one that lost its URL gets one. A file made private keeps showing as no
longer available, its new URL nowhere, and a source that is no indexed file keeps its URL.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.models import Source
from bot.runtime import Services
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
)

QUESTION = "How do I set up the printer?"
TEXT = "# Setup\n\nThe printer is set up from the Devices page of the admin console.\n"
OLD = "https://docs.example.com/setup.html"
NEW = "https://docs.example.com/guides/setup.html"
REMOVED = "(no longer available)"
HTML = {"accept": "text/html"}
FILES_LINK = re.compile(r"/files/[^\"#\s?]+")


def kb_with_setup(tmp_path: Path, url: str | None = None) -> Path:
    kb = tmp_path / "kb"
    kb.mkdir(exist_ok=True)
    write_setup(kb, url)
    (kb / "welcome.md").write_text("# Welcome\n\nThe help desk answers mail.\n")
    return kb


def write_setup(kb: Path, url: str | None, audience: str | None = None) -> None:
    """``setup.md``, with front matter giving its ``url`` and ``audience`` when named."""
    front = [f"url: {url}"] if url else []
    front += [f"audience: [{audience}]"] if audience else []
    head = "---\n" + "\n".join(front) + "\n---\n" if front else ""
    (kb / "setup.md").write_text(head + TEXT, encoding="utf-8")


def templated(settings: IndexSettings, url: str | None) -> IndexSettings:
    """``settings`` with ``index.url_templates`` giving ``*.md`` files ``url``'s folder."""
    templates = {} if url is None else {"*.md": url.replace("setup.html", "{stem}.html")}
    return settings.model_copy(update={"url_templates": templates})


def local(url: str) -> str:
    return url.removeprefix("http://citecast.test")


def harness(tmp_path: Path, **web: Any) -> tuple[Services, httpx.AsyncClient]:
    return build_harness(tmp_path, Assistant.from_settings(make_settings(tmp_path)), **web)


async def ask(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.post("/api/ask", json={"question": QUESTION})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def reloaded(
    client: httpx.AsyncClient, asked: dict[str, Any]
) -> tuple[dict[str, Any], httpx.Response]:
    """The stored answer as a reload of its conversation gets it, and its share page."""
    conversation = await client.get(f"/api/conversations/{asked['conversation_id']}")
    assert conversation.status_code == 200, conversation.text
    [turn] = conversation.json()["turns"]
    assert turn["status"] == "done", turn
    share = await client.get(local(str(asked["share_url"])), headers=HTML)
    return turn, share


def setup_citation(payload: dict[str, Any]) -> dict[str, Any]:
    [citation] = [c for c in payload["citations"] if c["title"] == "Setup"]
    assert isinstance(citation, dict)
    return citation


def assert_cited_at(turn: dict[str, Any], share: httpx.Response, url: str, old: str) -> None:
    """The reload and the share page cite setup.md at ``url`` (its quote's text fragment on
    it), and nothing of them at the ``old`` URL."""
    citation = setup_citation(turn)
    assert citation["form"] == "link", citation
    assert citation["url"].startswith(f"{url}#:~:text="), citation
    [stored] = [c for c in turn["answer"]["citations"] if c["source"].get("title") == "Setup"]
    assert stored["source"]["url"] == url
    assert stored["deep_link"] == citation["url"]
    assert url in turn["html"] and old not in turn["html"]
    assert "/files/" not in turn["html"]
    assert share.status_code == 200, share.text
    assert url in share.text and old not in share.text and "/files/" not in share.text


@pytest.mark.parametrize("how", ["url_templates", "front matter"])
async def test_a_reload_and_the_share_page_cite_a_file_at_its_new_url(
    tmp_path: Path, how: str
) -> None:
    settings = make_settings(tmp_path).index
    if how == "url_templates":
        kb = kb_with_setup(tmp_path)
        ingest([kb], templated(settings, OLD))
    else:
        kb = kb_with_setup(tmp_path, OLD)
        ingest([kb], settings)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask(client)
        assert setup_citation(asked)["url"].startswith(f"{OLD}#:~:text=")
        if how == "url_templates":  # an upgrade whose reader matches the templates otherwise
            ingest([kb], templated(settings, NEW))
        else:
            write_setup(kb, NEW)
            ingest([kb], settings)
        turn, share = await reloaded(client, asked)
        assert_cited_at(turn, share, NEW, OLD)
        # a new answer cites it at the same URL as the reloaded one
        assert setup_citation(await ask(client))["url"] == setup_citation(turn)["url"]
    services.store.close()


async def test_a_file_that_got_a_url_since_is_cited_at_it_instead_of_a_files_link(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path).index
    kb = kb_with_setup(tmp_path)
    ingest([kb], settings)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask(client)
        assert setup_citation(asked)["form"] == "download"
        ingest([kb], templated(settings, NEW))
        turn, share = await reloaded(client, asked)
        assert_cited_at(turn, share, NEW, "/files/")
    services.store.close()


async def test_a_file_that_lost_its_url_since_is_linked_by_a_signed_files_link(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path).index
    kb = kb_with_setup(tmp_path)
    ingest([kb], templated(settings, OLD))
    services, client = harness(tmp_path)
    async with client:
        asked = await ask(client)
        assert setup_citation(asked)["form"] == "link"
        ingest([kb], settings)
        turn, share = await reloaded(client, asked)
        citation = setup_citation(turn)
        assert citation["form"] == "download", citation
        [link] = set(FILES_LINK.findall(citation["url"]))
        opened = await client.get(link, params={"download": "1"})
        assert opened.status_code == 200 and "Devices page" in opened.text
        assert OLD not in turn["html"] and OLD not in share.text
        assert share.status_code == 200 and "/files/" in share.text
    services.store.close()


async def test_a_file_made_private_with_a_new_url_shows_neither_url(tmp_path: Path) -> None:
    settings = make_settings(tmp_path).index
    kb = kb_with_setup(tmp_path, OLD)
    ingest([kb], settings)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask(client)
        write_setup(kb, NEW, audience="board")
        ingest([kb], settings)
        turn, share = await reloaded(client, asked)
        [shown] = turn["citations"]
        assert shown["form"] == "name" and shown["title"] == f"Setup {REMOVED}", shown
        for text in (turn["html"], share.text, str(turn["answer"])):
            assert NEW not in text and OLD not in text
        assert share.status_code == 404
    services.store.close()


async def test_a_source_that_is_no_indexed_file_keeps_its_stored_url(tmp_path: Path) -> None:
    settings = make_settings(tmp_path).index
    kb = kb_with_setup(tmp_path)
    ingest([kb], templated(settings, NEW))
    indexed = str((kb / "setup.md").resolve())
    sources = [
        passage(1),  # a tool's web result: no file
        # a file the index does not hold, and one whose stored id names no indexed passage
        Source(id="notes.md#1", title="Notes", url=OLD, path=str(tmp_path / "notes.md")),
        Source(id="record:42", title="Ticket 42", url=f"{OLD}?ticket=42", path=indexed),
    ]
    answerer = CannedAnswerer(cited_answer(*sources))
    services, client = build_harness(tmp_path, answerer)
    async with client:
        asked = (await client.post("/api/ask", json={"question": QUESTION})).json()
        turn, share = await reloaded(client, asked)
        urls = [source.url for source in sources]
        assert [c["url"].split("#")[0] for c in turn["citations"]] == urls
        assert all(url in share.text.replace("&amp;", "&") for url in urls if url)
        assert NEW not in turn["html"] and NEW not in share.text
    services.store.close()
