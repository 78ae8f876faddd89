"""A cited file made private (or dropped from the index) after the answer: the QA steps over the
real app with the built-in answerer. Its old ``/files/`` link stops working, a reload of the
conversation mints no fresh link to it and shows it as no longer available, the share page
shows the answer no more (test_web_share_made_private.py), and a viewer of its new audience
still reads it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.assistant.assistant import Assistant
from bot.config import AudienceRule, IndexSettings
from bot.knowledge import ingest
from bot.runtime import Services
from tests.connectors.web.conftest import build_harness, make_settings

QUESTION = "When does the Leipzig depot open?"
PUBLIC_TEXT = "# Roadmap\n\nThe new Leipzig depot opens in June.\n"
SECRET = "Board only: the depot is financed by selling the Hamburg site."
PRIVATE_TEXT = f"---\naudience: [board]\n---\n{PUBLIC_TEXT}\n{SECRET}\n"
REMOVED = "(no longer available)"
FILES_LINK = re.compile(r'/files/[^"#\s?]+')


@dataclass
class Asked:
    """The public viewer's first answer: its conversation, share link and the file link."""

    conversation_id: str
    share_path: str
    file_path: str


def kb_with_roadmap(tmp_path: Path, folder: str = "") -> Path:
    kb = tmp_path / "kb"
    (kb / folder).mkdir(parents=True, exist_ok=True)
    (kb / folder / "roadmap.md").write_text(PUBLIC_TEXT, encoding="utf-8")
    (kb / "welcome.md").write_text("# Welcome\n\nThe help desk answers mail.\n")
    return kb


def local(url: str) -> str:
    return url.removeprefix("http://citecast.test")


async def ask_public(client: httpx.AsyncClient) -> Asked:
    response = await client.post("/api/ask", json={"question": QUESTION})
    assert response.status_code == 200, response.text
    body = response.json()
    [citation] = body["citations"]
    assert citation["form"] == "download", citation
    return Asked(body["conversation_id"], local(body["share_url"]), local(citation["url"]))


async def fetch_all(client: httpx.AsyncClient, path: str) -> list[httpx.Response]:
    """``path`` as a browser opens it (the viewer page), as a script does, and downloaded."""
    base = path.split("#")[0]
    return [
        await client.get(base, headers={"accept": "text/html"}),
        await client.get(base),
        await client.get(f"{base}?download=1"),
    ]


def assert_refused(responses: list[httpx.Response]) -> None:
    for response in responses:
        assert response.status_code == 404, response.text
        assert SECRET not in response.text and "Leipzig" not in response.text
    # the JSON refusal is the one every bad link gets: nothing tells that the file exists
    assert responses[1].json() == {"error": "not found"}


async def reloaded(
    client: httpx.AsyncClient, asked: Asked
) -> tuple[dict[str, Any], httpx.Response]:
    """The conversation's stored answer as a reload gets it, and the share page."""
    conversation = await client.get(f"/api/conversations/{asked.conversation_id}")
    assert conversation.status_code == 200, conversation.text
    [turn] = conversation.json()["turns"]
    share = await client.get(asked.share_path, headers={"accept": "text/html"})
    return turn, share


async def assert_shown_as_removed(client: httpx.AsyncClient, asked: Asked) -> None:
    turn, share = await reloaded(client, asked)
    assert turn["status"] == "done"
    [citation] = turn["citations"]
    assert citation["form"] == "name" and "url" not in citation, citation
    assert citation["title"] == f"Roadmap {REMOVED}"
    markup = turn["html"]
    assert f"Roadmap {REMOVED}" in markup
    # no fresh link to the file: had one been minted, it must not open either
    for link in FILES_LINK.findall(markup):
        assert_refused(await fetch_all(client, link))
    assert "/files/" not in markup
    # the share page shows the answer no more, as for any answer that may not be shared
    assert share.status_code == 404 and "Leipzig" not in share.text
    assert "/files/" not in share.text
    # the client form of the stored answer carries neither the passage nor a link
    [stored] = turn["answer"]["citations"]
    assert "text" not in stored["source"] and "url" not in stored["source"]


def ingest_private(kb: Path, settings: IndexSettings, how: str) -> None:
    """Make ``roadmap.md`` private for the board, as the QA pass did, and re-ingest."""
    if how == "front matter":
        (kb / "roadmap.md").write_text(PRIVATE_TEXT, encoding="utf-8")
        ingest([kb], settings)
    else:  # a glob rule making its folder private
        (kb / "plans" / "roadmap.md").write_text(f"{PUBLIC_TEXT}\n{SECRET}\n", encoding="utf-8")
        rules = [AudienceRule(glob="plans/*", audience=["board"])]
        ingest([kb], settings.model_copy(update={"audience_rules": rules}))


def harness(tmp_path: Path, **web: Any) -> tuple[Services, httpx.AsyncClient]:
    return build_harness(tmp_path, Assistant.from_settings(make_settings(tmp_path)), **web)


@pytest.mark.parametrize("how", ["front matter", "audience rule"])
async def test_a_file_made_private_after_it_was_cited_is_not_served_to_the_public(
    tmp_path: Path, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path, "plans" if how == "audience rule" else "")
    settings = make_settings(tmp_path)
    ingest([kb], settings.index)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask_public(client)
        before = await fetch_all(client, asked.file_path)
        assert [r.status_code for r in before] == [200, 200, 200]
        assert "Leipzig" in before[2].text
        ingest_private(kb, settings.index, how)
        revoked = await fetch_all(client, asked.file_path)  # the old link
        assert_refused(revoked)
        # a browser gets the page any dead link gets: nothing tells that the file exists
        forged = await client.get("/files/forged.token", headers={"accept": "text/html"})
        assert revoked[0].text == forged.text and "no longer available" in forged.text
        await assert_shown_as_removed(client, asked)
        # new public questions do not cite it (already so before the fix)
        again = (await client.post("/api/ask", json={"question": QUESTION})).json()
        assert "Leipzig" not in str(again["citations"])
    services.store.close()
    # a viewer of the board still reads it, on a fresh link and in full
    board, client = harness(tmp_path, audience=["public", "board"])
    async with client:
        mine = await ask_public(client)
        opened = await fetch_all(client, mine.file_path)
        assert [r.status_code for r in opened] == [200, 200, 200]
        assert SECRET in opened[0].text and SECRET in opened[2].text
        turn, share = await reloaded(client, mine)
        [citation] = turn["citations"]
        assert citation["form"] == "download" and REMOVED not in turn["html"]
        assert share.status_code == 200 and SECRET not in share.text
    board.store.close()


@pytest.mark.parametrize("how", ["unreadable", "deleted"])
async def test_a_file_gone_from_the_index_is_neither_served_nor_linked(
    tmp_path: Path, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path)
    settings = make_settings(tmp_path)
    ingest([kb], settings.index)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask_public(client)
        roadmap = kb / "roadmap.md"
        if how == "unreadable":
            # front matter that cannot be read drops the file from the index (it may have
            # named an audience), while it stays on disk in an ingested folder
            roadmap.write_text(f"---\ntitle: Roadmap: {SECRET}\n---\n{PUBLIC_TEXT}")
            report = ingest([kb], settings.index)
            assert report.skipped and roadmap.exists()
        else:
            roadmap.unlink()  # deleted, not yet re-ingested
        assert_refused(await fetch_all(client, asked.file_path))
        await assert_shown_as_removed(client, asked)
    services.store.close()
