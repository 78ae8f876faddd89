"""Speed changes to grounding keep every verdict: ``verify`` (annotate and drop), the lexical
scorer's ``best_support`` and ``entails`` on every pair, and ``citecast eval``'s scores over
``examples/eval/citations.jsonl`` give exactly what the code gave before them (the golden file
was written from the code before the 2026-12-01 speed-ups, see ``golden_cases``)."""

from __future__ import annotations

import json

from tests.grounding.golden_cases import GOLDEN, outputs
from tests.grounding.test_bench_cold_verify import load_bench


def test_verify_outputs_match_the_golden_file() -> None:
    expected = json.loads(GOLDEN.read_text())
    load_bench().clear_caches()  # cold, as a new answer is: no term or sentence read before
    got = json.loads(json.dumps(outputs()))
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == value, key
