"""The built-in answerer does not stitch an answer from passages that each share one word.

A Discourse topic that asks nothing is answered with its title and first post: "General chat:
Hello everyone, this is a general topic." was answered, with citations, by a sentence about
"@everyone" pings on Discord and another about embedding the web chat. Each of them writes a
word of it, so the rules that look at one sentence at a time let them through; "general" and
"topic" are in no passage, and no passage holds two of its words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_candidates import Candidate
from bot.assistant.extractive_unconfirmed import one_word_each
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import Source
from tests.assistant.handbook_index import ask, ingested

PUBLIC = frozenset({"public"})

HANDBOOK = """\
# Office handbook

## Parking

The parking garage opens at 6 and closes at midnight. Bike racks are by the north entrance.

## Canteen

The canteen serves lunch from noon until two. Vegetarian dishes are marked in green.
"""


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


@pytest.mark.parametrize(
    "question",
    [
        "General chat: Hello everyone, this is a general topic.",
        "General chat\n\nHello everyone, this is a general topic.",  # as a new topic asks it
    ],
)
async def test_a_greeting_sharing_a_word_with_two_passages_is_not_found(
    assistant: Assistant, question: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text == NOT_FOUND
    assert answer.citations == ()


@pytest.mark.parametrize(
    ("question", "start"),
    [
        # the questions the sample's eval and the precision tests ask that mix passages
        ("What happens when Slack returns 429?", "When a platform answers 429"),
        ("Which address does the web chat start on after make serve?", "Run `make serve`"),
    ],
)
async def test_questions_answered_from_several_passages_still_are(
    assistant: Assistant, question: str, start: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text.startswith(start)
    assert answer.citations


def test_a_topic_title_touching_two_sections_is_not_answered_from_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(tmp_path, {"handbook.md": HANDBOOK})
    assert ask(config, "Weekly chat: parking and lunch.", capsys) == (
        NOT_FOUND,
        "",
    )
    # asked about one of them, it is answered
    assert ask(config, "When does the parking garage open?", capsys)[0].startswith(
        "The parking garage opens at 6"
    )


def _candidate(rank: int, terms: str, topic: str = "") -> Candidate:
    source = Source(id=f"doc#{rank}", kind="passage", text=terms)
    return Candidate(
        rank=rank,
        position=0,
        text=terms,
        terms=frozenset(terms.split()),
        context=frozenset(),
        topic=frozenset(topic.split()),
        source=source,
        defines="",
    )


def test_one_word_each_needs_different_words_in_different_passages() -> None:
    everyone = _candidate(0, "everyon ping")
    chat = _candidate(1, "chat widget")
    asked = ["general", "chat", "hello", "everyone", "topic"]
    known = frozenset({"chat", "everyon"})
    assert one_word_each(asked, [everyone, chat], [everyone, chat], known)
    # one passage alone is rests_on_one_word's to judge
    assert not one_word_each(asked, [everyone], [everyone, chat], known)
    # a passage holding two of its words answers it
    both = _candidate(2, "everyon chat")
    assert not one_word_each(asked, [everyone, both], [everyone, both], known)
    # most of the question in the passages: not this rule's
    assert not one_word_each(
        ["slack", "returns", "429"], [everyone, chat], [everyone, chat], frozenset({"slack", "429"})
    )
