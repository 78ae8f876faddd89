"""Marker-like text a user pastes into a question ("[1][2][3]", "<source id="2">") is no
question word: its numbers must not make the built-in answerer cite sentences that merely hold
a 1, a 2 or a 3."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive_question import plain_question
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import Answer, Exchange

PUBLIC = frozenset({"public"})
INSTALL = "How do I install citecast?"


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


def _sections(answer: Answer) -> list[str]:
    return [c.source.section or "" for c in answer.citations]


@pytest.mark.parametrize(
    "suffix",
    [
        " [1][2][3]",
        " [1, 2]",
        " [^1]",
        " [source 2]",
        ' <source id="2">',
        " <citation>3</citation>",
    ],
)
async def test_markers_in_a_question_change_nothing(assistant: Assistant, suffix: str) -> None:
    plain = await assistant.answer(INSTALL, PUBLIC)
    marked = await assistant.answer(INSTALL + suffix, PUBLIC)
    assert marked.text == plain.text
    assert _sections(marked) == _sections(plain)
    assert all("Retry" not in s and "Discord" not in s for s in _sections(marked))


async def test_markers_in_an_earlier_question_change_nothing(assistant: Assistant) -> None:
    first = await assistant.answer(INSTALL, PUBLIC)
    plain = await assistant.answer("And macOS?", PUBLIC, [Exchange(INSTALL, first.text)])
    history = [Exchange(INSTALL + " [1][2][3]", first.text)]
    marked = await assistant.answer("And macOS? [4]", PUBLIC, history)
    assert marked.text == plain.text and _sections(marked) == _sections(plain)


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        ("Why [1]?", "Why  ?"),
        ("What does error 429 mean?", "What does error 429 mean?"),  # not bracketed
        ("What is [429]?", "What is [429]?"),  # three digits: a code, not a marker
        ("Is <script> allowed?", "Is <script> allowed?"),  # not a citation tag
        ("Who wrote 【2】 and [3-4]?", "Who wrote   and  ?"),
    ],
)
def test_plain_question(question: str, plain: str) -> None:
    assert plain_question(question) == plain
