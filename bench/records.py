"""Benchmark: what a large record table adds to every extractive answer.

Ingests the sample knowledge base (``examples/``) into a temp directory and writes a CSV of
100,000 parts (``--quick``: 20,000) whose every row holds "gasket seal for pump model N", as the
scale QA pass did. Then, with the table configured and without it (the baseline, same run):

- ``lookup_records`` CPU time per question (best of 3), for questions of common words only,
  common words beside a rarer one, a row id, and a word no row holds;
- one extractive answer at a time: wall-clock p50 and max over the questions (best of 3 each);
- 40 answers at once (one event loop, lookups in worker threads): p50 and max wall-clock.

Prints each figure with the table, without it, and their ratio. No target: the scale QA pass
measured 138 ms against 12 ms (11x) for one question and p50 2.5-3.9 s against 0.33 s for 40.
Run: ``.venv/bin/python bench/records.py [--quick] [--rows N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.assistant.assistant import Assistant  # noqa: E402
from bot.config import IndexSettings, RecordTable, Settings  # noqa: E402
from bot.knowledge import KnowledgeIndex, ingest  # noqa: E402
from bot.knowledge.records import RecordTables  # noqa: E402

PUBLIC = frozenset({"public"})
LOOKUPS = {
    "common words only": "Which gasket seal fits the pump?",
    "common words and a rarer one": "Which gasket fits part 976?",
    "common words and two rare ones": "pump model 7 part 12",
    "a row id": "P-012345",
    "no row holds a word": "How do I rotate the webhook secret?",
}
QUESTIONS = [
    "Which Python version does citecast need?",
    "How do I install citecast on Debian?",
    "Where is the index stored?",
    "How much does the Team plan cost?",
    "Which gasket seal fits the pump?",
    "What is part 976?",
    "Is there a seal for pump model 12?",
    "How do I connect Slack?",
]
CONCURRENT = 40


def write_parts(folder: Path, rows: int) -> Path:
    """A CSV of ``rows`` parts, every row sharing the words of its ``notes``."""
    lines = ["sku,name,notes"]
    lines += [f"P-{i:06d},part {i % 977},gasket seal for pump model {i % 31}" for i in range(rows)]
    path = folder / "parts.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def cpu_ms(run: Callable[[], object], repeats: int = 3) -> float:
    """Best-of-``repeats`` CPU milliseconds of ``run()`` (steady on a shared machine)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        run()
        best = min(best, (time.process_time() - start) * 1000)
    return best


def one_at_a_time(assistant: Assistant, loop: asyncio.AbstractEventLoop) -> tuple[float, float]:
    """Median and max over :data:`QUESTIONS` of the best-of-3 wall-clock ms of one answer."""
    times = []
    for question in QUESTIONS:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            loop.run_until_complete(assistant.answer(question, PUBLIC))
            best = min(best, (time.perf_counter() - start) * 1000)
        times.append(best)
    return statistics.median(times), max(times)


def concurrent(assistant: Assistant, loop: asyncio.AbstractEventLoop) -> tuple[float, float]:
    """p50 and max wall-clock ms of :data:`CONCURRENT` answers asked at once."""

    async def one(question: str) -> float:
        start = time.perf_counter()
        await assistant.answer(question, PUBLIC)
        return (time.perf_counter() - start) * 1000

    async def all_at_once() -> list[float]:
        asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(CONCURRENT)]
        return list(await asyncio.gather(*(one(q) for q in asked)))

    times = [t for _ in range(3) for t in loop.run_until_complete(all_at_once())]
    return statistics.median(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 rows")
    parser.add_argument("--rows", type=int, help="rows of the generated table")
    args = parser.parse_args()
    rows = args.rows or (20_000 if args.quick else 100_000)
    with tempfile.TemporaryDirectory(prefix="citecast-bench-records-") as tmp:
        work = Path(tmp)
        index_path = work / "index.db"
        ingest([ROOT / "examples"], IndexSettings(path=str(index_path)))
        index = KnowledgeIndex(index_path)
        table = RecordTable(
            name="parts",
            csv=str(write_parts(work, rows)),
            id_column="sku",
            columns=["name", "notes"],
        )
        tables = RecordTables([table])
        start = time.perf_counter()
        tables.check()
        print(f"records benchmark: {rows:,} rows, read in {time.perf_counter() - start:.1f} s")
        print("\nlookup_records CPU ms (best of 3); baseline: a lookup of a word no row holds")
        floor = cpu_ms(functools.partial(tables.lookup, "parts", "zorblax", PUBLIC))
        for what, query in LOOKUPS.items():
            spent = cpu_ms(functools.partial(tables.lookup, "parts", query, PUBLIC))
            print(f"  {what:<32} {spent:8.2f}   ratio {spent / max(floor, 0.01):8.1f}x")
        settings = Settings.model_validate(
            {"index": {"path": str(index_path)}, "assistant": {"cache_size": 0}}
        )
        loop = asyncio.new_event_loop()
        try:
            without = Assistant(settings, index)
            with_table = Assistant(settings, index, records=tables)
            one_without, one_with = one_at_a_time(without, loop), one_at_a_time(with_table, loop)
            many_without, many_with = concurrent(without, loop), concurrent(with_table, loop)
        finally:
            loop.close()
    print("\nextractive answers, wall-clock ms: with the table / without it (baseline)")
    for how, (got_both, base_both) in (
        ("one at a time", (one_with, one_without)),
        (f"{CONCURRENT} at once", (many_with, many_without)),
    ):
        for label, got, base in zip(("p50", "max"), got_both, base_both, strict=True):
            print(f"  {how + ', ' + label:<22} {got:8.1f} / {base:8.1f}   ratio {got / base:5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
