"""An answer is offered a ``share_url`` only while its share page shows it.

``GET /api/conversations/{id}`` gave every answer a ``share_url`` even after a file it cites
was made private or dropped from the index, when its share page (``/turns/{key}``) had become
the "Answer not found" 404, so the chat's "Copy link" copied a dead link. The API and the page
now follow one rule (``web_turn_page.shareable_answers``): over the real app with the
built-in answerer, each ``share_url`` offered opens its page, and an answer whose page would
not show (or whose conversation's history holds one) has ``share_url: null``.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bot.knowledge import ingest
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION, kb_with_roadmap, local
from tests.connectors.web.test_web_share_made_private import MAIL, ask, harness, make_gone

HTML = {"accept": "text/html"}


async def reloaded(client: httpx.AsyncClient, conversation: object) -> list[dict[str, object]]:
    response = await client.get(f"/api/conversations/{conversation}")
    assert response.status_code == 200, response.text
    turns: list[dict[str, object]] = response.json()["turns"]
    return turns


async def opens(client: httpx.AsyncClient, share_url: object) -> bool:
    page = await client.get(local(str(share_url)), headers=HTML)
    assert page.status_code in (200, 404), page.text
    return page.status_code == 200


@pytest.mark.parametrize("how", ["front matter", "deleted"])
async def test_share_url_is_offered_only_while_the_share_page_shows_the_answer(
    tmp_path: Path, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    services, _, client = harness(tmp_path)
    async with client:
        roadmap = await ask(client, QUESTION)
        conversation = roadmap["conversation_id"]
        await ask(client, MAIL, str(conversation))
        other = await ask(client, MAIL)
        before = await reloaded(client, conversation)
        assert all(turn["share_url"] for turn in before)
        assert [await opens(client, turn["share_url"]) for turn in before] == [True, True]

        make_gone(kb, tmp_path, how)

        after = await reloaded(client, conversation)
        # the answers still show (the file by name only), but there is no page to share
        assert [turn["status"] for turn in after] == ["done", "done"]
        assert [turn["share_url"] for turn in after] == [None, None]
        for turn in before:
            assert not await opens(client, turn["share_url"])
        # a new answer in that conversation has the spoilt history: no page either
        later = await ask(client, MAIL, str(conversation))
        assert later["share_url"] is None
        assert [turn["share_url"] for turn in await reloaded(client, conversation)] == [None] * 3
        # another conversation, citing only public files, is shared as before
        [kept] = await reloaded(client, other["conversation_id"])
        assert kept["share_url"] == other["share_url"]
        assert await opens(client, kept["share_url"])
        fresh = await ask(client, MAIL, str(other["conversation_id"]))
        assert fresh["share_url"] and await opens(client, fresh["share_url"])
    services.store.close()
