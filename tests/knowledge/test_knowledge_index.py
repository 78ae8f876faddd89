"""The index: Sources from the sample knowledge base, updates, removal, audience, schema checks."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.config import AudienceRule, IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from tests.knowledge.conftest import EXAMPLES


@pytest.fixture(scope="module")
def example_index(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeIndex:
    path = tmp_path_factory.mktemp("examples") / "index.db"
    report = ingest([EXAMPLES], IndexSettings(path=str(path)))
    assert report.indexed == 6 and not report.skipped
    assert report.ignored >= 2  # make_pdf.py, products.csv, … are not documents
    return KnowledgeIndex(path)


def test_markdown_chunks_become_sources_with_stable_ids_and_sections(
    example_index: KnowledgeIndex,
) -> None:
    [best, *_] = example_index.search("What does the retry policy do?")
    assert best.id.startswith("examples/administration.md#")
    assert best.section == "Administration guide > Delivery and retries > Retry policy"
    assert best.title == "citecast administration guide"
    assert best.filename == "administration.md"
    assert best.path == str(EXAMPLES / "administration.md")
    assert best.media_type == "text/markdown"
    assert best.kind == "passage" and best.audience == ("public",) and best.url is None
    assert best.page is None and best.chunk is not None and best.chunk >= 1
    assert "Retry-After" in (best.text or "")
    assert example_index.source(best.id) == best


def test_pdf_and_html_sources(example_index: KnowledgeIndex) -> None:
    [pdf, *_] = example_index.search("nightly backup restore store")
    assert pdf.filename == "operations-handbook.pdf"
    assert pdf.title == "citecast operations handbook"
    assert pdf.page == 2 and pdf.section == "2. Backups"
    [html, *_] = example_index.search("signed link expires signing secret")
    assert html.filename == "security-model.html"
    assert html.section == "Security model > Signed file downloads"
    assert html.title == "citecast security model"


def test_roots_stats_and_has_file(example_index: KnowledgeIndex) -> None:
    assert example_index.roots() == [EXAMPLES]
    assert example_index.has_file(EXAMPLES / "getting-started.md")
    assert not example_index.has_file(EXAMPLES / "make_pdf.py")
    assert not example_index.has_file("/etc/passwd")
    stats = example_index.stats()
    assert stats.files == 6 and stats.pages == 4 and stats.chunks > 20 and stats.size_bytes > 0


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "title:secret", "NEAR(a b)", "*", "a AND OR NOT", "^x", "-", "()", ""],
)
def test_any_user_text_is_a_safe_query(example_index: KnowledgeIndex, query: str) -> None:
    results = example_index.search(query)
    assert all(source.id for source in results)


def test_search_finds_nothing_for_unrelated_words(example_index: KnowledgeIndex) -> None:
    assert example_index.search("zxqv plorb") == []


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_reingest_skips_unchanged_replaces_changed_and_drops_removed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write(docs / "a.md", "# A\n\nApples are red.\n")
    _write(docs / "b.md", "# B\n\nBananas are yellow.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    first = ingest([docs], settings)
    assert (first.indexed, first.unchanged, first.chunks) == (2, 0, 2)
    index = KnowledgeIndex(settings.path)
    generation = index.generation()

    again = ingest([docs], settings)
    assert (again.indexed, again.unchanged, again.removed) == (0, 2, 0)
    assert index.generation() == generation

    _write(docs / "a.md", "# A\n\nApricots are orange.\n\n## More\n\nAvocados are green.\n")
    (docs / "b.md").unlink()
    changed = ingest([docs], settings)
    assert (changed.indexed, changed.unchanged, changed.removed) == (1, 0, 1)
    assert index.generation() > generation
    assert index.search("apples") == [] and index.search("bananas") == []
    assert [s.id for s in index.search("apricots avocados", limit=5)] == [
        "docs/a.md#1",
        "docs/a.md#2",
    ] or sorted(s.id for s in index.search("apricots avocados")) == ["docs/a.md#1", "docs/a.md#2"]
    assert index.stats().files == 1 and index.stats().chunks == 2


def test_audience_precedence_front_matter_then_rules_then_flag(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "internal" / "plan.md", "# Plan\n\nThe walrus plan.\n")
    _write(docs / "internal" / "board.md", "---\naudience: board\n---\nThe walrus board.\n")
    _write(docs / "faq.md", "# FAQ\n\nThe walrus faq.\n")
    settings = IndexSettings(
        path=str(tmp_path / "i.db"),
        audience_rules=[AudienceRule(glob="internal/*", audience=["staff"])],
    )
    ingest([docs], settings, audience=["members"])
    index = KnowledgeIndex(settings.path)
    seen = {s.filename: s.audience for s in index.search("walrus", ["staff", "board", "members"])}
    assert seen == {"plan.md": ("staff",), "board.md": ("board",), "faq.md": ("members",)}
    assert index.search("walrus", ["public"]) == []
    assert [s.filename for s in index.search("walrus", ["staff"])] == ["plan.md"]


def test_audience_filter_still_fills_the_limit(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    for n in range(30):
        _write(docs / f"secret{n:02}.md", "---\naudience: staff\n---\nHeron heron heron facts.\n")
    _write(docs / "public.md", "Heron facts for everyone.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([docs], settings)
    [only] = KnowledgeIndex(settings.path).search("heron", ["public"], limit=3)
    assert only.filename == "public.md"


def test_unreadable_files_are_listed_and_never_stop_the_run(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "good.md", "Good words.\n")
    _write(docs / "empty.md", "")
    (docs / "latin.txt").write_bytes("caf\u00e9".encode("latin-1"))
    _write(docs / "locked.md", "Locked words.\n")
    os.chmod(docs / "locked.md", 0)
    try:
        report = ingest([docs], IndexSettings(path=str(tmp_path / "i.db")))
    finally:
        os.chmod(docs / "locked.md", 0o644)
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["kb/empty.md"] == "empty file"
    assert reasons["kb/latin.txt"] == "not UTF-8 text (line 1); save it as UTF-8"
    if os.geteuid() != 0:  # root reads anything
        assert reasons["kb/locked.md"].startswith("cannot read")
    assert report.indexed >= 1


def test_missing_path_is_an_error_before_anything_is_written(tmp_path: Path) -> None:
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    with pytest.raises(KnowledgeIndexError, match="nope: no such file or folder"):
        ingest([tmp_path / "nope"], settings)
    assert not (tmp_path / "i.db").exists()


def test_missing_index_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeIndexError, match="citecast ingest"):
        KnowledgeIndex(tmp_path / "absent.db")


def test_older_schema_is_refused_with_the_rebuild_hint(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "a.md", "Alpha.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([docs], settings)
    with sqlite3.connect(settings.path) as conn:
        conn.execute("PRAGMA user_version = 1")
    hint = r"rebuild it: `citecast ingest --rebuild /\S+/kb`"
    with pytest.raises(KnowledgeIndexError, match=hint):
        KnowledgeIndex(settings.path)
    with pytest.raises(KnowledgeIndexError, match="older citecast"):
        ingest([docs], settings)
    rebuilt = ingest([docs], settings, rebuild=True)
    assert rebuilt.indexed == 1
    assert KnowledgeIndex(settings.path).stats().files == 1


def test_a_file_that_is_not_an_index_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "i.db"
    bogus.write_text("this is not sqlite" * 100)
    with pytest.raises(KnowledgeIndexError, match="rebuild"):
        KnowledgeIndex(bogus)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_search_never_fails_on_any_text(example_index: KnowledgeIndex, query: str) -> None:
    results = example_index.search(query, limit=3)
    assert len(results) <= 3 and all(s.audience == ("public",) for s in results)


def test_an_open_index_sees_a_rebuild_and_reports_a_deleted_file(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    _write(docs / "a.md", "Aardvarks dig.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([docs], settings)
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("aardvarks")] == ["a.md"]
    (docs / "a.md").unlink()
    _write(docs / "b.md", "Badgers dig too.\n")
    ingest([docs], settings, rebuild=True)
    assert index.search("aardvarks") == []
    assert [s.filename for s in index.search("badgers")] == ["b.md"]
    Path(settings.path).unlink()
    with pytest.raises(KnowledgeIndexError, match="is gone"):
        index.search("badgers")


def test_url_templates_give_published_files_a_public_url(tmp_path: Path) -> None:
    docs = tmp_path / "site"
    _write(docs / "guide" / "setup page.md", "# Setup\n\nPlatypus setup.\n")
    _write(docs / "own.md", "---\nurl: https://own.example/x\n---\nPlatypus own.\n")
    _write(docs / "notes.txt", "Platypus notes.\n")
    settings = IndexSettings(
        path=str(tmp_path / "i.db"),
        url_templates={"*.md": "https://docs.example.com/{stem}.html"},
    )
    ingest([docs], settings)
    urls = {s.filename: s.url for s in KnowledgeIndex(settings.path).search("platypus")}
    assert urls == {
        "setup page.md": "https://docs.example.com/guide/setup%20page.html",
        "own.md": "https://own.example/x",
        "notes.txt": None,
    }
    changed = settings.model_copy(update={"url_templates": {"*.md": "https://new.example/{path}"}})
    assert ingest([docs], changed).indexed == 2  # a new URL rule re-indexes the files it matches
