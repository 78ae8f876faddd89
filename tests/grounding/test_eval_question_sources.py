"""Question cases of ``citecast eval``: gold citations and labels name sources of the index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest

LINKS = "# Links\n\nDownload links expire after one hour by default.\n"
BACKUPS = "# Backups\n\nThe store is backed up every night with the SQLite backup command.\n"


@pytest.fixture
def index_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An index of two documents and a config.yaml naming it; returns each document's id."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "links.md").write_text(LINKS, encoding="utf-8")
    (docs / "backups.md").write_text(BACKUPS, encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([docs], settings.index)
    (tmp_path / "config.yaml").write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8"
    )
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        return {
            "links": index.search("download links expire")[0].id,
            "backups": index.search("store backed up night")[0].id,
        }
    finally:
        index.close()


def _write(tmp_path: Path, *cases: dict[str, object]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    return path


QUESTION = "When do download links expire?"


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("gold_citations", ["docs/removed.md#1"], "gold_citations[0]"),
        (
            "labels",
            [{"claim": "Links expire.", "source": "docs/removed.md#1", "supported": True}],
            "labels[0]: source",
        ),
    ],
)
def test_a_source_the_index_no_longer_holds_is_refused_with_its_line(
    tmp_path: Path,
    index_ids: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    field: str,
    value: object,
    where: str,
) -> None:
    # a gold citation that no answer could ever cite was counted as one every answer missed
    # (gold recall 50% for a perfect answer), and a label on it as the scorer's mistake
    cases = _write(
        tmp_path,
        {"id": "ok", "question": QUESTION, "gold_citations": [index_ids["links"]]},
        {"id": "stale", "question": QUESTION, field: value},
    )
    assert main(["eval", str(cases)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"citecast eval: {cases}:2: {where} 'docs/removed.md#1' is not in the knowledge index"
        " (removed, or renumbered by a re-ingest?)\n"
    )


def test_a_label_on_a_source_the_answer_did_not_retrieve_is_scored_on_its_text(
    tmp_path: Path, index_ids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The label judges a claim against an indexed passage that this question does not find:
    # it was scored 0 against no text and counted as the scorer missing a supported claim.
    claim = "The store is backed up every night with the SQLite backup command."
    cases = _write(
        tmp_path,
        {
            "id": "links",
            "question": QUESTION,
            "gold_citations": [index_ids["links"]],
            "labels": [{"claim": claim, "source": index_ids["backups"], "supported": True}],
        },
    )
    assert main(["eval", str(cases), "--out", str(tmp_path / "report.html")]) == 0
    out = capsys.readouterr().out
    assert "gold citations: precision 100.0%, recall 100.0%" in out
    assert "support scorer vs labels: precision 100.0%, recall 100.0%, accuracy 100.0%" in out
