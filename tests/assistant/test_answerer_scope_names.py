"""A permission or scope name in code (`app_mentions:read`, `files:write`) is a name, not prose:
its "read" and "files" do not make a sentence about Slack scopes answer "Can citecast read PDF
files?". The name itself still finds its sentence."""

from __future__ import annotations

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import sentence_candidates
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.terms import stem
from bot.models import Source

PUBLIC = frozenset({"public"})
SCOPES = "add the `chat:write`, `files:write` and `app_mentions:read` scopes"


@pytest.fixture
def assistant(kb_settings: Settings, kb_index: KnowledgeIndex) -> Assistant:
    return Assistant(kb_settings, kb_index)


@pytest.mark.parametrize("question", ["Can citecast read PDF files?", "Does citecast read PDFs?"])
async def test_a_scope_name_does_not_answer_a_prose_question(
    assistant: Assistant, question: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.citations
    assert "app_mentions:read" not in answer.text
    assert all("Slack" not in (c.source.section or "") for c in answer.citations)


def test_scope_words_are_not_sentence_terms_but_the_name_still_matches() -> None:
    source = Source(id="s", kind="passage", text=f"Create a Slack app, {SCOPES}, and install it.")
    [candidate] = sentence_candidates([source], ["app mentions"])
    assert {stem(w) for w in ("read", "write", "files", "chat")}.isdisjoint(candidate.terms)
    assert {"app mentions", stem("scopes"), stem("slack")} <= candidate.terms


def test_other_code_keeps_its_words() -> None:
    text = "Set `slack.mode: socket` and open `localhost:8000`, then run `citecast ingest`."
    [candidate] = sentence_candidates([Source(id="s", kind="passage", text=text)])
    assert {stem(w) for w in ("socket", "8000", "ingest", "mode")} <= candidate.terms
