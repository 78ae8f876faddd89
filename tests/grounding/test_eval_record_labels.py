"""A label on a record that a question's answer did not retrieve is scored on the record.

A passage label not retrieved was scored on the passage's text from the index, but a record
label (``offices/BRS``) was scored 0 against no text: the scorer's agreement with the labels
then depended on what the backend happened to look up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Settings
from bot.knowledge import ingest

LINKS = "# Links\n\nDownload links expire after one hour by default.\n"
OFFICES = "code,city,hours\nBRS,Bristol,weekdays 8am to 6pm\nLDS,Leeds,weekdays 9am to 5pm\n"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of one document and a config.yaml with it and an offices table."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "links.md").write_text(LINKS, encoding="utf-8")
    (tmp_path / "offices.csv").write_text(OFFICES, encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([docs], settings.index)
    path = tmp_path / "config.yaml"
    path.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n"
        "  records:\n"
        "    - name: offices\n"
        f"      csv: {tmp_path / 'offices.csv'}\n"
        "      id_column: code\n"
        "      label_column: city\n"
        "      columns: [city, hours]\n"
        "      audience: [staff]\n",
        encoding="utf-8",
    )
    return path


def _labelled(tmp_path: Path, source: str, supported: bool) -> Path:
    case = {
        "id": "links",
        "question": "When do download links expire?",
        "labels": [
            {
                "claim": "The Bristol office is open weekdays 8am to 6pm.",
                "source": source,
                "supported": supported,
            }
        ],
    }
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    return path


def test_a_record_label_not_retrieved_is_scored_on_the_records_values(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the table is for staff only and the case asks as the public: the label still judges the
    # claim against the record the data set's author named
    cases = _labelled(tmp_path, "offices/BRS", True)
    assert main(["eval", str(cases), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["labels"] == {"count": 1, "precision": 1.0, "recall": 1.0, "accuracy": 1.0}


def test_a_record_label_on_another_record_is_not_supported(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # scored on Leeds's values, the Bristol hours are rightly not found
    cases = _labelled(tmp_path, "offices/LDS", False)
    assert main(["eval", str(cases), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["labels"]["accuracy"] == 1.0
