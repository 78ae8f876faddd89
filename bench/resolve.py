"""Benchmark: the resolver against a markdown parse, streaming against batch, hostile input.

Targets (issue 2), all measured in this run on a generated corpus of answers of 0.5-16 KB with
0-40 markers of mixed families, code blocks and tables:

- resolve() vs one mistune AST parse of the same text: <= 0.5
- StreamResolver fed one character at a time vs one resolve() call: <= 3
- 1 MB of hostile input vs 1 MB of ordinary answer text (resolve()): <= 10

Run: .venv/bin/python bench/resolve.py [--quick]
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

import mistune

from bot.models import Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, StreamResolver, resolve

_PROSE = (
    "the installer needs python and a working network connection before it can fetch packages "
    "from the index so check the proxy settings first then run the command again with verbose "
    "output to see which step fails most problems come from an old pip or a missing compiler"
)
WORDS = _PROSE.split()
SECRET = b"bench-secret-0001"
MEGABYTE = 1_000_000


def make_registry() -> SourceRegistry:
    registry = SourceRegistry(secret=SECRET)
    for i in range(1, 31):
        if i % 10 == 0:
            registry.register(Source(f"rec-{i}", kind="record", label=f"Plan {i}"))
        else:
            registry.register(Source(f"doc-{i}", title=f"Doc {i}", url=f"https://d.test/{i}"))
    return registry


def marker(rng: random.Random, registry: SourceRegistry) -> str:
    n = rng.randint(1, 32)  # 31 and 32 are out of range
    family = rng.randrange(12)
    if family == 0:
        return f"[{n}]"
    if family == 1:
        return f"[{n}, {rng.randint(1, 30)}]"
    if family == 2:
        return f"[^{n}]"
    if family == 3:
        return f"<citation>{n}</citation>"
    if family == 4:
        return f"<citation>{n} | {' '.join(rng.choices(WORDS, k=5))}</citation>"
    if family == 5:
        return f"<CIT doc-{n} />"
    if family == 6:
        return f'[[source key="{registry.key_for(10)}" columns="price"]]'
    if family == 7:
        return f"[cite: {n}]"
    if family == 8:
        return f"【{n}:0†source】"
    if family == 9:
        return f"[{n}](https://d.test/{n})"
    if family == 10:
        return f"\ue200cite\ue202doc-{n}\ue201"
    return f"[{n}-{n + 2}]"


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(6, 16))).capitalize()


def block(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return "```python\nvalue = items[1]  # [2] stays code\nprint(value)\n```"
    if kind < 0.18:
        return "| Plan | Price |\n|---|---|\n| Basic | 5 |\n| Pro | 9 |"
    if kind < 0.3:
        return "\n".join(f"- {sentence(rng)} `pip -v`." for _ in range(rng.randint(2, 4)))
    return " ".join(f"{sentence(rng)}." for _ in range(rng.randint(2, 5)))


def make_answer(rng: random.Random, registry: SourceRegistry, size: int, markers: int) -> str:
    blocks: list[str] = []
    length = 0
    while length < size:
        blocks.append(block(rng))
        length += len(blocks[-1]) + 2
    text = "\n\n".join(blocks)[:size]
    # markers go right after sentence ends (". ") so they never cut a word or a code block
    ends = [i for i in range(len(text) - 1) if text[i] == "." and text[i + 1] in " \n"]
    for at in sorted(rng.sample(ends, min(markers, len(ends))), reverse=True):
        text = text[:at] + " " + marker(rng, registry) + text[at:]
    return text


def corpus(rng: random.Random, count: int) -> list[str]:
    registry = make_registry()
    sizes = [int(512 * (32 ** (i / max(1, count - 1)))) for i in range(count)]
    return [make_answer(rng, registry, size, rng.randint(0, 40)) for size in sizes]


def best_of(repeats: int, action: Callable[[], object]) -> float:
    """Median CPU time of ``repeats`` runs (seconds).

    CPU time of this process, not wall time: the machines this runs on are shared, and a
    neighbour's load must not show up as our slowness.
    """
    times: list[float] = []
    for _ in range(repeats):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times)


def stream_by_char(text: str, registry: SourceRegistry) -> None:
    resolver = StreamResolver(registry)
    for char in text:
        resolver.feed(char)
    resolver.finish()


def deltas_by_char(text: str, registry: SourceRegistry) -> int:
    resolver = StreamResolver(registry)
    count = sum(isinstance(e, TextDelta) for char in text for e in resolver.feed(char))
    return count + sum(isinstance(e, TextDelta) for e in resolver.finish()[0])


class _NoOpFeed:
    def feed(self, delta: str) -> list[TextDelta]:
        return []


def verdict(ratio: float, target: float) -> str:
    return "PASS" if ratio <= target else "MISS"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller corpus, fewer repeats")
    args = parser.parse_args()
    rng = random.Random(2)
    answers = corpus(rng, 12 if args.quick else 30)
    repeats = 3 if args.quick else 5
    registry = make_registry()
    parse = mistune.create_markdown(renderer=None)

    mistune_t, resolve_t, stream_t = [], [], []
    for text in answers:
        mistune_t.append(best_of(repeats, lambda t=text: parse(t)))  # type: ignore[misc]
        resolve_t.append(best_of(repeats, lambda t=text: resolve(t, registry)))  # type: ignore[misc]
        stream_t.append(best_of(max(1, repeats // 2), lambda t=text: stream_by_char(t, registry)))  # type: ignore[misc]
    total = sum(len(a) for a in answers)
    print(f"corpus: {len(answers)} answers, {total / 1000:.0f} KB, sizes 0.5-16 KB, 0-40 markers")
    print(f"median per answer: mistune parse {statistics.median(mistune_t) * 1e3:.2f} ms, "
          f"resolve {statistics.median(resolve_t) * 1e3:.2f} ms, "
          f"stream 1 char/feed {statistics.median(stream_t) * 1e3:.2f} ms")  # fmt: skip
    ratio_parse = sum(resolve_t) / sum(mistune_t)
    ratio_stream = sum(stream_t) / sum(resolve_t)
    # Floors of a one-character stream: one Python method call per character doing nothing,
    # and (the old design) one TextDelta event per character.
    noop = _NoOpFeed()
    call_t = [
        best_of(repeats, lambda t=text: [noop.feed(c) for c in t])  # type: ignore[misc]
        for text in answers
    ]
    delta_t = [
        best_of(repeats, lambda t=text: [TextDelta(c) for c in t])  # type: ignore[misc]
        for text in answers
    ]
    call_floor, delta_floor = sum(call_t) / sum(resolve_t), sum(delta_t) / sum(resolve_t)
    print(f"floor, one no-op feed() call per character: {call_floor:.2f}x resolve(); "
          f"one TextDelta per character: {delta_floor:.2f}x")  # fmt: skip
    deltas = sum(deltas_by_char(text, registry) for text in answers)
    print(f"TextDeltas sent fed 1 char/feed: {deltas} for {total} characters "
          f"(plain text gathered up to {COALESCE} characters)")  # fmt: skip
    small = [t / len(a) for t, a in zip(stream_t, answers, strict=True) if len(a) < 2048]
    large = [t / len(a) for t, a in zip(stream_t, answers, strict=True) if len(a) >= 8192]
    if small and large:
        per_small, per_large = statistics.median(small) * 1e6, statistics.median(large) * 1e6
        print(f"stream cost per character: {per_small:.2f} us (< 2 KB answers), "
              f"{per_large:.2f} us (>= 8 KB answers), ratio {per_large / per_small:.2f} "
              "(about 1 = linear)")  # fmt: skip

    ordinary = ("\n\n".join(answers) * (MEGABYTE // total + 1))[:MEGABYTE]
    hostile = {
        "[ x 1M": "[" * MEGABYTE,
        "unterminated <CIT": ("<CIT " * MEGABYTE)[:MEGABYTE],
        '[[source key=" x N': ('[[source key="' * MEGABYTE)[:MEGABYTE],
        "nested brackets": "[" * (MEGABYTE // 2) + "1" + "]" * (MEGABYTE // 2 - 1),
        "backticks x 1M": "`" * MEGABYTE,
    }
    hostile_repeats = 1 if args.quick else 3
    base = best_of(hostile_repeats, lambda: resolve(ordinary, registry))
    print(f"1 MB ordinary answer text: resolve {base:.3f} s")
    worst = 0.0
    for name, text in hostile.items():
        spent = best_of(hostile_repeats, lambda t=text: resolve(t, registry))  # type: ignore[misc]
        worst = max(worst, spent / base)
        print(f"1 MB hostile ({name}): {spent:.3f} s, ratio {spent / base:.2f}")
    # Beyond the list, for information: a math opener every 3 characters, and a valid
    # marker every 7 (143,000 citations per MB). Both cost Python work per special character,
    # never backtracking; they are not part of the target.
    extra = {
        "$x $x ... (a $ every 3 chars)": ("$x " * MEGABYTE)[:MEGABYTE],
        "[[[1]]] (a valid marker every 7 chars)": ("[[[1]]]" * MEGABYTE)[:MEGABYTE],
    }
    for name, text in extra.items():
        spent = best_of(hostile_repeats, lambda t=text: resolve(t, registry))  # type: ignore[misc]
        print(f"1 MB {name}, informational: {spent:.3f} s, ratio {spent / base:.2f}")
    print()
    rows = [
        ("resolve() / mistune AST parse", ratio_parse, 0.5),
        ("StreamResolver 1 char/feed / resolve()", ratio_stream, 3.0),
        ("worst 1 MB hostile (issue's list) / ordinary", worst, 10.0),
    ]
    for label, ratio, target in rows:
        print(f"{label:<42} {ratio:6.2f}  target <= {target:<4}  {verdict(ratio, target)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
