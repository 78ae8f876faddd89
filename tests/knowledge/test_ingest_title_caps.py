"""A title or section name is cut to a length a source list can show.

Found by QA: a Markdown heading of 30,000 words (or an HTML ``<title>`` of that size) became a
210 KB title and section, printed in every channel's source list, and it skewed ranking for
every question: after ingesting it beside the sample knowledge base, "What is citecast?" was
answered from the operations handbook instead of the getting-started guide.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.title_caps import (
    ELLIPSIS,
    MAX_SECTION_CHARS,
    MAX_TITLE_CHARS,
    capped,
    capped_section,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HUGE = " ".join(["Quokka"] * 30_000)


def _odd_files(folder: Path) -> None:
    folder.mkdir()
    (folder / "longtitle.md").write_text(
        f"# {HUGE}\n\nThe quokka warranty covers eleven moons.\n## {HUGE}\n\nMore quokka.\n"
    )
    wombats = " ".join(["Wombat"] * 30_000)
    (folder / "t.html").write_text(
        f"<html><head><title>{wombats}</title></head>"
        "<body><p>The wombat discount is seventeen percent.</p></body></html>\n"
    )


def test_a_long_name_is_cut_at_a_word_with_an_ellipsis() -> None:
    assert capped("Install on Linux") == "Install on Linux"
    cut = capped(HUGE)
    assert len(cut) <= MAX_TITLE_CHARS
    assert cut.endswith(f"Quokka{ELLIPSIS}")
    assert capped("x" * 500) == "x" * (MAX_TITLE_CHARS - 1) + ELLIPSIS  # no space to cut at


def test_a_long_section_path_keeps_its_innermost_headings() -> None:
    assert capped_section("Setup > Linux") == "Setup > Linux"
    section = capped_section(" > ".join([HUGE, HUGE, HUGE, "Install"]))
    assert len(section) <= MAX_SECTION_CHARS
    assert section.startswith(f"{ELLIPSIS} > Quokka")
    assert section.endswith(f"{ELLIPSIS} > Install")


def test_ingest_stores_cut_titles_and_sections(tmp_path: Path) -> None:
    _odd_files(tmp_path / "odd")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    assert ingest([tmp_path / "odd"], settings).indexed == 2
    index = KnowledgeIndex(settings.path)
    try:
        found = [*index.search("quokka warranty"), *index.search("wombat discount")]
    finally:
        index.close()
    assert {source.filename for source in found} == {"longtitle.md", "t.html"}
    for source in found:
        assert source.title is not None and source.title.endswith(ELLIPSIS)
        assert len(source.title) <= MAX_TITLE_CHARS
        assert len(source.section or "") <= MAX_SECTION_CHARS
    assert {source.section for source in found if source.filename == "longtitle.md"} == {
        capped(HUGE),
        f"{capped(HUGE)} > {capped(HUGE)}",
    }


def _ranked(tmp_path: Path, odd: bool) -> list[tuple[str | None, str | None]]:
    """The first passages "What is citecast?" finds in the sample knowledge base (with the odd
    files beside it when ``odd``)."""
    kb = tmp_path / ("with" if odd else "without") / "kb"
    shutil.copytree(EXAMPLES, kb)
    if odd:
        _odd_files(kb / "odd")
    settings = IndexSettings(path=str(kb.parent / "index.db"))
    ingest([kb], settings)
    index = KnowledgeIndex(settings.path)
    try:
        return [(s.filename, s.section) for s in index.search("What is citecast?")[:5]]
    finally:
        index.close()


def test_a_huge_title_does_not_skew_the_ranking_of_other_questions(tmp_path: Path) -> None:
    assert _ranked(tmp_path, odd=True) == _ranked(tmp_path, odd=False)
