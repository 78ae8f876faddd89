"""``citecast eval`` narrows a recorded answer's PDF citations to the pages their quotes are on,
as the Assistant narrows a live answer, with the index's page maps; the metrics are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.evaluation.dataset import EvalCase
from bot.evaluation.runner import resolve_recorded, run_case
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.page_lookup import index_page_lookup
from bot.models import Source
from bot.resolver import ResolvePolicy
from bot.support import LexicalScorer
from tests.knowledge.conftest import PdfBuilder
from tests.knowledge.conftest import build_pdf as build_pdf  # the fixture, for this folder too
from tests.knowledge.handbook_pages import BOTH, PAGE_1, PAGE_2

URL = "https://docs.example.com/handbook.pdf"


@pytest.fixture
def indexed(tmp_path: Path, build_pdf: PdfBuilder) -> tuple[Path, Source]:
    """The index of a two-page handbook, and its one chunk (across the page break)."""
    (tmp_path / "handbook.pdf").write_bytes(build_pdf([("Leave", [PAGE_1]), ("Leave", [PAGE_2])]))
    settings = Settings.model_validate(
        {
            "index": {
                "path": str(tmp_path / "index.db"),
                "url_templates": {"*.pdf": "https://docs.example.com/{path}"},
            }
        }
    )
    ingest([tmp_path / "handbook.pdf"], settings.index)
    [chunk] = KnowledgeIndex(settings.index.path).search("annual leave")
    assert (chunk.page, chunk.page_end) == (1, 2)  # the premise: one chunk, two pages
    return Path(settings.index.path), chunk


def _case(answer: str, chunk: Source) -> EvalCase:
    return EvalCase("leave", None, answer, (chunk,), ("public",), None, ())


def test_a_recorded_answer_names_its_quotes_pages(indexed: tuple[Path, Source]) -> None:
    path, chunk = indexed
    pages = index_page_lookup(path)
    answer, _ = resolve_recorded(_case(BOTH, chunk), ResolvePolicy(), LexicalScorer, pages)
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end) == (1, 2)
    assert [o.deep_link for o in citation.occurrences] == [f"{URL}#page=1", f"{URL}#page=2"]
    only_second = _case("Unused annual leave expires at the end of March [1].", chunk)
    answer, _ = resolve_recorded(only_second, ResolvePolicy(), LexicalScorer, pages)
    [citation] = answer.citations
    assert (citation.source.page, citation.source.page_end, citation.deep_link) == (
        2,
        None,
        f"{URL}#page=2",
    )


async def test_narrowing_changes_no_metric(indexed: tuple[Path, Source]) -> None:
    path, chunk = indexed
    results = [
        await run_case(
            _case(BOTH, chunk),
            runs=1,
            threshold=0.35,
            scorer=LexicalScorer,
            policy=ResolvePolicy(),
            ask=None,
            pages=pages,
        )
        for pages in (None, index_page_lookup(path))
    ]
    plain, narrowed = results
    assert plain.answers[0].citations[0].occurrences[1].deep_link == f"{URL}#page=1"
    assert narrowed.answers[0].citations[0].occurrences[1].deep_link == f"{URL}#page=2"
    assert plain.runs == narrowed.runs


def test_without_an_index_the_passage_pages_stay(
    tmp_path: Path, indexed: tuple[Path, Source]
) -> None:
    _, chunk = indexed
    pages = index_page_lookup(tmp_path / "missing.db")
    only_second = _case("Unused annual leave expires at the end of March [1].", chunk)
    answer, _ = resolve_recorded(only_second, ResolvePolicy(), LexicalScorer, pages)
    assert (answer.citations[0].source.page, answer.citations[0].source.page_end) == (1, 2)


def test_the_eval_command_reports_the_page_a_recorded_answer_cites(
    tmp_path: Path,
    indexed: tuple[Path, Source],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, chunk = indexed
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "config.yaml").write_text(f"index:\n  path: {path}\n", encoding="utf-8")
    line = {
        "id": "leave",
        "answer": "Unused annual leave expires at the end of March [1].",
        "sources": [chunk.to_json()],
    }
    (tmp_path / "cases.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    report = tmp_path / "report.html"
    assert main(["eval", "cases.jsonl", "--out", str(report)]) == 0, capsys.readouterr().err
    shown = report.read_text(encoding="utf-8")
    # the sentence is on page 2 of the pp. 1–2 passage: the report names page 2, as chat does
    assert "p. 2" in shown and "p. 1<" not in shown and "pp. 1" not in shown
