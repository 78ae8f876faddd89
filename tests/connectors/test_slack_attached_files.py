"""A question that carries files is answered, and the asker is told once the files were not read."""

from __future__ import annotations

from pathlib import Path

from tests.connectors.slack_harness import (
    DM,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    context_texts,
    direct_message,
    mention,
    slack_world,
)

SCREENSHOT = {"id": "F0SHOT", "name": "error.png", "mimetype": "image/png"}
LOG = {"id": "F0LOG", "name": "crash.log", "mimetype": "text/plain"}
NOT_READ = "I can't read attached files, so this answer is from the knowledge base only."


async def test_a_mention_with_a_screenshot_says_once_that_it_was_not_read(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(2))
    async with slack_world(tmp_path, answerer) as world:
        ts = "1600000000.081000"
        await world.post_event(mention("what does this say?", ts=ts, files=[SCREENSHOT]))
        assert [call[0] for call in answerer.calls] == ["what does this say?"]
        note, answer = world.fake.bot_messages(PUBLIC, thread_ts=ts)
        assert note["text"] == NOT_READ
        # the answer and its citations are what they are without files
        assert "read attached files" not in str(answer)
        sources = context_texts([answer])
        assert any("Guide 1" in text for text in sources)
        assert any("Guide 2" in text for text in sources)


async def test_a_dm_sharing_a_log_with_a_question_gets_the_note(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        ts = "1600000000.082000"
        shared = direct_message(
            "what does this log mean?", ts=ts, subtype="file_share", files=[LOG, SCREENSHOT]
        )
        await world.post_event(shared)
        texts = [m["text"] for m in world.fake.bot_messages(DM, thread_ts=ts)]
        assert len(texts) == 2 and texts[0] == NOT_READ
        assert sum("read attached files" in text for text in texts) == 1


async def test_a_long_question_with_files_gets_one_note_saying_both(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        ts = "1600000000.083000"
        pasted = "why does this fail? " + "log line 42: timeout\n" * 300
        await world.post_event(direct_message(pasted, ts=ts, files=[LOG]))
        limit = world.connector.services.settings.web.max_question_chars
        note, answer = world.fake.bot_messages(DM, thread_ts=ts)
        assert f"first {limit:,} characters" in note["text"] and NOT_READ in note["text"]
        assert any("Guide 1" in text for text in context_texts([answer]))


async def test_a_question_without_files_gets_no_note(tmp_path: Path) -> None:
    answerer = CannedAnswerer(answer_citing(1))
    async with slack_world(tmp_path, answerer) as world:
        ts = "1600000000.084000"
        await world.post_event(mention("what does the guide say?", ts=ts))
        (answer,) = world.fake.bot_messages(PUBLIC, thread_ts=ts)
        assert "read attached files" not in str(answer)
