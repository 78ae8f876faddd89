"""*Share in channel* refuses a private answer whose knowledge-base file is no longer public.

The QA steps over the real connector (against the fake Slack) and the built-in answerer: ingest
a public file, ask about it with ``/citecast``, make the file private (front matter
``audience:`` or an ``audience_rules`` glob, then ``citecast ingest``) or drop it from the
index, then press the button the answer came with. The stored answer still says ``public`` for
the file, but the index as it is now decides, as for the web's share page
(``bot.connectors.web_file_access.visible_now``): nothing is posted, and the asker is told
(``NOT_SHAREABLE``). An answer citing only public files is still shared.

The harness leaves ``index.path`` at its default, ``.citecast/index.db`` relative to the working
folder, so each test works in its own ``tmp_path``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings, Settings
from bot.connectors.slack_interactions import NOT_SHAREABLE
from bot.knowledge import ingest
from tests.connectors.slack_harness import PUBLIC, SlackWorld, slack_world, slash
from tests.connectors.test_slack_share_read_sources import share_buttons
from tests.connectors.web.test_web_files_made_private import (
    QUESTION,
    SECRET,
    ingest_private,
    kb_with_roadmap,
)
from tests.connectors.web.test_web_share_made_private import MAIL


async def share_button(world: SlackWorld, question: str) -> str:
    """Ask ``question`` privately; the value of the *Share in channel* button it came with."""
    before = len(world.fake.responses)
    await slash(world, question)
    [answer] = world.fake.responses[before:]
    [button] = share_buttons(answer["blocks"])
    return str(button["value"])


def uploads(world: SlackWorld) -> list[dict[str, Any]]:
    """Every file uploaded to the fake Slack."""
    return list(world.fake.state.uploads.values())


def refusals(world: SlackWorld) -> list[str]:
    return [
        str(response["text"]) for response in world.fake.responses if response["key"] == "click"
    ]


@pytest.mark.parametrize("how", ["front matter", "audience rule", "deleted"])
async def test_a_share_of_an_answer_citing_a_file_no_longer_public_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.chdir(tmp_path)  # the harness's index.path is relative (see above)
    kb = kb_with_roadmap(tmp_path, "plans" if how == "audience rule" else "")
    index = IndexSettings()
    ingest([kb], index)
    answerer = Assistant.from_settings(Settings(index=index))
    async with slack_world(tmp_path, answerer) as world:
        roadmap = await share_button(world, QUESTION)
        welcome = await share_button(world, MAIL)
        assert "Leipzig" in json.dumps(world.fake.responses[0]["blocks"])

        if how == "deleted":
            (kb / "roadmap.md").unlink()
            ingest([kb], index)
        else:
            ingest_private(kb, index, how)

        await world.click("citecast_share", roadmap)
        # the file itself, private now, is not uploaded to the channel either
        assert not any(SECRET.encode() in upload.get("data", b"") for upload in uploads(world))
        # nothing in the channel, and the asker is told why, privately
        assert world.fake.bot_messages(PUBLIC) == []
        assert world.fake.calls_to("chat.postMessage") == []
        assert refusals(world) == [NOT_SHAREABLE]
        # an answer citing only public files is still shared
        await world.click("citecast_share", welcome)
        [shared] = world.fake.bot_messages(PUBLIC)
        posted = json.dumps(shared)
        assert "The help desk answers mail" in posted
        assert "Leipzig" not in posted and SECRET not in posted
