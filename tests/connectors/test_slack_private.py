"""Private answers: /citecast answers ephemerally, and is never re-posted with private citations."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.slack_harness import PUBLIC, all_blocks, slack_world, slash, slash_response
from tests.fakes.answerer import ScriptedAnswerer

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
BANDS = Source(
    id="bands",
    title="Salary bands 2026",
    url="https://intranet.example.com/bands",
    audience=("staff",),
)
STAFF = {"audience_by_email_domain": {"staff.example": ["staff"]}}


def share_buttons(blocks: list[dict[str, object]]) -> list[dict[str, object]]:
    return [
        element
        for block in blocks
        if block.get("type") == "actions"
        for element in block.get("elements") or []  # type: ignore[attr-defined]
        if element.get("action_id") == "citecast_share"
    ]


async def test_a_private_answer_may_cite_what_the_asker_may_read(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE, BANDS], "Install it [1]. Band C pays well [2].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        assert await slash(world, "what do we pay?") == 200
        assert answerer.calls[0][1] == frozenset({"public", "staff"})
        assert world.fake.calls_to("chat.postMessage") == []
        [ephemeral] = world.fake.responses
        assert ephemeral["response_type"] == "ephemeral"
        assert ephemeral["key"] == "command"
        assert "Salary bands 2026" in json.dumps(ephemeral["blocks"])
        # it cites a staff-only source: no share button is offered
        assert share_buttons(ephemeral["blocks"]) == []


async def test_a_forged_share_of_a_private_answer_is_refused(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE, BANDS], "Install it [1]. Band C pays well [2].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "what do we pay?")
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:private:U0ASKER")
        value = json.dumps({"turn": turn.id, "conversation": turn.conversation_id})
        response = await world.click("citecast_share", value)
        assert response.status_code == 200
        assert world.fake.calls_to("chat.postMessage") == []
        assert world.fake.bot_messages(PUBLIC) == []
        refusals = [r for r in world.fake.responses if r["key"] == "click"]
        assert ["stays private" in r["text"] for r in refusals] == [True]


async def test_someone_else_cannot_share_my_private_answer(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?")
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:private:U0ASKER")
        value = json.dumps({"turn": turn.id, "conversation": turn.conversation_id})
        await world.click("citecast_share", value, user="U0INTRUDER")
        assert world.fake.bot_messages(PUBLIC) == []


async def test_a_public_only_answer_can_be_shared_once(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?")
        [ephemeral] = world.fake.responses
        [button] = share_buttons(ephemeral["blocks"])
        await world.click("citecast_share", str(button["value"]))
        await world.click("citecast_share", str(button["value"]))
        [shared] = world.fake.bot_messages(PUBLIC)
        assert "thread_ts" not in shared
        blocks = all_blocks([shared])
        assert "<@U0ASKER> shared an answer" in json.dumps(blocks)
        assert "Install guide" in json.dumps(blocks)


async def test_an_empty_command_explains_itself(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer) as world:
        assert await slash(world, "   ") == 200
        assert answerer.calls == []
        assert world.fake.calls_to("chat.postEphemeral") == []
        assert world.fake.responses == []


async def test_a_long_command_question_is_cut_and_the_asker_told_privately(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer) as world:
        limit = world.connector.services.settings.web.max_question_chars
        pasted = "how to install? " + "log line 42: timeout " * 2000  # ~42,000 characters
        response = await slash_response(world, pasted)
        assert response.status_code == 200
        # the acknowledgement is Slack's ephemeral reply to the command: only the asker sees it
        assert response.text == (f"Your question is long: I read its first {limit:,} characters.")
        [question] = [call[0] for call in answerer.calls]
        assert len(question) <= limit and question.startswith("how to install?")
        [ephemeral] = world.fake.responses
        assert "Install guide" in json.dumps(ephemeral["blocks"])


async def test_when_the_response_url_fails_the_bot_posts_ephemerally(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        dead_url = world.fake.response_url("gone").replace("/response/", "/nowhere/")
        await slash(world, "how to install?", response_url=dead_url)
        [ephemeral] = world.fake.calls_to("chat.postEphemeral", ok_only=True)
        assert ephemeral.args["user"] == "U0ASKER"
        assert "Install guide" in json.dumps(ephemeral.args["blocks"])


async def test_a_share_slack_refuses_can_be_shared_again_and_only_once(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?")
        [ephemeral] = world.fake.responses
        [button] = share_buttons(ephemeral["blocks"])
        # the bot is not in the channel yet: Slack refuses the post
        world.fake.fail("chat.postMessage", error="not_in_channel")
        await world.click("citecast_share", str(button["value"]))
        assert world.fake.bot_messages(PUBLIC) == []
        told = [r["text"] for r in world.fake.responses if r["key"] == "click"]
        assert len(told) == 1 and "Sharing failed" in told[0]
        # the user tries again, with a double click: one share
        value = str(button["value"])
        await asyncio.gather(
            world.click("citecast_share", value), world.click("citecast_share", value)
        )
        [shared] = world.fake.bot_messages(PUBLIC)
        assert "Install guide" in json.dumps(shared["blocks"])
        assert len(world.fake.calls_to("chat.postMessage", ok_only=True)) == 1


async def test_a_share_lost_on_the_way_asks_the_user_to_look_first(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?")
        [button] = share_buttons(world.fake.responses[0]["blocks"])
        world.fake.fail("chat.postMessage", drop=True)
        await world.click("citecast_share", str(button["value"]))
        told = [r["text"] for r in world.fake.responses if r["key"] == "click"]
        assert len(told) == 1 and "did not confirm the share" in told[0]
        await world.click("citecast_share", str(button["value"]))
        assert len(world.fake.bot_messages(PUBLIC)) == 1


async def test_a_failure_before_answering_still_apologises_privately(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        world.store._db.execute("DROP TABLE turns")  # the turn cannot be stored
        assert await slash(world, "how to install?") == 200
        assert answerer.calls == []
        assert [r["text"] for r in world.fake.responses] == [world.connector.settings.apology]


async def test_an_unreachable_response_url_falls_back_to_post_ephemeral(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    with socket.socket() as probe:  # a port nobody listens on: the connection is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        await slash(world, "how to install?", response_url=f"http://127.0.0.1:{port}/hook")
        [ephemeral] = world.fake.calls_to("chat.postEphemeral", ok_only=True)
        assert "Install guide" in json.dumps(ephemeral.args["blocks"])


async def test_a_private_answer_slack_refuses_is_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answerer = ScriptedAnswerer([GUIDE], "Install it [1].")
    async with slack_world(tmp_path, answerer, **STAFF) as world:
        dead_url = world.fake.response_url("gone").replace("/response/", "/nowhere/")
        world.fake.fail("chat.postEphemeral", error="channel_not_found", times=None)
        with caplog.at_level(logging.INFO, logger="bot.connectors"):
            assert await slash(world, "how to install?", response_url=dead_url) == 200
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert [bool(r.exc_info) for r in errors] == [False]  # no traceback
        assert "channel_not_found" in errors[0].getMessage()
