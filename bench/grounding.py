"""Benchmark: claim-level verification time vs resolve + render of the same answers.

Target (issue 10): verify() over answers of 2-16 KB with 5-40 citations costs no more than
resolving and rendering them for all five channels (ratio <= 1.0). Both are measured here, in the
same run, on the same generated answers.

Run: .venv/bin/python bench/grounding.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.grounding import GroundingPolicy, verify
from bot.knowledge.stemmer import stem
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from bot.support import passage_sentences
from bot.text_terms import clear_caches as clear_term_caches
from renderers import CHANNELS, quote_text, render
from renderers import base as render_base
from renderers import discourse as discourse_render
from renderers.base import RenderContext

_VOCABULARY = (
    "citecast index outbox retry backoff slack discord email forum audience registry marker "
    "citation passage source channel reply thread webhook signature token upload section page "
    "limit block context message answer question sqlite search chunk ingest verify support"
)
WORDS = tuple(_VOCABULARY.split())


def _sentence(rng: random.Random, words: int) -> str:
    body = " ".join(rng.choice(WORDS) for _ in range(words))
    number = f" {rng.randint(1, 500)}" if rng.random() < 0.3 else ""
    return body.capitalize() + number + "."


def make_case(rng: random.Random, target_bytes: int, citations: int) -> tuple[str, list[Source]]:
    """A raw answer of about ``target_bytes`` citing ``citations`` generated sources."""
    sources = [
        Source(
            id=f"doc-{i}",
            title=f"Document {i}",
            url=f"https://docs.example.org/{i}.html",
            text=" ".join(_sentence(rng, rng.randint(8, 18)) for _ in range(6)),
        )
        for i in range(1, citations + 1)
    ]
    parts: list[str] = []
    size = 0
    while size < target_bytes:
        n = rng.randint(1, citations)
        quote_source = sources[n - 1].text or ""
        sentence = (
            rng.choice(quote_source.split(". ")) if rng.random() < 0.6 else _sentence(rng, 12)
        )
        piece = f"{sentence.rstrip('.')} [{n}]."
        if rng.random() < 0.15:
            piece += "\n\n"
        parts.append(piece)
        size += len(piece) + 1
    return " ".join(parts), sources


def clear_caches() -> None:
    """Forget everything the verify path caches: the terms of a text (and the stems under them,
    which the stemmer caches apart) and a passage's sentences. Every real answer brings new
    passages, so verify is measured cold; a cache left warm makes its ratio look better than
    it is."""
    clear_term_caches()
    stem.cache_clear()
    passage_sentences.cache_clear()


def clear_render_caches() -> None:
    """Forget what rendering caches per text: a quote's parsed form, a URL's safety, a
    Discourse footnote definition's size. A new answer brings new quotes and sources, so the
    baseline is measured cold as verify is; left warm across runs of one answer it cost a third
    of a cold render, and the ratio looked three times worse than it is."""
    quote_text._parsed.cache_clear()
    render_base.is_safe_url.cache_clear()
    discourse_render.definition_body.cache_clear()


def median_seconds(fn: Callable[[], object], repeat: int, cold: Callable[[], None]) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs, ``cold`` run (untimed) before each."""
    samples = []
    for _ in range(repeat):
        cold()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    rng = random.Random(7)
    repeat = 3 if args.quick else 7
    sizes = [(2_000, 5), (4_000, 10), (8_000, 20), (16_000, 40)]
    context = RenderContext()
    print(f"{'answer':>14} {'verify ms':>10} {'resolve+render ms':>18} {'ratio':>7}")
    ratios = []
    for size, count in sizes:
        raw, sources = make_case(rng, size, count)
        registry = SourceRegistry()
        registry.register_all(sources)
        answer = resolve(raw, registry)

        def resolve_and_render(raw: str = raw, registry: SourceRegistry = registry) -> None:
            resolved = resolve(raw, registry)
            for channel in CHANNELS:
                render(channel, resolved, context)

        def check(answer: Answer = answer, registry: SourceRegistry = registry) -> None:
            verify(answer, registry, GroundingPolicy())

        # every real answer brings new text and passages: both are measured cold
        base = median_seconds(resolve_and_render, repeat, clear_render_caches)
        cost = median_seconds(check, repeat, clear_caches)
        ratios.append(cost / base)
        label = f"{len(raw) // 1000} KB/{len(answer.citations)} cit"
        print(f"{label:>14} {cost * 1000:>10.2f} {base * 1000:>18.2f} {cost / base:>7.2f}")
    worst = max(ratios)
    verdict = "PASS" if worst <= 1.0 else "MISS"
    print(f"verify / (resolve + render), worst case: {worst:.2f} (target <= 1.0) {verdict}")
    print(f"median ratio: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
