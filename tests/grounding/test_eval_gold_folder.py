"""``citecast eval``'s gold ids start with the folder given to ``citecast ingest``.

Found on upgrade QA: run in a deployment whose files were ingested from ``kb/``, the shipped
``examples/eval/questions.jsonl`` (ids ``examples/…``) failed with "'examples/getting-started.md#2'
is not in the knowledge index (removed, or renumbered by a re-ingest?)": the cause named was not
the real one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUESTION = "When do download links expire?"


@pytest.fixture
def kb_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample knowledge base ingested from ``kb/``, with config.yaml's products table."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    kb = tmp_path / "kb"
    kb.mkdir()
    for name in ("getting-started.md", "administration.md", "security-model.html"):
        shutil.copy(EXAMPLES / name, kb / name)
    (tmp_path / "config.yaml").write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n  records:\n    - name: products\n"
        f"      csv: {EXAMPLES / 'products.csv'}\n      id_column: sku\n",
        encoding="utf-8",
    )
    assert main(["ingest", "kb"]) == 0
    return tmp_path


def _write(folder: Path, *cases: dict[str, object]) -> Path:
    path = folder / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    return path


def test_the_shipped_questions_over_a_kb_folder_name_the_folder(
    kb_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    data = EXAMPLES / "eval" / "questions.jsonl"
    assert main(["eval", str(data)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"citecast eval: {data}: none of the gold ids is in the index, e.g. examples/…: ids "
        "start with the folder given to `citecast ingest` (this index holds kb/…)\n"
    )


def test_one_id_of_another_folder_is_named_with_its_line(
    kb_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = KnowledgeIndex(kb_index / "index.db")
    try:
        known = index.search("python version")[0].id
    finally:
        index.close()
    assert known.startswith("kb/")
    cases = _write(
        kb_index,
        {"id": "ok", "question": QUESTION, "gold_citations": [known]},
        {"id": "moved", "question": QUESTION, "gold_citations": ["docs/getting-started.md#2"]},
    )
    capsys.readouterr()
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:2: gold id 'docs/getting-started.md#2' is not in the index: "
        "ids start with the folder given to `citecast ingest` (this index holds kb/…)\n"
    )


def test_an_id_of_the_index_folder_keeps_its_own_message(
    kb_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the folder is right: the file was removed or renumbered, as the message says
    cases = _write(kb_index, {"id": "x", "question": QUESTION, "gold_citations": ["kb/gone.md#1"]})
    capsys.readouterr()
    assert main(["eval", str(cases)]) == 2
    assert capsys.readouterr().err == (
        f"citecast eval: {cases}:1: gold_citations[0] 'kb/gone.md#1' is not in the knowledge "
        "index (removed, or renumbered by a re-ingest?)\n"
    )
