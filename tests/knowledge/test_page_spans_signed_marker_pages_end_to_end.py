"""Through the real path for a PDF with no public URL: ingested (no ``url_templates``), an
answer citing its page-spanning passage for a sentence of each page, grounded and narrowed,
then shown on the web with real signed ``/files/`` links: each marker's link opens its own
page, the source list's the span's first, and each marker's tooltip names its own page."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.filetokens import FileSigner
from bot.knowledge import KnowledgeIndex, ingest
from bot.models import Source
from renderers import render
from renderers.base import RenderContext
from tests.knowledge.conftest import PdfBuilder
from tests.knowledge.handbook_pages import PAGE_1, PAGE_2, ask_handbook

PUBLIC = frozenset({"public"})
BASE = "https://bot.example.com"


@pytest.fixture
def private_handbook(tmp_path: Path, build_pdf: PdfBuilder) -> Settings:
    """An index of a two-page handbook with no public URL, its one chunk across the break."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "handbook.pdf").write_bytes(
        build_pdf([("Leave", [PAGE_1]), ("Leave", [PAGE_2])])
    )
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "index.db")}, "grounding": {"policy": "annotate"}}
    )
    ingest([tmp_path / "kb"], settings.index)
    [chunk] = KnowledgeIndex(settings.index.path).search("annual leave")
    assert (chunk.page, chunk.page_end, chunk.url) == (1, 2, None)  # the premise
    return settings


def _signed(tmp_path: Path) -> RenderContext:
    signer = FileSigner(b"a-file-link-secret-for-page-tests", BASE, 3600, [tmp_path / "kb"])

    def sign(source: Source) -> str | None:
        return signer.url_for(source, PUBLIC)

    return RenderContext(signer=sign)


async def test_each_signed_marker_link_opens_its_own_page(
    private_handbook: Settings, tmp_path: Path
) -> None:
    answer = await ask_handbook(private_handbook)
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end) == (1, 2)
    [web] = render("web", answer, _signed(tmp_path))["citations"]
    assert web["form"] == "download"
    assert web["url"].startswith(f"{BASE}/files/") and web["url"].endswith("#page=1")
    token = web["url"].removesuffix("#page=1")
    assert [o["url"] for o in web["occurrences"]] == [f"{token}#page=1", f"{token}#page=2"]
    assert [o.to_json().get("page") for o in citation.occurrences] == [1, 2]


async def test_each_marker_tooltip_names_its_own_page(
    private_handbook: Settings, tmp_path: Path
) -> None:
    answer = await ask_handbook(private_handbook)
    html = render("web", answer, _signed(tmp_path))["html"]
    titles = [part.split('"', 1)[0] for part in html.split(' title="')[1:]]
    assert [t.split(": ", 1)[0].rsplit(" — ", 1)[-1] for t in titles] == [
        "p. 1, Leave",
        "p. 2, Leave",
    ]
    assert '<span class="detail">pp. 1–2, Leave</span>' in html
