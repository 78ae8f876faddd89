"""Share in channel checks what a private answer read, not only what it cites.

A /citecast answer is written for the asker's audience: its text can repeat a staff passage the
answerer read without citing it (the model wrote no marker, or grounding dropped it). Posting
that answer in a channel whose audience may not read the passage leaks it, so the share button
is neither offered nor honoured for it.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.models import Source
from tests.connectors.slack_harness import PUBLIC, slack_world, slash
from tests.fakes.answerer import ScriptedAnswerer

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
BANDS = Source(
    id="bands",
    title="Salary bands 2026",
    url="https://intranet.example.com/bands",
    text="Band C pays 91,000 a year.",
    audience=("staff",),
)
STAFF = {"audience_by_email_domain": {"staff.example": ["staff"]}}
# cites only the public guide, but repeats the staff passage it read
RAW = "Install it [1]. Band C pays 91,000 a year."


def share_buttons(blocks: list[dict[str, object]]) -> list[dict[str, object]]:
    return [
        element
        for block in blocks
        if block.get("type") == "actions"
        for element in block.get("elements") or []  # type: ignore[attr-defined]
        if element.get("action_id") == "citecast_share"
    ]


async def test_no_share_button_for_an_answer_that_read_a_staff_source(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE, BANDS], RAW)
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install, and what does band C pay?")
        [ephemeral] = world.fake.responses
        assert "91,000" in json.dumps(ephemeral["blocks"])  # the asker may read it
        assert share_buttons(ephemeral["blocks"]) == []


async def test_a_share_of_an_answer_that_read_a_staff_source_is_refused(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE, BANDS], RAW)
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install, and what does band C pay?")
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:private:U0ASKER")
        value = json.dumps({"turn": turn.id, "conversation": turn.conversation_id})
        await world.click("citecast_share", value)
        assert world.fake.bot_messages(PUBLIC) == []
        assert world.fake.calls_to("chat.postMessage") == []
        refusals = [r["text"] for r in world.fake.responses if r["key"] == "click"]
        assert len(refusals) == 1 and "stays private" in refusals[0]


async def test_an_answer_that_read_only_public_sources_is_still_shareable(
    tmp_path: Path,
) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?")
        [button] = share_buttons(world.fake.responses[0]["blocks"])
        await world.click("citecast_share", str(button["value"]))
        [shared] = world.fake.bot_messages(PUBLIC)
        assert "Install guide" in json.dumps(shared["blocks"])
