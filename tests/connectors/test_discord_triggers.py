"""What counts as a question for the Discord bot: mention forms, system messages, webhooks,
messages without words, and questions longer than the assistant reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings, WebSettings
from bot.models import Source
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    harness,
    start_harness,
    stop_harness,
)
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


def bot_contents(h: Harness, channel: int) -> list[str]:
    return [m["content"] for m in h.fake.messages_in(channel)]


@pytest.mark.parametrize("form", ["user", "user with !", "the bot's role", "a listed role"])
async def test_every_way_of_mentioning_the_bot_is_a_mention(tmp_path: Path, form: str) -> None:
    # a shared role the bot holds counts only when listed (test_discord_role_mentions)
    helpers: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        # the guild as the bot finds it on connecting: it also holds a "Helpers" role
        helpers.append(fake.add_role(world.guild, "Helpers"))
        fake.members[(world.guild, int(fake.bot_user["id"]))]["roles"].append(str(helpers[0]))
        return {"summon_roles": helpers[:1]}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        w, me = h.world, h.fake.bot_user["id"]
        if form == "user":
            question = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
        elif form == "user with !":
            question = h.fake.user_message(w.general, w.alice, f"<@!{me}> how to install?")
            question["mentions"] = [h.fake.bot_user]
        else:
            # typing @citecast in a guild often autocompletes to the bot's managed role
            role = h.fake.bot_role(w.guild) if form == "the bot's role" else helpers[0]
            question = h.fake.user_message(w.general, w.alice, "how to install?", mention_role=role)
        await h.deliver(question)
        assert [call[0] for call in answerer.calls] == ["how to install?"]
        (message,) = h.fake.messages_in(w.general)
        assert message["message_reference"]["message_id"] == question["id"]
    finally:
        await stop_harness(h)


async def test_a_mention_of_a_role_the_bot_does_not_hold_is_not_for_it(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    await h.deliver(h.fake.user_message(w.general, w.bob, "help", mention_role=w.staff_role))
    assert answerer.calls == []
    assert h.fake.created == []


def referencing(h: Harness, kind: str, answer: dict[str, Any]) -> dict[str, Any]:
    """A message Discord makes that references the bot's ``answer`` without replying to it."""
    data = h.fake.user_message(h.world.general, h.world.alice, "", reply_to=int(answer["id"]))
    if kind == "pin":  # "Alice pinned a message": type 6, referencing the pinned message
        data["type"] = 6
    elif kind == "thread starter":  # the first message of a thread started from the answer
        data["type"] = 21
    else:  # a forward of the answer: an ordinary message whose reference is a forward
        data["type"] = 0
        data["message_reference"]["type"] = 1
        data["message_snapshots"] = [{"message": {**answer, "type": 0}}]
        data.pop("referenced_message", None)
    return data


@pytest.mark.parametrize("kind", ["pin", "thread starter", "forward"])
async def test_messages_referencing_an_answer_without_replying_are_not_questions(
    harness: Harness, kind: str
) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    await h.deliver(
        h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    )
    (answer,) = h.fake.messages_in(h.world.general)
    await h.deliver(referencing(h, kind, answer))
    assert len(answerer.calls) == 1
    assert bot_contents(h, h.world.general) == [answer["content"]]


async def test_a_webhook_message_is_never_answered(harness: Harness) -> None:
    # Discord marks a webhook's message by webhook_id; its author is not promised the bot flag
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    hook = h.fake.add_user("Deploy notifier")
    message = h.fake.user_message(h.world.general, hook, "deployed", mention_bot=True)
    message["webhook_id"] = hook["id"]
    await h.deliver(message)
    dm = h.fake.open_dm(hook)
    message = h.fake.user_message(dm, hook, "deployed")
    message["webhook_id"] = hook["id"]
    await h.deliver(message)
    assert answerer.calls == []
    assert h.fake.created == []


@pytest.mark.parametrize("what", ["attachment", "sticker"])
async def test_a_message_without_words_gets_told_what_the_bot_reads(
    harness: Harness, what: str
) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    dm = h.fake.open_dm(h.world.bob)
    message = h.fake.user_message(dm, h.world.bob, "")
    if what == "attachment":
        message["attachments"] = [{
            "id": "1", "filename": "error.png", "size": 10, "content_type": "image/png",
            "url": "https://cdn.example.invalid/error.png",
            "proxy_url": "https://media.example.invalid/error.png",
        }]  # fmt: skip
    else:
        message["sticker_items"] = [{"id": "2", "name": "wave", "format_type": 1}]
    await h.deliver(message)
    assert answerer.calls == []
    # not "after mentioning me": no mention is needed in a DM
    assert bot_contents(h, dm) == [
        "I read only the words of a message, not its attachments or stickers: ask in words."
    ]


async def test_a_question_longer_than_the_assistant_reads_is_cut_and_the_asker_told(
    tmp_path: Path,
) -> None:
    h = await start_harness(tmp_path)
    try:
        services = h.connector.services
        services.settings = Settings(
            web=WebSettings(max_question_chars=100), discord=services.settings.discord
        )
        answerer = h.use([GUIDE], "Use pip [1].")
        text = "why " * 200
        question = h.fake.user_message(h.world.general, h.world.alice, text, mention_bot=True)
        await h.deliver(question)
        ((asked, _, _),) = answerer.calls
        assert asked == text[:100].strip()
        notice, answer = h.fake.messages_in(h.world.general)
        assert notice["content"] == "Your question is long: I read its first 100 characters."
        assert notice["message_reference"]["message_id"] == question["id"]
        assert answer["content"].startswith("Use pip")
        (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
        assert turn.question == asked
    finally:
        await stop_harness(h)


async def test_mentions_and_emoji_in_a_question_reach_the_model_as_names(
    harness: Harness,
) -> None:
    # the model gets what the asker sees ("@Staff", "#staff-only"), not bare ids
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    text = (
        f"can <@&{w.staff_role}> give <@{w.bob['id']}> access to <#{w.staff_channel}>? "
        "<:party:123456789012345678>"
    )
    question = h.fake.user_message(w.general, w.alice, text, mention_bot=True)
    question["mentions"].append(w.bob)
    question["mention_roles"] = [str(w.staff_role)]
    await h.deliver(question)
    assert answerer.calls[0][0] == "can @Staff give @bob access to #staff-only? :party:"
