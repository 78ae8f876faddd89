"""A document's own reference mark ("yearly [1].") through the OpenAI backend: the model is shown
the passage without it (bot.reference_marks via format_passages) and told never to copy one, so
a model that copies the sentence it read cites only the passage it read it in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.openai_backend import OpenAIBackend
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import Answer
from tests.assistant import gasket_docs
from tests.assistant.test_assistant_openai import PUBLIC, model_settings, tool_messages
from tests.fakes.openai_server import FakeOpenAI, text, tools

QUESTION = "When must the gasket be replaced?"
SEARCH = tools(("search_docs", {"query": "gasket"}))


@pytest.fixture
def gasket_settings(tmp_path: Path) -> Settings:
    """An index of two documents: a Markdown page and a text file with a reference mark."""
    return gasket_docs.gasket_settings(tmp_path, "The gasket must be replaced yearly [1].")


def _assistant(settings: Settings, base_url: str) -> Assistant:
    configured = model_settings(settings, base_url)
    return Assistant(
        configured,
        KnowledgeIndex(configured.index.path),
        OpenAIBackend(configured.assistant.openai),
    )


def _copied_reply(shown: str) -> tuple[str, int]:
    """What a model that copies its evidence writes: the refs.txt sentence as it was shown,
    with that passage's number after it; and the number."""
    number = int(re.search(r"\[cite: (\d+)\] refs", shown)[1])  # type: ignore[index]
    sentence = next(line for line in shown.splitlines() if "replaced yearly" in line)
    return f"{sentence.rstrip('.')} [{number}].", number


async def test_the_model_is_shown_the_passage_without_its_reference_mark(
    fake: FakeOpenAI, gasket_settings: Settings
) -> None:
    fake.add(SEARCH, text("The gasket must be replaced yearly [2]."))
    await _assistant(gasket_settings, fake.base_url).answer(QUESTION, PUBLIC)
    [shown] = tool_messages(fake.requests[1])
    assert "The gasket must be replaced yearly.\n" in shown + "\n", shown
    assert "yearly [1]" not in shown
    system = fake.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert "inside a passage's text is that document's own reference" in system["content"]
    assert fake.problems == []


async def test_a_model_copying_the_passage_cites_only_the_passage_it_copied(
    fake: FakeOpenAI, gasket_settings: Settings
) -> None:
    # the first turn shows what the model reads; the second answers by copying it
    fake.add(SEARCH, text("Let me look."))
    bot = _assistant(gasket_settings, fake.base_url)
    await bot.answer(QUESTION, PUBLIC)
    [shown] = tool_messages(fake.requests[1])
    reply, number = _copied_reply(shown)
    fake.add(SEARCH, text(reply))
    answer: Answer = await bot.answer(QUESTION, PUBLIC)
    # before, the reply read "… replaced yearly [1] [2].": "[1]" cited gasket.md, which never
    # says when the gasket is replaced
    assert [(c.source_number, c.source.filename) for c in answer.citations] == [
        (number, "refs.txt")
    ], answer.text
    assert answer.text == "The gasket must be replaced yearly [^1]."


async def test_a_copied_value_cites_only_the_passage_it_was_copied_from(
    fake: FakeOpenAI, tmp_path: Path
) -> None:
    # (the second review) "wear level [1]" is a value, kept as written: shown escaped, so a
    # model that copies it keeps it as text instead of citing result 1 (gasket.md)
    settings = gasket_docs.gasket_settings(
        tmp_path, "The gasket must be replaced at wear level [1]."
    )
    fake.add(SEARCH, text("Let me look."))
    bot = _assistant(settings, fake.base_url)
    await bot.answer(QUESTION, PUBLIC)
    [shown] = tool_messages(fake.requests[1])
    found = re.search(r"\[cite: (\d+)\] refs", shown)
    assert found is not None, shown
    sentence = next(line for line in shown.splitlines() if "wear level" in line)
    assert sentence.endswith("wear level \\[1\\].")
    fake.add(SEARCH, text(f"{sentence.rstrip('.')} [{found[1]}]."))
    answer = await bot.answer(QUESTION, PUBLIC)
    assert [c.source.filename for c in answer.citations] == ["refs.txt"], answer.text
