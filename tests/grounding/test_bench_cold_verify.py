"""bench/grounding.py measures verify cold: its ``clear_caches`` forgets every cache the verify
path fills, or the "cold" timing is partly warm and its ratio looks better than it is.

The caches are found, not listed: every ``functools.lru_cache`` of citecast's own modules that
one verify fills must be empty again after the benchmark's ``clear_caches``.
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.grounding import GroundingPolicy, verify
from bot.registry import SourceRegistry
from bot.resolver import resolve

OWN = ("bot.", "renderers.")
BENCH = Path(__file__).resolve().parents[2] / "bench" / "grounding.py"


def load_bench() -> ModuleType:
    # by its path: bench/ is no package, and an import as bench.grounding would have mypy find
    # the file under two module names
    spec = importlib.util.spec_from_file_location("bench_grounding", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def own_caches() -> list[functools._lru_cache_wrapper[Any]]:
    return [
        found
        for found in gc.get_objects()
        if isinstance(found, functools._lru_cache_wrapper)
        and str(getattr(found, "__module__", "")).startswith(OWN)
    ]


def test_the_benchmark_forgets_every_cache_verify_fills() -> None:
    bench = load_bench()
    raw, sources = bench.make_case(random.Random(7), 4_000, 10)
    registry = SourceRegistry()
    registry.register_all(sources)
    answer = resolve(raw, registry)
    caches = own_caches()
    for cache in caches:
        cache.cache_clear()
    verify(answer, registry, GroundingPolicy())
    used = [cache for cache in caches if cache.cache_info().currsize]
    assert used, "verify fills no cache: this test no longer tests anything"
    bench.clear_caches()
    left = [f"{c.__module__}.{c.__qualname__}" for c in used if c.cache_info().currsize]
    assert left == []
