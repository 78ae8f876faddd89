"""Fuzz comparison: where the marker scanner and the claims' code mask disagree with mistune.

The resolver's scanner (``bot.markers``) decides which text is code without a markdown parse, and
grounding's ``mask_code`` (``bot.claims``) reads code from the same line rules; mistune
(``bot.markdown``) renders the answer. This generates small documents from block and inline
fragments (list items, fences, indented lines, HTML blocks, code spans across lines), each
``[^n]`` numbered in order, and counts the documents where the citations mistune reads differ
from the footnote markers the scanner finds (batch, and streamed in 3-character deltas) or from
the ``[^n]`` that ``mask_code`` leaves visible. ``--vocabulary blocks`` keeps to the block
fragments the 2026-12-01 session measured with (1621 -> 362 of 20,000 at its seed).

Run: .venv/bin/python bench/marker_oracle.py [--seed 0] [--size 20000] [--examples 20]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.claims import CITATION_RE, mask_code
from bot.markdown import citations_in, parse
from bot.marker_parse import Grammar, Marker
from bot.markers import MarkerScanner, find_markers

BLOCKS = [
    "- a [^1]", "-", "- ```", "  ```", "```", "    ```", "  code [^1]", "    ind [^1]",
    "      six [^1]", "text [^1]", "", "", "# H [^1]", "  <div>", "<div>", "- <div>", "</div>",
    "  </div>", "<pre>", "- <pre>", "  </pre>", "1. s [^1]", "  - n [^1]", "---", "***",
    "<!-- c -->", "- <!-- c -->",
]  # fmt: skip
SPANS = [
    "a `x", "b [^1]` c", "``y", "z [^1]`` w", "# a `x", "- a `x", "  b [^1]` c", "2. b [^1]`",
    "> q `x", "> r [^1]`", "a ```x", "===", "  - b `x", "    d [^1]`", "<span>", "~~~",
]  # fmt: skip
VOCABULARIES = {"blocks": BLOCKS, "all": BLOCKS + SPANS}


def scanned(text: str) -> list[int]:
    return [m.numbers[0] for m in find_markers(text) if m.family == "footnote"]


def streamed(text: str) -> list[int]:
    scanner = MarkerScanner(Grammar())
    tokens = [t for at in range(0, len(text), 3) for t in scanner.feed(text[at : at + 3])]
    tokens += scanner.finish()
    return [t.numbers[0] for t in tokens if isinstance(t, Marker) and t.family == "footnote"]


def masked(text: str) -> list[int]:
    return [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(text))]


READERS: dict[str, Callable[[str], list[int]]] = {
    "scanner": scanned,
    "stream": streamed,
    "mask": masked,
}


def _numbered(text: str) -> str:
    """``text`` with its ``[^1]`` markers numbered 1, 2, … in order."""
    numbers = iter(range(1, 99))
    return re.sub(r"\[\^1\]", lambda _: f"[^{next(numbers)}]", text)


def documents(seed: int, size: int, vocabulary: list[str]) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(size):
        lines = rng.choices(vocabulary, k=rng.randint(2, 6))
        out.append(_numbered("\n".join(lines)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=20_000)
    parser.add_argument("--vocabulary", choices=sorted(VOCABULARIES), default="all")
    parser.add_argument("--examples", type=int, default=20, help="shortest disagreements shown")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    order_only: Counter[str] = Counter()
    examples: dict[str, dict[int, str]] = {name: {} for name in READERS}
    for text in documents(args.seed, args.size, VOCABULARIES[args.vocabulary]):
        oracle = citations_in(parse(text))
        for name, read in READERS.items():
            found = read(text)
            if found != oracle:
                counts[name] += 1
                # mistune lists a block quote's lazy list line's citations before the quote's
                order_only[name] += sorted(found) == sorted(oracle)
                examples[name].setdefault(len(text), text)
    print(f"seed {args.seed}, {args.size} documents, vocabulary {args.vocabulary}")
    for name in READERS:
        print(
            f"  {name}: {counts[name]} disagree with mistune"
            f" ({order_only[name]} only in the order of the same citations)"
        )
    for name, read in READERS.items():
        shortest = sorted(examples[name].items())[: args.examples]
        if shortest:
            print(f"\n{name} (shortest):")
        for _, text in shortest:
            print(f"  {text!r}  mistune {citations_in(parse(text))}  {name} {read(text)}")


if __name__ == "__main__":
    main()
