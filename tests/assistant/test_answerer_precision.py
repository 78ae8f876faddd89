"""The built-in answerer quotes sentences about the question, each with what it points back to.

A new user's first questions ("What time does the office open?", "How many vacation days do I
get?") used to be answered by sentences that each shared one word with them ("the time to first
token", a button that "opens" the chat, a plan's "2 business days"), and a sentence such as
"Your manager approves it …" was quoted without the sentence that says what "it" is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_precision import covers_enough, places, points_back, read_with
from bot.assistant.extractive_question import plain_question
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.handbook_index import ask, ingested

PUBLIC = frozenset({"public"})

HANDBOOK = """\
# Employee handbook

## Time off

Every employee gets 25 vacation days a year. Book time off in the HR portal at least two weeks
ahead. Your manager approves it within three working days.

## Getting here

The parking garage opens at 6 and closes at midnight. Bike racks are by the north entrance.
"""

OPERATIONS = """\
# Operations

## Monitoring

Watch the time to first token of every streamed answer. Alert when the outbox grows.

## Slack

Socket Mode opens an outgoing WebSocket to Slack, so no public URL is needed.
"""


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


@pytest.fixture
def handbook(tmp_path: Path) -> Path:
    """A config whose index holds an employee handbook and an operations page."""
    return ingested(tmp_path, {"handbook.md": HANDBOOK, "operations.md": OPERATIONS})


async def test_office_hours_the_sample_does_not_have_are_not_found(assistant: Assistant) -> None:
    # each sentence held one word: "the time to first token", Socket Mode "opens" a
    # WebSocket, "Clicking it opens the source", the widget "opens the same chat"
    answer = await assistant.answer("What time does the office open?", PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()


async def test_a_record_sharing_one_value_word_does_not_answer(assistant: Assistant) -> None:
    # "days" is in the Team plan's "email within 2 business days"; "vacation" is nowhere
    answer = await assistant.answer("How many vacation days do I get?", PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()


async def test_a_sentence_that_points_back_comes_with_what_it_points_to(
    assistant: Assistant,
) -> None:
    # "Clicking it" is the superscript number the sentence before it names
    answer = await assistant.answer("How do I open a cited source?", PUBLIC)
    hover = answer.text.index("Hover or focus the superscript number")
    assert answer.text.index("Clicking it opens the source") > hover
    assert len(answer.citations) == 1


async def test_a_sentence_holding_one_word_of_four_is_left_out(assistant: Assistant) -> None:
    # "Rotate any token … and update the environment" shares only "update"
    answer = await assistant.answer("How do I update the index when a document changes?", PUBLIC)
    assert "citecast ingest --rebuild" in answer.text
    assert "Rotate any token" not in answer.text


async def test_a_word_no_passage_holds_does_not_count_against_a_sentence(
    assistant: Assistant,
) -> None:
    # the handbook says a platform "answers 429", never that it "returns" one
    answer = await assistant.answer("What happens when Slack returns 429?", PUBLIC)
    assert answer.text.startswith("When a platform answers 429 Too Many Requests")


async def test_what_time_asks_when(assistant: Assistant) -> None:
    # "time" is no question word, so the Backups section still answers with its schedule
    answer = await assistant.answer("What time do backups run?", PUBLIC)
    assert answer.text.startswith("Back up the store at .citecast/citecast.db every night")


def test_ask_office_hours_of_a_handbook_without_them(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the new-user walkthrough: the garage "opens at 6", "Time off", the WebSocket "opens"
    assert ask(handbook, "What time does the office open?", capsys)[0] == NOT_FOUND
    assert ask(handbook, "When does the parking garage open?", capsys)[0] == (
        "The parking garage opens at 6 and closes at midnight [1]."
    )


def test_ask_quotes_it_with_the_sentence_it_refers_to(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Your manager approves it" was quoted right after "25 vacation days a year", as if
    # "it" were those days; "it" is the request the sentence before it books
    assert ask(handbook, "Who approves vacation days?", capsys)[0] == (
        "Every employee gets 25 vacation days a year [1]. Book time off in the HR portal at"
        " least two weeks ahead [1]. Your manager approves it within three working days [1]."
    )


@pytest.mark.parametrize(
    ("sentence", "back"),
    [
        ("It holds conversation turns, the outbox and feedback.", True),
        ("Clicking it opens the source at that passage.", True),
        ("Your manager approves it within three working days.", True),
        ("These limits apply per workspace.", True),
        ("That is why the outbox keeps every reply.", True),
        ("This page explains how it keeps private sources private.", False),
        ("This guide is for the person who runs citecast.", False),
        ("Check that the documents are ingested.", False),
        ("Create a Slack app, add the scopes, and install it in your workspace.", False),
        ("Back up the store at .citecast/citecast.db every night.", False),
        # a pronoun after "of", anywhere in the sentence
        ("A document without any of these is public.", True),
        ("Each of them retries five times.", True),
        ("Most of those are optional.", True),
        ("Neither of these settings is required.", True),
        ("A document without an audience is public.", False),
        ("The list of themes is in the theme folder.", False),
    ],
)
def test_points_back(sentence: str, back: bool) -> None:
    assert points_back(sentence) is back


@dataclass(frozen=True)
class _Line:
    rank: int
    position: int
    text: str


def test_a_pointing_sentence_is_read_back_to_one_that_does_not_point() -> None:
    lines = [
        _Line(0, 0, "It opens the passage."),
        _Line(0, 1, "A plain sentence."),
        _Line(1, 0, "The store holds turns."),
        _Line(1, 1, "It is backed up nightly."),
        _Line(1, 2, "Clicking it restores them."),
    ]
    place = places(lines)
    assert read_with(4, lines, _text, place) == [2, 3, 4]
    assert read_with(1, lines, _text, place) == [1]
    assert read_with(0, lines, _text, place) is None  # what "it" is lies in another passage


def _text(line: _Line) -> str:
    return line.text


def test_covers_enough_is_half_of_the_counted_words() -> None:
    counted = frozenset({"time", "offic", "open"})
    assert not covers_enough(frozenset({"time"}), counted)
    assert covers_enough(frozenset({"time", "open"}), counted)
    assert covers_enough(frozenset({"backup"}), frozenset({"backup", "run"}))
    assert covers_enough(frozenset(), frozenset())


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        ("What time does the office open?", "when does the office open?"),
        ("At what time do backups run?", "when do backups run?"),
        ("What time zone does the report use?", "What time zone does the report use?"),
        ("What time to first token is normal?", "What time to first token is normal?"),
    ],
)
def test_what_time_before_the_verb_is_read_as_when(question: str, plain: str) -> None:
    assert plain_question(question) == plain
