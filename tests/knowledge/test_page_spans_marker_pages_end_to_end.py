"""Through the real path: a two-page PDF ingested, an answer citing its spanning passage for a
sentence of each page, grounded, narrowed, then shown by the web renderer and ``citecast ask``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.assistant import Assistant
from bot.assistant.tools import ToolCall
from bot.assistant.turn import STEP_END, StepEnd, Turn
from bot.commands.ask import plain_text
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.models import Answer
from renderers import render
from tests.knowledge.conftest import PdfBuilder

PUBLIC = frozenset({"public"})
PAGE_1 = "Annual leave is twenty-five days per calendar year. Requests go through the leave portal."
PAGE_2 = (
    "Parental leave lasts sixteen weeks at full pay. "
    "Unused annual leave expires at the end of March."
)
URL = "https://docs.example.com/handbook.pdf"
TITLE = "citecast operations handbook"  # the title examples/make_pdf.py writes
ANSWER = (
    "Annual leave is twenty-five days per calendar year [1]. "
    "Unused annual leave expires at the end of March [1]."
)


@pytest.fixture
def handbook_settings(tmp_path: Path, build_pdf: PdfBuilder) -> Settings:
    """An index of a two-page handbook whose one chunk crosses the page break, grounded."""
    (tmp_path / "handbook.pdf").write_bytes(build_pdf([("Leave", [PAGE_1]), ("Leave", [PAGE_2])]))
    settings = Settings.model_validate(
        {
            "index": {
                "path": str(tmp_path / "index.db"),
                "url_templates": {"*.pdf": "https://docs.example.com/{path}"},
            },
            "grounding": {"policy": "annotate"},
        }
    )
    ingest([tmp_path / "handbook.pdf"], settings.index)
    [chunk] = KnowledgeIndex(settings.index.path).search("annual leave")
    assert (chunk.page, chunk.page_end, chunk.url) == (1, 2, URL)  # the premise: one chunk
    return settings


@dataclass
class ScriptedBackend:
    """Searches once, then writes ``text`` (a model citing the passage it found)."""

    text: str
    name: str = "scripted"

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        yield STEP_END
        call = ToolCall("call_1", "search_docs", json.dumps({"query": "annual leave"}))
        await turn.toolbox.run_calls([call], turn.registry)
        yield self.text


async def _ask(settings: Settings, text: str) -> Answer:
    # from_settings for the grounding hook, then the scripted backend in place of the model
    assistant = Assistant.from_settings(settings)
    assistant.backend = ScriptedBackend(text)
    return await assistant.answer("How much annual leave is there?", PUBLIC)


async def test_each_marker_links_its_own_page_and_the_source_names_both(
    handbook_settings: Settings,
) -> None:
    answer = await _ask(handbook_settings, ANSWER)
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end) == (1, 2)
    assert [o.deep_link for o in citation.occurrences] == [f"{URL}#page=1", f"{URL}#page=2"]
    [web] = render("web", answer)["citations"]
    assert (web["page"], web["page_end"]) == (1, 2)
    assert [o["url"] for o in web["occurrences"]] == [f"{URL}#page=1", f"{URL}#page=2"]
    assert f"[1] {TITLE} — Leave — pp. 1–2 — {URL}" in plain_text(answer).splitlines()


async def test_an_answer_citing_only_page_two_names_page_two(
    handbook_settings: Settings,
) -> None:
    answer = await _ask(handbook_settings, "Unused annual leave expires at the end of March [1].")
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end) == (2, None)
    assert citation.deep_link == f"{URL}#page=2"
    assert f"[1] {TITLE} — Leave — p. 2 — {URL}" in plain_text(answer).splitlines()
