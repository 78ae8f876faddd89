"""Events enter as signed HTTP requests through the real bolt app and are answered once."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.assistant.base import Reply
from bot.config import Settings, SlackSettings
from bot.connectors.slack import SlackConnector
from bot.errors import ConfigError
from bot.models import Exchange
from bot.runtime import Services
from bot.store import Store
from tests.connectors.slack_harness import (
    ASKER,
    DM,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    context_texts,
    direct_message,
    mention,
    slack_world,
)
from tests.fakes.answerer import BrokenAnswerer


async def test_a_mention_is_answered_in_its_thread_and_stored(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer) as world:
        event = mention("how do I deploy?", ts="1600000000.000100")
        response = await world.post_event(event)
        assert response.status_code == 200
        posted = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.000100")
        assert len(posted) == 1
        assert answerer.calls == [("how do I deploy?", frozenset({"public"}), ())]
        sources = context_texts(posted)
        assert any("Guide 1" in text for text in sources)
        assert any("Guide 2" in text for text in sources)
        feedback = [b for b in posted[0]["blocks"] if b.get("block_id") == "citecast_feedback"]
        assert len(feedback) == 1
        turn_id = int(feedback[0]["elements"][0]["value"])
        conversation = f"slack:T0TEAM:{PUBLIC}:1600000000.000100"
        turns = world.store.turns(conversation)
        assert [t.id for t in turns] == [turn_id]
        assert turns[0].status == "done"
        assert turns[0].question == "how do I deploy?"
        assert turns[0].answer is not None and "[^1]" in turns[0].answer["text"]
        assert all(c.response.get("ok") for c in world.fake.calls)


async def test_a_replayed_retry_is_answered_once(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        event = mention("once please")
        first = await world.post_event(event, event_id="EvSAME")
        again = await world.post_event(event, event_id="EvSAME", retry_num=1)
        third = await world.post_event(event, event_id="EvSAME", retry_num=2)
        assert [first.status_code, again.status_code, third.status_code] == [200, 200, 200]
        assert len(world.fake.calls_to("chat.postMessage")) == 1
        assert len(answerer.calls) == 1


async def test_the_same_message_under_two_event_ids_is_answered_once(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        event = direct_message("hello?", ts="1600000000.000200")
        await world.post_event(event, event_id="EvA")
        await world.post_event(event, event_id="EvB")
        assert len(world.fake.calls_to("chat.postMessage")) == 1


async def test_a_bad_signature_is_rejected_and_nothing_happens(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        response = await world.post_event(mention("forged"), secret="not-the-secret")
        assert response.status_code == 401
        assert world.fake.calls == []
        assert answerer.calls == []


async def test_a_stale_timestamp_is_rejected(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        stale = int(time.time()) - 10 * 60
        response = await world.post_event(mention("replayed later"), timestamp=stale)
        assert response.status_code == 401
        assert world.fake.calls_to("chat.postMessage") == []
        assert answerer.calls == []


async def test_url_verification_is_answered_with_the_challenge(tmp_path: Path) -> None:
    from tests.fakes.slack_api import slack_signature_headers

    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        body = json.dumps({"type": "url_verification", "challenge": "c-123"}).encode()
        headers = {"Content-Type": "application/json"}
        headers.update(slack_signature_headers("8f742231b10e8888abcd99yyyzzz85a5", body))
        response = await world.http.post("/slack/events", content=body, headers=headers)
        assert response.status_code == 200
        assert "c-123" in response.text


@pytest.mark.parametrize(
    "event",
    [
        direct_message("I am a bot", bot_id="B0OTHER"),
        direct_message("bot message", subtype="bot_message"),
        direct_message("my own echo", user="U0BOT"),
        direct_message("edited", subtype="message_changed"),
        {**mention("x"), "type": "message", "channel_type": "channel"},
    ],
    ids=["other-bot", "bot-subtype", "own-user", "edit", "channel-message"],
)
async def test_bot_messages_and_non_questions_are_ignored(
    tmp_path: Path, event: dict[str, object]
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        response = await world.post_event(event)
        assert response.status_code == 200
        assert world.fake.calls_to("chat.postMessage") == []
        assert answerer.calls == []


async def test_thread_history_reaches_the_assistant(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        root = world.fake.add_message(PUBLIC, "<@U0BOT> what is citecast?", ASKER)
        world.fake.add_message(
            PUBLIC, "A cited answer bot.", "U0BOT", thread_ts=root, bot_id="B0BOT"
        )
        follow_up = world.fake.add_message(PUBLIC, "<@U0BOT> and Slack?", ASKER, thread_ts=root)
        await world.post_event(mention("and Slack?", ts=follow_up, thread_ts=root))
        assert answerer.calls[0][2] == (Exchange("what is citecast?", "A cited answer bot."),)
        assert len(world.fake.bot_messages(PUBLIC, thread_ts=root)) == 2


async def test_a_failed_answer_apologises_once_and_marks_the_turn(tmp_path: Path) -> None:
    async with slack_world(tmp_path, BrokenAnswerer(())) as world:
        await world.post_event(mention("will fail", ts="1600000000.000300"))
        posted = world.fake.bot_messages(PUBLIC)
        assert [m["text"] for m in posted] == [world.connector.settings.apology]
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.000300")
        assert [t.status for t in turns] == ["failed"]


async def test_an_empty_mention_gets_a_greeting_not_an_answer(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        event = mention("")
        await world.post_event(event)
        assert answerer.calls == []
        assert len(world.fake.bot_messages(PUBLIC)) == 1


def test_missing_credentials_fail_at_start_with_the_key(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    answerer = CannedAnswerer(answer_citing(1))
    cases = {
        "slack.bot_token": SlackSettings(enabled=True, signing_secret="s"),
        "slack.signing_secret": SlackSettings(enabled=True, bot_token="xoxb-1"),
        "slack.app_token": SlackSettings(enabled=True, bot_token="xoxb-1", mode="socket"),
    }
    for key, slack in cases.items():
        services = Services(settings=Settings(slack=slack), store=store, assistant=answerer)
        with pytest.raises(ConfigError, match=key):
            SlackConnector(services)
    store.close()


async def test_direct_messages_get_the_askers_groups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(
        tmp_path, answerer, audience_by_email_domain={"staff.example": ["staff"]}
    ) as world:
        await world.post_event(direct_message("internal question"))
        await world.post_event(mention("public question"))
        audiences = [call[1] for call in answerer.calls]
        assert audiences == [frozenset({"public", "staff"}), frozenset({"public"})]
        assert len(world.fake.bot_messages(DM)) == 1


async def test_an_unwritable_store_leaves_the_event_for_slack_to_redeliver(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.store._db.execute("DROP TABLE dedupe")
        response = await world.post_event(mention("store down"))
        assert response.status_code == 503
        assert answerer.calls == []
        assert world.fake.calls_to("chat.postMessage") == []


class StuckAnswerer(CannedAnswerer):
    """Never finishes: its backend hangs."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls.append((question, audience, tuple(history)))
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_stop_cancels_a_hung_answer_after_the_grace_period(tmp_path: Path) -> None:
    answerer = StuckAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer, shutdown_grace_seconds=0.0) as world:
        await world.post_event(mention("hangs", ts="1600000000.060000"), wait=False)
        for _ in range(3000):  # waits for real I/O: at most ~30 s, usually a few ms
            if answerer.calls:
                break
            await asyncio.sleep(0.01)
        assert answerer.calls
        await world.connector.stop()
        assert [m["text"] for m in world.fake.bot_messages(PUBLIC)] == [
            world.connector.settings.apology
        ]
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.060000")
        assert [t.status for t in turns] == ["failed"]


async def test_slacks_rate_limit_notice_is_acknowledged_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.fakes.slack_api import slack_signature_headers

    notice = {
        "token": "legacy",
        "type": "app_rate_limited",
        "team_id": "T0TEAM",
        "minute_rate_limited": 1518467820,
        "api_app_id": "A0APP",
    }
    async with slack_world(tmp_path, CannedAnswerer(answer_citing(1))) as world:
        body = json.dumps(notice).encode()
        headers = {"Content-Type": "application/json"}
        headers.update(slack_signature_headers("8f742231b10e8888abcd99yyyzzz85a5", body))
        with caplog.at_level(logging.WARNING):
            response = await world.http.post("/slack/events", content=body, headers=headers)
        assert response.status_code == 200
        [warning] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert "app_rate_limited" in warning and "T0TEAM" in warning


async def test_people_mentioned_in_a_question_are_named_for_the_assistant(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        world.fake.add_user("U0ALICE", "alice@example.com", name="Alice Liddell")
        event = mention(
            "can <@U0ALICE> or <@U0GHOST> approve &lt;prod&gt; deploys? cc <@U0ALICE>",
            ts="1600000000.070000",
        )
        event["text"] = "<@U0BOT>: " + event["text"].removeprefix("<@U0BOT> ")
        await world.post_event(event)
        expected = "can @Alice Liddell or @U0GHOST approve <prod> deploys? cc @Alice Liddell"
        assert answerer.calls[0][0] == expected
        [turn] = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.070000")
        assert turn.question == expected
        # one lookup per person, the unknown one included, however often they are mentioned
        assert sorted(c.args["user"] for c in world.fake.calls_to("users.info")) == [
            "U0ALICE",
            "U0GHOST",
        ]


async def test_a_very_long_question_is_cut_as_on_every_channel_and_the_asker_told(
    tmp_path: Path,
) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        pasted = "why does this fail? " + "log line 42: timeout\n" * 2000  # ~42,000 characters
        await world.post_event(direct_message(pasted, ts="1600000000.071000"))
        limit = world.connector.services.settings.web.max_question_chars
        question = answerer.calls[0][0]
        assert len(question) <= limit and question.startswith("why does this fail?")
        note, answer = world.fake.bot_messages(DM, thread_ts="1600000000.071000")
        assert f"first {limit:,} characters" in note["text"]
        assert any("Guide 1" in text for text in context_texts([answer]))


async def test_a_file_without_words_is_told_what_is_read_not_answered(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        upload = {"id": "F0LOG", "name": "crash.log", "mimetype": "text/plain"}
        shared = direct_message("", ts="1600000000.072000", subtype="file_share", files=[upload])
        await world.post_event(shared)
        await world.post_event(mention("", ts="1600000000.073000", files=[upload]))
        assert answerer.calls == []
        replies = [m["text"] for m in world.fake.bot_messages(DM) + world.fake.bot_messages(PUBLIC)]
        assert len(replies) == 2
        assert all("can't read attached files" in text for text in replies)


async def test_a_pasted_member_list_costs_a_bounded_number_of_lookups(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        people = [f"U0P{n:03d}" for n in range(60)]
        for person in people:
            world.fake.add_user(person, name=f"Person {person[-3:]}")
        await world.post_event(mention("who owns it? " + " ".join(f"<@{p}>" for p in people)))
        assert len(world.fake.calls_to("users.info")) == 20
        question = answerer.calls[0][0]
        assert question.startswith("who owns it? @Person 000 @Person 001")
        assert question.endswith("@U0P059")
