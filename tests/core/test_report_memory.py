"""``citecast report`` keeps counts, not questions: many long unanswered questions fit."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

from bot.store import Store
from bot.store_usage import ReportTurn
from bot.usage_report import build_report

NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}
PASTED = "Traceback line of a pasted log " * 128  # ~4,000 characters, web.max_question_chars


class SmallPages(Store):
    """The real store, read 100 turns a page: what stays in memory is what the report keeps."""

    def iter_report_turns_since(self, since: float, page: int = 100) -> Iterator[ReportTurn]:
        return super().iter_report_turns_since(since, page)


def test_distinct_unanswered_questions_are_not_all_held_in_memory(tmp_path: Path) -> None:
    store = SmallPages(tmp_path / "store.db", retention=None)
    for i in range(3000):
        store.add_turn(f"c{i}", "web", f"{i} {PASTED}", NOTHING)
    # asked again, spelt otherwise: one question asked twice, shown as first spelt (a tie)
    store.add_turn("again", "web", f"  7   {PASTED.upper()}", NOTHING)
    tracemalloc.start()
    try:
        report = build_report(store, 0.0, 30.0, limit=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        store.close()
    # 3,000 questions of ~4,000 characters are 12 MB of text, twice over when each is kept
    # with its case-folded key; a page of 100 is 0.4 MB
    assert peak < 4_000_000
    assert report.unanswered == (
        (" ".join(f"7 {PASTED}".split()), 2),
        (" ".join(f"0 {PASTED}".split()), 1),
    )
    assert report.total.without_sources == 3001
