"""A viewer sees public sources plus their own groups', in the index and the record tables."""

from __future__ import annotations

from pathlib import Path

from bot.config import IndexSettings, RecordTable
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.audience import viewer_audience
from bot.knowledge.records import RecordTables
from tests.knowledge.conftest import EXAMPLES


def test_groups_add_to_public_and_never_replace_it() -> None:
    assert viewer_audience() == {"public"}
    assert viewer_audience(["staff"]) == {"public", "staff"}
    assert viewer_audience("staff") == {"public", "staff"}
    assert viewer_audience(["staff", " ", "public"]) == {"public", "staff"}


def test_search_for_a_group_includes_public_chunks(tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "open.md").write_text("Otter facts for everyone.\n", encoding="utf-8")
    (docs / "staff.md").write_text(
        "---\naudience: staff\n---\nOtter facts for staff only.\n", encoding="utf-8"
    )
    (docs / "board.md").write_text(
        "---\naudience: board\n---\nOtter facts for the board.\n", encoding="utf-8"
    )
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([docs], settings)
    index = KnowledgeIndex(settings.path)
    assert {s.filename for s in index.search("otter", ["staff"])} == {"open.md", "staff.md"}
    assert {s.filename for s in index.search("otter", [])} == {"open.md"}


def test_record_lookup_for_a_group_includes_public_tables() -> None:
    table = RecordTable(
        name="products",
        csv=str(EXAMPLES / "products.csv"),
        id_column="sku",
        label_template="{name} ({sku})",
        columns=["tier", "price_usd"],
    )
    tables = RecordTables([table])
    [first, *_] = tables.lookup("products", "team", frozenset({"staff"}))
    assert first.id == "products/CC-TEAM"
