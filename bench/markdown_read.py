"""Benchmark: reading a large Markdown file, against the plain-text reader on the same text.

A scale QA pass found the Markdown reader quadratic in a file's line count (4 MB 1.3 s, 8 MB
4.0 s, 16 MB 15.8 s; a 3.5 MB table of 100,000 rows 27 s as ``.md`` against 0.8 s as ``.txt``).
Generated in memory, each read once per repeat (CPU time of this process, median):

- manuals of sections and paragraphs (4 and 8 MB; ``--quick``: 1 and 2 MB), and the ratio of
  the larger's time to the smaller's (linear: about 2; quadratic: about 4);
- a table of 100,000 rows (``--quick``: 25,000);
- two hostile pages: a paragraph of lines that each leave an HTML comment open, and lines
  that each open a reference label ``[`` that no ``]`` closes.

Each is printed with the time of ``read_text`` (the plain-text reader: one regex split, in C)
over the same text, measured in the same run, and the ratio of the two (what QA compared; a
reader walking lines in Python costs about ten times the split). The baseline of the target
is the smaller manual, read in the same run: each text's cost per line as a multiple of the
manual's. Target: every such multiple under 5 (a quadratic read grows with the file) and
the larger manual's time under 3 times the smaller's.
Run: ``.venv/bin/python bench/markdown_read.py [--quick] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WORDS = "pump gasket seal valve check weekly pressure the a of and is to replace".split()  # noqa: SIM905


def manual(megabytes: float, seed: int = 7) -> str:
    """Sections of two paragraphs of pseudo-sentences, ``megabytes`` in all."""
    rng = random.Random(seed)
    parts = ["# Manual\n"]
    size = 0
    section = 0
    while size < megabytes * 1_000_000:
        paragraphs = [
            " ".join(" ".join(rng.choices(WORDS, k=12)).capitalize() + "." for _ in range(5))
            for _ in range(2)
        ]
        part = f"\n## Chapter {section}\n\n" + "\n\n".join(paragraphs) + "\n"
        parts.append(part)
        size += len(part)
        section += 1
    return "".join(parts)


def table(rows: int) -> str:
    """A price list: one Markdown table of ``rows`` rows."""
    body = "".join(f"| P-{n:06} | part {n} | {n % 1000 / 2:.2f} |\n" for n in range(rows))
    return "# Price list\n\n| sku | name | price |\n|---|---|---|\n" + body


def cpu_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of ``run()`` (process time: it does not move with other jobs)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> int:
    from bot.knowledge import markdown_reader
    from bot.knowledge.markdown_reader import read_markdown, read_text

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 and 2 MB; 25,000 rows")
    parser.add_argument("--repeats", type=int, default=3, help="reads per text (median)")
    args = parser.parse_args()
    small, large = (1, 2) if args.quick else (4, 8)
    hostile = 2_500 if args.quick else 10_000
    texts = {
        f"manual {small} MB": manual(small),
        f"manual {large} MB": manual(large),
        f"table {25_000 if args.quick else 100_000:,} rows": table(
            25_000 if args.quick else 100_000
        ),
        f"{hostile:,} lines leaving <!-- open": "# Notes\n\n" + "step <!-- draft\n" * hostile,
        f"{hostile * 4:,} lines opening [": "# Notes\n\n" + "[x\n" * (hostile * 4),
    }
    print(f"markdown read benchmark (python {sys.version.split()[0]})")
    print(f"reader: {markdown_reader.__file__}")
    print(
        f"{'text':<34} {'MB':>6} {'lines':>9} {'read_markdown s':>16} {'read_text s':>12} "
        f"{'vs text':>8} {'per line vs manual':>19}"
    )
    seconds: dict[str, float] = {}
    per_line = 0.0  # the smaller manual's seconds per line: the first text read
    worst = 0.0
    for name, text in texts.items():
        lines = text.count("\n") + 1
        markdown = cpu_seconds(functools.partial(read_markdown, text, "page.md"), args.repeats)
        plain = cpu_seconds(functools.partial(read_text, text, "page.txt"), args.repeats)
        seconds[name] = markdown
        per_line = per_line or markdown / lines
        multiple = markdown / lines / per_line
        worst = max(worst, multiple)
        print(
            f"{name:<34} {len(text) / 1e6:>6.2f} {lines:>9,} {markdown:>16.3f} {plain:>12.3f} "
            f"{markdown / max(plain, 1e-6):>7.1f}x {multiple:>18.2f}x"
        )
    growth = seconds[f"manual {large} MB"] / max(seconds[f"manual {small} MB"], 1e-9)
    print(f"\n{large} MB / {small} MB read time: {growth:.2f} (linear: about 2, quadratic: 4)")
    verdict = "met" if worst < 5 and growth < 3 else "MISSED"
    print(f"target cost per line < 5x the manual's (worst {worst:.2f}x), growth < 3: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
