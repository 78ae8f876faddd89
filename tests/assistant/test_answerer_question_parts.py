"""The built-in answerer quotes a sentence of another passage only for a part of the question
the sentences before it leave open, and gives each part of a two-part question its sentences.

"Which Python version does citecast need?" was answered by the right sentence, then by "After
an upgrade, citecast may refuse an old index" (under "… an older version") and a macOS install
line; "How do I connect citecast to Slack and Discord?" got only the Discord steps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_parts import answers_another_part, question_parts
from tests.assistant.handbook_index import ask, ingested

GUIDE = """\
# Getting started with Beacon

Beacon answers questions from your documents in every channel it serves: a web chat, Slack,
email and Discord. This guide takes you from nothing to a first answer.

## Install

Beacon needs Python version 3.12 or newer. Install Beacon with `pip install beacon`.

### macOS

On macOS, install Python 3.12 with Homebrew, then follow the same steps.

## Start the server

Run `make serve` to start the web chat on http://127.0.0.1:8000.

## Troubleshooting

### The index was built by an older version

After an upgrade, Beacon may refuse an old index. Rebuild it with `beacon ingest --rebuild`.
"""

CHANNELS = """\
# Channels FAQ

## Slack

### How do I connect Beacon to Slack?

Create a Slack app with the `chat:write` scope and install it in your workspace. Put the bot
token in the environment and set `slack.enabled: true`.

## Discord

### How do I connect Beacon to Discord?

Create a bot in the Discord developer portal and set `discord.enabled: true`.

## Email

### How do I connect Beacon to email?

Set `email.enabled: true` and the bot's `email.address`, then choose how mail arrives.

### Which mail does Beacon not answer?

Auto-replies, bounces and mailing lists are never answered.

## Monitoring and health checks

Poll the web server every minute. Alert when it stops answering.
"""


@pytest.fixture
def guide(tmp_path: Path) -> Path:
    """A config whose index holds a getting-started guide and a channels FAQ."""
    return ingested(tmp_path, {"guide.md": GUIDE, "channels.md": CHANNELS})


def test_a_sentence_repeating_the_best_ones_words_in_another_sense_is_left_out(
    guide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "version" is in the heading "… an older version", "Python" in the macOS line: neither
    # holds a word the answer lacks
    text, sources = ask(guide, "Which Python version does Beacon need?", capsys)
    assert text == "Beacon needs Python version 3.12 or newer [1]."
    assert "Troubleshooting" not in sources and "macOS" not in sources


def test_a_documents_introduction_does_not_follow_the_answer_of_one_of_its_sections(
    guide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the introduction names the web chat too, and encloses "Start the server"
    text, _ = ask(guide, "Which address does the web chat start on after make serve?", capsys)
    assert text == "Run `make serve` to start the web chat on http://127.0.0.1:8000 [1]."


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("How do I connect Beacon to Slack and Discord?", ["Slack app", "Discord developer"]),
        (
            "How do I set up email answers and which mail is ignored?",
            ["Auto-replies", "`email.enabled: true`"],
        ),
    ],
)
def test_each_part_of_a_two_part_question_gets_its_sentences(
    guide: Path, capsys: pytest.CaptureFixture[str], question: str, wanted: list[str]
) -> None:
    text, _ = ask(guide, question, capsys)
    assert all(part in text for part in wanted), text


def test_a_one_part_question_still_keeps_to_its_sections_heading(
    guide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(guide, "How do I connect Beacon to Discord?", capsys)
    assert "Discord developer portal" in text and "Slack app" not in text


def test_question_parts_split_at_and() -> None:
    assert question_parts("How do I connect Beacon to Slack?") == []
    assert question_parts("How do I connect Beacon to Slack and Discord?") == [
        frozenset({"connect", "beacon", "slack"}),
        frozenset({"discord"}),
    ]
    parts = question_parts("How do I set up email & which mail is ignored?")
    assert answers_another_part(frozenset({"set", "email"}), frozenset({"mail"}), parts)
    assert not answers_another_part(frozenset({"mail"}), frozenset({"mail"}), parts)
    assert not answers_another_part(frozenset({"check"}), frozenset({"mail"}), [])
