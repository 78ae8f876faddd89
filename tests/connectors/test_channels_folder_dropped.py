"""Email history and Slack's *Share in channel* leave out an answer citing a file whose folder
the index no longer covers (``citecast ingest --rebuild`` over the other folders).

The QA steps over the real connectors and the built-in answerer: ingest ``kb/`` holding
``hr/roadmap.md`` (public by mistake) and ``pub/welcome.md``, ask about the roadmap, rebuild the
index from ``kb/pub`` alone, then follow up by mail or press the Slack button. The stored answer
still says ``public`` for the file, but a passage the index found, of a folder it no longer
covers, counts as dropped (``bot.connectors.web_file_access.visible_now``), as on the web's
share page (tests/connectors/web/test_web_folder_dropped_from_index.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings, Settings
from bot.connectors.slack_interactions import NOT_SHAREABLE
from bot.knowledge import ingest
from tests.connectors.email_flow_harness import capture
from tests.connectors.slack_harness import PUBLIC, slack_world
from tests.connectors.test_email_history_made_private import history_after
from tests.connectors.test_slack_share_made_private import refusals, share_button
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION
from tests.connectors.web.test_web_folder_dropped_from_index import (
    drop_hr_folder,
    kb_with_hr_folder,
)
from tests.connectors.web.test_web_share_made_private import MAIL
from tests.fakes.smtp_capture import CaptureServer

__all__ = ["capture"]


@pytest.mark.parametrize("how", ["rebuild", "index reset"])
async def test_an_answer_citing_a_dropped_folder_leaves_the_mail_thread_history(
    tmp_path: Path, capture: CaptureServer, how: str
) -> None:
    kb = kb_with_hr_folder(tmp_path)
    index = make_settings(tmp_path).index
    history = await history_after(
        tmp_path, capture, kb, index, lambda: drop_hr_folder(kb, index, how)
    )
    assert "Leipzig" not in history


async def test_a_share_of_an_answer_citing_a_dropped_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the Slack harness's index.path is relative
    kb = kb_with_hr_folder(tmp_path)
    index = IndexSettings()
    ingest([kb], index)
    answerer = Assistant.from_settings(Settings(index=index))
    async with slack_world(tmp_path, answerer) as world:
        roadmap = await share_button(world, QUESTION)
        welcome = await share_button(world, MAIL)
        assert "Leipzig" in json.dumps(world.fake.responses[0]["blocks"])

        drop_hr_folder(kb, index, "rebuild")
        await world.click("citecast_share", roadmap)
        assert world.fake.bot_messages(PUBLIC) == []
        assert refusals(world) == [NOT_SHAREABLE]
        # an answer citing only the public folder is still shared
        await world.click("citecast_share", welcome)
        [shared] = world.fake.bot_messages(PUBLIC)
        posted = json.dumps(shared)
        assert "The help desk answers mail" in posted and "Leipzig" not in posted
