"""An edited Discord question keeps one note above its answer ("Your question is long",
"I can't read attached files"), true of the question as it reads now.

Found in Discord QA pass 2: a short question edited to over ``web.max_question_chars`` got the
"Your question is long" note posted below the answer it is about, each further long edit added
another copy, and editing the question short again left the stale note behind. The first
answer's note (files not read) was posted once and never repeated; now the long-question note
is kept the same way, and updated or deleted when an edit makes it untrue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.config import Settings, WebSettings
from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer, edit, mention
from tests.connectors.test_discord_attached_files import NOT_READ, with_screenshot
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.connectors.test_discord_unanswered import start_again

__all__ = ["harness"]

LIMIT = 100  # web.max_question_chars here: a long question is easy to write
LONG = f"Your question is long: I read its first {LIMIT:,} characters."


def long_text(word: str) -> str:
    return "how? " + word * 60


def replies_to(h: Harness, question: dict[str, Any]) -> list[dict[str, Any]]:
    """The bot's messages replying to ``question``, in the order they were posted."""
    return [
        m
        for m in h.fake.messages_in(h.world.general)
        if (m.get("message_reference") or {}).get("message_id") == question["id"]
    ]


def contents(h: Harness) -> list[str]:
    return [m["content"] for m in h.fake.messages_in(h.world.general)]


async def ask(h: Harness, text: str) -> dict[str, Any]:
    question = h.fake.user_message(h.world.general, h.world.bob, text, mention_bot=True)
    await h.deliver(question)
    return question


async def edit_to(h: Harness, question: dict[str, Any], text: str) -> None:
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} {text}"))


async def short_question_edited_long(h: Harness) -> dict[str, Any]:
    """Bob asks a short question, then edits it to a long one; returns the question."""
    h.connector.services.assistant = EchoAnswerer([GUIDE])
    question = await ask(h, "short?")
    await edit_to(h, question, long_text("long "))
    return question


def with_small_limit(h: Harness) -> None:
    services = h.connector.services
    services.settings = Settings(
        web=WebSettings(max_question_chars=LIMIT), discord=services.settings.discord
    )


async def test_a_question_edited_to_long_gets_the_note_above_its_answer(harness: Harness) -> None:
    h = harness
    with_small_limit(h)
    await short_question_edited_long(h)
    note, answer = h.fake.messages_in(h.world.general)
    assert note["content"] == LONG
    assert answer["content"].startswith("About: how? long")
    assert "docs.example.com/install" in answer["content"]  # with its sources


async def test_editing_a_long_question_again_does_not_add_another_note(harness: Harness) -> None:
    h = harness
    with_small_limit(h)
    question = await short_question_edited_long(h)
    await edit_to(h, question, long_text("longer "))
    assert contents(h).count(LONG) == 1
    note, answer = h.fake.messages_in(h.world.general)
    assert note["content"] == LONG and answer["content"].startswith("About: how? longer")


async def test_a_question_edited_short_again_loses_its_note(harness: Harness) -> None:
    h = harness
    with_small_limit(h)
    question = await short_question_edited_long(h)
    await edit_to(h, question, "short again?")
    (answer,) = h.fake.messages_in(h.world.general)
    assert answer["content"].startswith("About: short again?")


async def test_a_long_question_with_a_file_edited_short_keeps_only_the_files_note(
    harness: Harness,
) -> None:
    h = harness
    with_small_limit(h)
    h.connector.services.assistant = EchoAnswerer([GUIDE])
    question = h.fake.user_message(
        h.world.general, h.world.bob, long_text("long "), mention_bot=True
    )
    await h.deliver(with_screenshot(question))
    note, _ = h.fake.messages_in(h.world.general)
    assert note["content"] == f"{LONG}\n{NOT_READ}"
    await edit_to(h, question, "what does it say?")
    note, answer = replies_to(h, question)
    assert note["content"] == NOT_READ
    assert answer["content"].startswith("About: what does it say?")


async def test_a_long_question_edited_after_a_restart_keeps_one_note(tmp_path: Path) -> None:
    h = await start_harness(tmp_path)
    try:
        with_small_limit(h)
        h.connector.services.assistant = EchoAnswerer([GUIDE])
        question = await ask(h, long_text("long "))
        await h.connector.stop()
        await start_again(h, EchoAnswerer([GUIDE]))
        await edit_to(h, question, long_text("longer "))
        assert contents(h).count(LONG) == 1
        await edit_to(h, question, "short?")
        (answer,) = h.fake.messages_in(h.world.general)
        assert answer["content"].startswith("About: short?")
    finally:
        await stop_harness(h)
