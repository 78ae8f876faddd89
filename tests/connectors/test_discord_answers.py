"""When the Discord bot answers, where, and what it sends (mentions, DMs, replies, forums)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.models import Answer, Source
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
FAQ = Source(id="faq", title="FAQ", url="https://docs.example.com/faq", page=3)
RAW = "Install it with pip [1].\n\nThen run `citecast serve` [2]."


async def test_a_mention_gets_a_threaded_reply_with_its_sources(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE, FAQ], RAW)
    question = h.fake.user_message(
        h.world.general, h.world.alice, "how to install?", mention_bot=True
    )
    await h.deliver(question)

    messages = h.fake.messages_in(h.world.general)
    assert len(messages) == 1
    final = messages[0]
    assert final["message_reference"]["message_id"] == question["id"]
    assert "Install it with pip" in final["content"]
    assert "[Install guide](<https://docs.example.com/install>)" in final["content"]
    assert "[FAQ](<https://docs.example.com/faq>)" in final["content"]
    assert final["flags"] & 4  # masked links, so embeds are suppressed
    assert all(r.pings == [] for r in h.fake.created + h.fake.edits)
    assert all(r.payload["allowed_mentions"]["parse"] == [] for r in h.fake.created + h.fake.edits)
    assert h.world.general in h.fake.typing
    # the mention is not part of the question
    assert answerer.calls[0][0] == "how to install?"
    assert answerer.calls[0][1] == frozenset({"public"})


async def test_the_turn_is_stored_with_the_resolved_answer(harness: Harness) -> None:
    h = harness
    h.use([GUIDE, FAQ], RAW)
    question = h.fake.user_message(h.world.general, h.world.bob, "install?", mention_bot=True)
    await h.deliver(question)
    conversation = f"discord:{h.world.general}:{question['id']}"
    turns = h.store.turns(conversation)
    assert [t.status for t in turns] == ["done"]
    assert turns[0].question == "install?"
    assert turns[0].answer is not None
    answer = Answer.from_json(turns[0].answer)
    assert [c.source.id for c in answer.citations] == ["guide", "faq"]
    assert turns[0].registry is not None


async def test_a_dm_is_answered_without_a_mention(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    dm = h.fake.open_dm(h.world.bob)
    await h.deliver(h.fake.user_message(dm, h.world.bob, "how do I install?"))
    (message,) = h.fake.messages_in(dm)
    assert message["content"].startswith("Use pip")
    assert "Install guide" in message["content"]


async def test_channel_chatter_and_other_bots_and_itself_are_ignored(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    await h.deliver(h.fake.user_message(h.world.general, h.world.alice, "just chatting"))
    await h.deliver(
        h.fake.user_message(h.world.general, h.world.other_bot, "hi bot", mention_bot=True)
    )
    dm = h.fake.open_dm(h.world.other_bot)
    await h.deliver(h.fake.user_message(dm, h.world.other_bot, "answer me"))
    await h.deliver(
        h.fake.user_message(h.world.general, h.fake.bot_user, "me myself", mention_bot=True)
    )
    assert h.fake.created == []
    assert answerer.calls == []


async def test_a_redelivered_event_is_answered_once(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    await h.deliver(question)
    await h.deliver(json.loads(json.dumps(question)))
    assert len(answerer.calls) == 1
    assert len(h.fake.messages_in(h.world.general)) == 1


async def test_a_reply_to_an_answer_continues_with_the_history(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    first = h.fake.user_message(h.world.general, h.world.alice, "how to install?", mention_bot=True)
    await h.deliver(first)
    (answer,) = h.fake.messages_in(h.world.general)

    answerer2 = h.use([FAQ], "Yes, on Windows too [1].")
    follow = h.fake.user_message(
        h.world.general, h.world.alice, "and on Windows?", reply_to=int(answer["id"])
    )
    await h.deliver(follow)
    question, _audience, history = answerer2.calls[0]
    assert question == "and on Windows?"
    assert len(history) == 1
    assert history[0].question == "how to install?"
    assert history[0].answer.startswith("Use pip")
    assert "Sources" not in history[0].answer  # the prose only, not the rendered list
    assert answerer.calls[0][2] == ()
    turns = h.store.turns(f"discord:{h.world.general}:{first['id']}")
    assert [t.question for t in turns] == ["how to install?", "and on Windows?"]

    # a reply to somebody else's message is not for the bot
    chatter = h.fake.user_message(h.world.general, h.world.bob, "nice", reply_to=int(follow["id"]))
    await h.deliver(chatter)
    assert len(answerer2.calls) == 1


async def test_a_new_forum_post_is_answered_in_its_thread(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    thread = h.fake.thread_payload(w.guild, w.forum, "Installing on Linux", int(w.bob["id"]))
    await h.fake.dispatch("THREAD_CREATE", {**h.fake.channels[thread], "newly_created": True})
    post = h.fake.user_message(thread, w.bob, "pip fails with an error", message_id=thread)
    await h.deliver(post)
    (message,) = h.fake.messages_in(thread)
    assert message["content"].startswith("Use pip")
    assert answerer.calls[0][0] == "Installing on Linux\n\npip fails with an error"
    # later messages in the post's thread need a mention
    await h.deliver(h.fake.user_message(thread, w.alice, "same here"))
    assert len(answerer.calls) == 1


async def test_a_forum_post_is_recognised_before_its_thread_is_cached(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    thread = h.fake.thread_payload(w.guild, w.forum, "Upgrading", int(w.bob["id"]))
    # no THREAD_CREATE: the connector has to look the channel up itself
    await h.deliver(h.fake.user_message(thread, w.bob, "how to upgrade?", message_id=thread))
    assert ("GET", f"/channels/{thread}") in [(m, p) for m, p, _ in h.fake.requests]
    (message,) = h.fake.messages_in(thread)
    assert message["content"].startswith("Use pip")
    assert answerer.calls[0][0] == "Upgrading\n\nhow to upgrade?"


async def test_an_empty_mention_gets_a_short_hint(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    await h.deliver(h.fake.user_message(h.world.general, h.world.alice, "", mention_bot=True))
    (message,) = h.fake.messages_in(h.world.general)
    assert message["content"] == "Ask me a question after mentioning me."
    assert answerer.calls == []


async def test_an_empty_hint_setting_sends_nothing_and_logs_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Discord refuses an empty message (50006): every bare mention logged an error
    h = await start_harness(tmp_path, empty_question_message="")
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        with caplog.at_level(logging.INFO):
            await h.deliver(
                h.fake.user_message(h.world.general, h.world.alice, "", mention_bot=True)
            )
        assert h.fake.messages_in(h.world.general) == []
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert answerer.calls == []
    finally:
        await stop_harness(h)


async def test_only_configured_channels_are_served(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, channels=[1])
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        await h.deliver(
            h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
        )
        assert answerer.calls == []
        dm = h.fake.open_dm(h.world.bob)
        await h.deliver(h.fake.user_message(dm, h.world.bob, "install?"))
        assert len(answerer.calls) == 1
    finally:
        await stop_harness(h)
