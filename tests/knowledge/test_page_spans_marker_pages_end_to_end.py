"""Through the real path: a two-page PDF ingested, an answer citing its spanning passage for a
sentence of each page, grounded, narrowed, then shown by the web renderer and ``citecast ask``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.ask import plain_text
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from renderers import render
from tests.knowledge.conftest import PdfBuilder
from tests.knowledge.handbook_pages import BOTH as ANSWER
from tests.knowledge.handbook_pages import PAGE_1, PAGE_2, ask_handbook

PUBLIC = frozenset({"public"})
URL = "https://docs.example.com/handbook.pdf"
TITLE = "citecast operations handbook"  # the title examples/make_pdf.py writes


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


async def test_each_marker_links_its_own_page_and_the_source_names_both(
    handbook_settings: Settings,
) -> None:
    answer = await ask_handbook(handbook_settings, ANSWER)
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
    answer = await ask_handbook(
        handbook_settings, "Unused annual leave expires at the end of March [1]."
    )
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end) == (2, None)
    assert citation.deep_link == f"{URL}#page=2"
    assert f"[1] {TITLE} — Leave — p. 2 — {URL}" in plain_text(answer).splitlines()
