"""Each part of a two-part question gets the sentence it would be answered with if asked alone.

"How do I connect citecast to Slack and how long can a Discord answer be?" got the Discord
set-up steps and the Slack steps, never "Discord limits a message to 2,000 characters": the
Discord steps ("List the channel ids citecast should answer in …") hold "answer" and "Discord",
so the second part counted as answered by the sentence that led the whole question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.handbook_index import ask, ingested

FAQ = """\
# Chat integrations FAQ

## Slack

### How do I connect citecast to Slack?

Create a Slack app, add the `chat:write` scope, and install it in your workspace. citecast
answers mentions and direct messages.

## Discord

### How do I connect citecast to Discord?

Create a bot in the Discord developer portal and invite it to your server. List the channel ids
citecast should answer in under `discord.channels`.

### How long can a Discord answer be?

Discord limits a message to 2,000 characters. Longer answers are split at paragraph boundaries.
"""


@pytest.fixture(scope="module")
def faq(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ingested(tmp_path_factory.mktemp("part-leads"), {"faq.md": FAQ})


@pytest.mark.parametrize(
    "question",
    [
        "How do I connect citecast to Slack and how long can a Discord answer be?",
        "How long can a Discord answer be and how do I connect citecast to Slack?",
    ],
)
def test_each_part_gets_the_sentence_that_answers_it(
    faq: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    answer = ask(faq, question, capsys)[0]
    assert "Discord limits a message to 2,000 characters" in answer, answer
    assert "Create a Slack app" in answer, answer


def test_the_part_alone_is_answered_as_before(
    faq: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = ask(faq, "How long can a Discord answer be?", capsys)[0]
    assert answer.startswith("Discord limits a message to 2,000 characters"), answer
    assert "Slack" not in answer
