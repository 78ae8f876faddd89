"""The sentence an answer is built around holds the question, and what continues it comes too.

"When does the office open?" was answered by "The parking garage opens at 6" because the same
passage named the office in another sentence: each sentence held one of the two words, half the
question. And "How do I restrict a document to staff?" lost "A document without any of these is
public.", the sentence that finishes the one it quoted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_precision import (
    can_lead,
    continuations,
    covers_enough,
    leaves_out,
    places,
    read_with,
)
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.handbook_index import ask, ingested

PUBLIC = frozenset({"public"})

HANDBOOK = """\
# Employee handbook

## Time off

Every employee gets 25 vacation days a year. Book time off in the HR portal at least two weeks
ahead.

## Getting here

The office is at 12 Harbour Street, next to the station. The parking garage opens at 6 and
closes at midnight. Bike racks are by the north entrance.
"""


@pytest.fixture
def handbook(tmp_path: Path) -> Path:
    """A config whose index holds a handbook that names the office beside the garage."""
    return ingested(tmp_path, {"handbook.md": HANDBOOK})


@pytest.mark.parametrize(
    "question", ["When does the office open?", "What time does the office open?"]
)
def test_one_word_of_two_in_another_sense_does_not_answer(
    handbook: Path, question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the garage "opens", the office "is at 12 Harbour Street": neither says when it opens
    assert ask(handbook, question, capsys)[0] == NOT_FOUND


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "When does the parking garage open?",
            "The parking garage opens at 6 and closes at midnight [1].",
        ),
        ("Where is the office?", "The office is at 12 Harbour Street, next to the station [1]."),
    ],
)
def test_each_sentence_still_answers_its_own_question(
    handbook: Path, question: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ask(handbook, question, capsys)[0] == answer


def test_beside_the_answer_a_sentence_with_one_word_in_another_sense_is_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "the office reception" and the garage that "opens" each hold one word of two; the
    # passage holds the other one in the sentence that answers
    text = (
        "# Employee handbook\n\n## Getting here\n\nThe office opens at 8 and closes at 18."
        " Visitors sign in at the office reception. The parking garage opens at 6 and closes at"
        " midnight. Bike racks are by the north entrance.\n"
    )
    config = ingested(tmp_path, {"handbook.md": text})
    answer = ask(config, "When does the office open?", capsys)[0]
    assert answer == "The office opens at 8 and closes at 18 [1]."


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


async def test_the_sentence_that_finishes_a_quoted_one_comes_with_it(
    assistant: Assistant,
) -> None:
    # "any of these" counts the ways the sentence before it lists; it holds "document"
    answer = await assistant.answer("How do I restrict a document to staff?", PUBLIC)
    assert answer.text.startswith("Each document has an audience")
    assert answer.text.endswith(
        "`citecast ingest --audience staff` [^1]. A document without any of these is public [^1]."
    )
    assert len(answer.citations) == 1


async def test_words_each_held_by_another_sentence_do_not_answer(assistant: Assistant) -> None:
    # the sample says "a Sources list" in one sentence and "--json" in the next
    answer = await assistant.answer("How do I list items as a JSON array?", PUBLIC)
    assert answer.text == NOT_FOUND and answer.citations == ()


def test_a_sentence_holding_half_must_not_leave_out_what_its_passage_holds() -> None:
    counted = frozenset({"offic", "open"})
    passage = frozenset({"offic", "harbour", "park", "garag", "open", "bike"})
    assert leaves_out(frozenset({"open", "garag"}), counted, passage)
    assert not covers_enough(frozenset({"open", "garag"}), counted, passage)
    # the other word is nowhere in its passage: half is enough, as before
    assert not leaves_out(frozenset({"open"}), counted, frozenset({"open", "garag"}))
    # a heading that names a question word frames every sentence under it
    assert not leaves_out(
        frozenset({"backup"}),
        frozenset({"backup", "run"}),
        frozenset({"run"}),
        framing=frozenset({"backup"}),
    )
    # more than half held, or nothing counted
    assert not leaves_out(frozenset({"a", "b"}), frozenset({"a", "b", "c"}), frozenset({"c"}))
    assert not leaves_out(frozenset(), frozenset(), frozenset())


def test_the_lead_holds_most_of_the_question_by_weight_or_is_framed() -> None:
    even = {"offic": 1.0, "open": 1.0}
    assert not can_lead(frozenset({"open"}), frozenset(even), frozenset(), even)
    assert can_lead(frozenset({"open", "offic"}), frozenset(even), frozenset(), even)
    # a rare word outweighs a common one ("walrus" against "document")
    rare = {"walrus": 3.0, "document": 0.5}
    assert can_lead(frozenset({"walrus"}), frozenset(rare), frozenset(), rare)
    assert not can_lead(frozenset({"document"}), frozenset(rare), frozenset(), rare)
    assert can_lead(frozenset(), frozenset(even), frozenset({"offic"}), even)
    assert can_lead(frozenset(), frozenset(), frozenset(), {})


@dataclass(frozen=True)
class _Line:
    rank: int
    position: int
    text: str
    words: frozenset[str] = frozenset()


def test_a_continuation_points_back_to_a_chosen_sentence_and_holds_a_question_word() -> None:
    lines = [
        _Line(0, 0, "Each document has an audience.", frozenset({"document"})),
        _Line(0, 1, "Set it in the front matter.", frozenset({"staff"})),
        _Line(0, 2, "A document without any of these is public.", frozenset({"document"})),
        _Line(0, 3, "It is the default.", frozenset()),
        _Line(0, 4, "They may read it.", frozenset({"document"})),
        _Line(1, 0, "Staff see everything.", frozenset({"staff"})),
        _Line(1, 1, "Guests see public documents.", frozenset({"document"})),
    ]
    place = places(lines)
    groups = [read_with(i, lines, _text, place) for i in range(len(lines))]
    wanted = frozenset({"document", "staff"})

    def held(line: _Line) -> frozenset[str]:
        return line.words & wanted

    # "It is the default." holds no question word: the chain stops there
    assert continuations([0, 1], lines, groups, place, held) == [2]
    # a sentence that does not point back ("Guests see …") is no continuation
    assert continuations([5], lines, groups, place, held) == []
    assert continuations([], lines, groups, place, held) == []


def _text(line: _Line) -> str:
    return line.text
