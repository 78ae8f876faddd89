"""The built-in answerer reads a version or dotted name of the question as one word."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_compounds import answer_terms, written
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest

PUBLIC = frozenset({"public"})

RELEASE_NOTES = """\
# Release notes

## 2.4.1

Version 2.4.1 fixes the Slack retry loop that answered one mention twice.
The Discord embeds of 2.4.1 show the page of a PDF source.

## 1.4.2

Version 1.4.2 fixes a crash when a PDF page holds no text at all.
Release 1.4.2 adds the --json flag to the ask command.
"""

SETTINGS_GUIDE = """\
# Settings

## Files

The file config.yaml holds every setting of the bot, one block per section.
Every yaml file in the config folder of a plugin is read when the bot starts.
"""


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    base = tmp_path_factory.mktemp("compounds-kb")
    docs = base / "docs"
    docs.mkdir()
    (docs / "release-notes.md").write_text(RELEASE_NOTES, encoding="utf-8")
    (docs / "settings.md").write_text(SETTINGS_GUIDE, encoding="utf-8")
    settings = Settings.model_validate(
        {"index": {"path": str(Path(base) / "index.db")}, "grounding": {"policy": "off"}}
    )
    report = ingest([docs], settings.index)
    assert report.indexed == 2
    return Assistant(settings, KnowledgeIndex(settings.index.path))


async def test_a_version_cites_only_its_own_release_notes(assistant: Assistant) -> None:
    # "1.4.2" and "2.4.1" have the same digits: each used to count for the other
    answer = await assistant.answer("What does 1.4.2 fix?", PUBLIC)
    assert "crash when a PDF page holds no text" in answer.text
    assert "2.4.1" not in answer.text
    assert {c.source.section for c in answer.citations} == {"Release notes > 1.4.2"}


async def test_what_is_new_in_a_version_is_answered_from_its_notes(assistant: Assistant) -> None:
    answer = await assistant.answer("What is new in 1.4.2?", PUBLIC)
    assert answer.text != NOT_FOUND
    assert "1.4.2" in answer.text and "2.4.1" not in answer.text
    assert {c.source.section for c in answer.citations} == {"Release notes > 1.4.2"}


async def test_a_version_no_document_writes_is_not_found(assistant: Assistant) -> None:
    # every digit of "4.2.1" is in the notes of 1.4.2 and 2.4.1, the version is in neither
    answer = await assistant.answer("What is new in 4.2.1?", PUBLIC)
    assert answer.text == NOT_FOUND
    assert not answer.citations


async def test_a_dotted_file_name_prefers_the_sentence_that_writes_it(
    assistant: Assistant,
) -> None:
    # the plugin sentence holds "config" and "yaml" too, but not the file config.yaml
    answer = await assistant.answer("What does config.yaml hold?", PUBLIC)
    assert answer.text.startswith("The file config.yaml holds every setting")
    assert "plugin" not in answer.text


async def test_the_sample_docs_do_not_answer_a_version_they_never_name(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # the retry policy "waits 1 second, then 2, then 4": not the release notes of 1.4.2
    sample = Assistant(kb_settings, kb_index)
    answer = await sample.answer("What is new in 1.4.2?", PUBLIC)
    assert answer.text == NOT_FOUND
    assert not answer.citations


def test_a_compound_replaces_its_parts_unless_a_part_is_also_said_alone() -> None:
    assert answer_terms("What is new in 1.4.2?") == ["new", "1 4 2"]
    assert answer_terms("What does the add-on cost?") == ["add on", "cost"]
    assert answer_terms("Is config.yaml the only config file?") == [
        "config yaml",
        "config",
        "file",
    ]


def test_a_compound_is_written_with_any_separator_but_not_inside_a_longer_one() -> None:
    assert written(["1 4 2"], "see v1.4.2 and 1-4-2") == {"1 4 2"}
    assert written(["1 4 2"], "11.4.2, 1.4.23 and 2.4.1") == frozenset()
    assert written(["index chunk chars"], "set `index.chunk_chars` first") == {"index chunk chars"}
    assert written(["config yaml"], "設定ファイルconfig.yamlを開く") == {"config yaml"}
    assert answer_terms("citecastの設定ファイルconfig.yaml")[-1] == "config yaml"
