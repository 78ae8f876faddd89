"""A Discord question that carries files is answered, and the asker is told once that the
files were not read (the bot reads only a message's words)."""

from __future__ import annotations

from typing import Any

from bot.models import Source
from tests.connectors.discord_edit_helpers import edit, mention
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
NOT_READ = "I can't read attached files, so this answer is from the knowledge base only."


def with_screenshot(message: dict[str, Any]) -> dict[str, Any]:
    message["attachments"] = [{
        "id": "1", "filename": "error.png", "size": 10, "content_type": "image/png",
        "url": "https://cdn.example.invalid/error.png",
        "proxy_url": "https://media.example.invalid/error.png",
    }]  # fmt: skip
    return message


async def test_a_question_with_a_screenshot_is_answered_with_one_note(harness: Harness) -> None:
    h = harness
    answerer = h.use([GUIDE], "Use pip [1].")
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "what does this say?", mention_bot=True)
    await h.deliver(with_screenshot(question))
    ((asked, _, _),) = answerer.calls
    assert asked == "what does this say?"
    notice, answer = h.fake.messages_in(w.general)
    assert notice["content"] == NOT_READ
    assert notice["message_reference"]["message_id"] == question["id"]
    # the answer and its sources are as they are without files
    assert answer["content"].startswith("Use pip")
    assert "docs.example.com/install" in answer["content"]
    assert NOT_READ not in answer["content"]


async def test_an_edited_question_with_a_file_is_not_told_twice(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "what does this log mean?", mention_bot=True)
    await h.deliver(with_screenshot(question))
    edited = h.fake.edited_message(int(question["id"]), f"{mention(h)} what does this error mean?")
    await edit(h, edited)
    contents = [m["content"] for m in h.fake.messages_in(w.general)]
    assert len(contents) == 2 and contents.count(NOT_READ) == 1


async def test_a_question_without_files_gets_no_note(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "how do I install?", mention_bot=True)
    await h.deliver(question)
    (answer,) = h.fake.messages_in(w.general)
    assert answer["content"].startswith("Use pip")
