"""A document's own reference mark ("[1]" in a plain-text file) never reads as a citation: the
built-in answerer quotes its sentences without it (bot.reference_marks)."""

from __future__ import annotations

from pathlib import Path

from bot.assistant.assistant import Assistant
from bot.assistant.cited_lines import with_marker
from bot.assistant.extractive_sentences import sentences_of
from bot.knowledge import KnowledgeIndex
from renderers import render
from tests.assistant.gasket_docs import gasket_settings


async def test_a_quoted_reference_mark_is_not_shown_beside_another_sources_number(
    tmp_path: Path,
) -> None:
    settings = gasket_settings(tmp_path, "The gasket must be replaced yearly [1].")
    assistant = Assistant(settings, KnowledgeIndex(settings.index.path))
    answer = await assistant.answer(
        "Who checks the gasket and when must the gasket be replaced?", frozenset({"public"})
    )
    numbers = {c.n: c.source.filename for c in answer.citations}
    assert numbers == {1: "gasket.md", 2: "refs.txt"}, numbers
    slack = render("slack", answer)["messages"][0]["text"]
    # "[1]" after the refs.txt claim reads as a citation of gasket.md, which does not say it
    assert "yearly [1]" not in slack, slack


def test_a_mark_after_a_full_stop_neither_joins_two_sentences_nor_stays() -> None:
    # "March.[2] Pumps": "[" after the stop was no sentence end, so both sentences were one
    text = "Filters are changed every March.[2] Pumps are checked every week [3]."
    assert sentences_of(text) == [
        "Filters are changed every March.",
        "Pumps are checked every week.",
    ]


def test_indexing_code_and_a_bibliography_keep_their_brackets() -> None:
    text = (
        "Read `arr[1]` and then items[2] before the gasket check [3].\n\n"
        "[1] Smith, J. Gasket wear in salt air.\n[2] Doe, A. Seals and valves.\n"
    )
    assert sentences_of(text) == [
        "Read `arr[1]` and then items[2] before the gasket check.",
        "[1] Smith, J. Gasket wear in salt air.",
        "[2] Doe, A. Seals and valves.",
    ]


def test_a_mark_its_sentence_names_is_quoted_as_a_word() -> None:
    line = with_marker(sentences_of("The seal holds at 6 bar, as shown in [3].")[0], 1)
    assert line == "The seal holds at 6 bar, as shown in reference 3 [1]."
