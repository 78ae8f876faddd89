"""Socket Mode end to end: the real bolt handler against a loopback envelope server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    event_body,
    mention,
    settle,
    slack_world,
)


async def test_socket_mode_acks_envelopes_and_answers_once(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer, mode="socket", signing_secret="") as world:
        assert world.connector.routes() == []
        await world.connector.start()
        fake = world.fake
        await fake.wait_socket_connected()
        assert [c.token for c in fake.calls_to("apps.connections.open")] == [fake.app_token]
        payload = event_body(mention("over the socket", ts="1600000000.020000"), "EvSOCK1")
        first = await fake.send_envelope(payload)
        ack = await fake.wait_ack(first)
        assert ack["envelope_id"] == first
        # Slack redelivers when it thinks the ack was late: same event_id, answered once.
        again = await fake.send_envelope(payload, retry_attempt=1)
        assert (await fake.wait_ack(again))["envelope_id"] == again
        await settle(world.connector)
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.020000")
        assert len(messages) == 1
        assert len(answerer.calls) == 1
        await world.connector.stop()
        await asyncio.sleep(0)


async def test_socket_mode_feedback_clicks_are_recorded(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, mode="socket", signing_secret="") as world:
        await world.connector.start()
        fake = world.fake
        await fake.wait_socket_connected()
        envelope = await fake.send_envelope(
            event_body(mention("rate", ts="1600000000.021000"), "EvSOCK2")
        )
        await fake.wait_ack(envelope)
        await settle(world.connector)
        [message] = fake.bot_messages(PUBLIC)
        [block] = [b for b in message["blocks"] if b.get("block_id") == "citecast_feedback"]
        value = block["elements"][1]["value"]
        click = {
            "type": "block_actions",
            "user": {"id": "U0ASKER"},
            "team": {"id": "T0TEAM"},
            "channel": {"id": PUBLIC},
            "container": {"type": "message", "channel_id": PUBLIC},
            "message": {"ts": message["ts"], "thread_ts": "1600000000.021000"},
            "actions": [
                {"type": "button", "action_id": "citecast_feedback_not_helpful", "value": value}
            ],
        }
        clicked = await fake.send_envelope(click, envelope_type="interactive")
        await fake.wait_ack(clicked)
        await settle(world.connector)
        assert world.store.feedback(int(value)) == ["not_helpful"]


async def test_an_unreachable_socket_does_not_block_start_or_stop(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, mode="socket", signing_secret="") as world:
        world.fake.fail("apps.connections.open", status=503, times=None)
        await asyncio.wait_for(world.connector.start(), timeout=30)
        for _ in range(3000):  # waits for real I/O: at most ~30 s, usually a few ms
            if world.fake.calls_to("apps.connections.open"):
                break
            await asyncio.sleep(0.01)
        assert world.fake.calls_to("apps.connections.open")
        await asyncio.wait_for(world.connector.stop(), timeout=30)
        assert world.fake.calls_to("chat.postMessage") == []
