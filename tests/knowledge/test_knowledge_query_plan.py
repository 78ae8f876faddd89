"""Bounded-cost ranking: common words are dropped from the FTS5 query but still boost."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.query_plan import NO_CAP, plan_query


@pytest.fixture(scope="module")
def index_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("plan") / "docs"
    docs.mkdir()
    # kettle: 10 documents, teapot: 9, both: 6.
    for n in range(12):
        words = "kettle and teapot" if n < 6 else "kettle" if n < 9 else "teapot"
        (docs / f"common{n:02}.md").write_text(f"# Note {n}\n\nThe {words} {n}.\n")
    (docs / "rare-only.md").write_text("# Zebra\n\nA zebra without anything else.\n")
    (docs / "rare-and-common.md").write_text("# Zebra kettle\n\nA zebra next to a kettle.\n")
    path = docs.parent / "index.db"
    ingest([docs], IndexSettings(path=str(path)))
    return path


def test_small_corpora_rank_on_every_word(index_path: Path) -> None:
    conn = sqlite3.connect(index_path)
    plan = plan_query(conn, "zebra kettle", budget=1000)
    assert plan is not None
    assert set(plan.match.split(" OR ")) == {'"zebra"', '"kettle"'}
    assert plan.max_rowid == NO_CAP and plan.boosts == ()


def test_common_words_are_dropped_but_still_boost(index_path: Path) -> None:
    conn = sqlite3.connect(index_path)
    plan = plan_query(conn, "zebra kettle", budget=5)
    assert plan is not None and plan.match == '"zebra"'
    # the stem of "kettle": the boost also counts "kettles"
    assert [word.pattern for word, _ in plan.boosts] == ["\\bkettl"]
    index = KnowledgeIndex(index_path, rank_budget=5)
    assert [s.filename for s in index.search("zebra kettle", limit=2)] == [
        "rare-and-common.md",
        "rare-only.md",
    ]


def test_all_common_words_use_their_intersection_or_a_row_cap(index_path: Path) -> None:
    conn = sqlite3.connect(index_path)
    both = plan_query(conn, "kettle teapot", budget=7)
    assert both is not None and both.match == '"kettle" AND "teapot"'
    capped = plan_query(conn, "kettle teapot", budget=5)
    assert capped is not None and capped.max_rowid < NO_CAP
    results = KnowledgeIndex(index_path, rank_budget=5).search("kettle teapot", limit=3)
    assert len(results) == 3
    assert all("kettle" in (s.text or "") or "teapot" in (s.text or "") for s in results)


def test_words_absent_from_the_index_plan_nothing(index_path: Path) -> None:
    conn = sqlite3.connect(index_path)
    assert plan_query(conn, "unicorn", budget=5) is None
    assert plan_query(conn, "the and of", budget=5) is None
