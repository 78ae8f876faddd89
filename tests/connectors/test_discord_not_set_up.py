"""Discord when citecast is not set up (a refused key, no index): the asker is told so, not "try
again", and the operator's log names the cause and its fix once, not once per question."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.setup_errors import NOT_SET_UP_REPLY
from tests.connectors.setup_cases import CASES, assert_told_once, misconfigured
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]


@pytest.mark.parametrize("case", CASES)
async def test_each_question_is_told_citecast_is_not_set_up(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    h = harness
    async with misconfigured(case, tmp_path) as assistant:
        h.connector.services.assistant = assistant
        asked = []
        for text in ("install?", "and on Linux?"):
            question = h.fake.user_message(h.world.general, h.world.alice, text, mention_bot=True)
            await h.deliver(question)
            asked.append(question)
    replies = h.fake.messages_in(h.world.general)
    assert [m["content"] for m in replies] == [NOT_SET_UP_REPLY, NOT_SET_UP_REPLY]
    assert [m["message_reference"]["message_id"] for m in replies] == [q["id"] for q in asked]
    (turn,) = h.store.turns(f"discord:{h.world.general}:{asked[0]['id']}")
    assert turn.status == "failed"
    assert_told_once(caplog, case)
