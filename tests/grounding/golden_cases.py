"""Golden outputs of grounding: what ``verify`` and the lexical scorer gave before a speed-up.

Speed changes to the verify path (tokenising, per-passage facts, shared sentence splitting) must
not move any verdict or score. :func:`outputs` runs ``verify`` (annotate and drop) over the
benchmark's generated answers, over answers made of tricky sentences (negations both ways,
numbers in figures and words with units, repetition counts, frequencies, quoted phrases, code
spans, records, tables, CJK), scores every (passage, claim) pair of those with ``best_support``
and ``entails``, and runs ``citecast eval``'s scoring over ``examples/eval/citations.jsonl``.
``golden_verify.json`` holds what the code gave when it was written; regenerate it only for a
deliberate change of verdicts:

    .venv/bin/python -m tests.grounding.golden_cases --write
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from bot.evaluation.dataset import load_cases
from bot.evaluation.runner import run_case
from bot.grounding import GroundingPolicy, passage_of, verify
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from bot.support import LexicalScorer, best_support
from tests.grounding.test_bench_cold_verify import load_bench

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden_verify.json")

_PLAIN_WORDS = (
    "citecast index outbox retry backoff slack discord email forum audience registry marker "
    "citation passage source channel reply thread webhook signature token upload section page "
    "limit block context message answer question sqlite search chunk ingest verify support"
)
_PLAIN = _PLAIN_WORDS.split()
_VERB_WORDS = "supports stores retries answers sends keeps needs signs expires runs"
_VERBS = _VERB_WORDS.split()
_NEGATIONS = ("does not", "never", "cannot", "doesn't", "no", "without", "not only")
_AMOUNTS = (
    "30 seconds", "30 minutes", "2 hours", "two hours", "twenty-five seats", "10 MB", "10 GB",
    "5%", "1,000 files", "1000 files", "one hundred files", "3 days", "three weeks", "19",
    "$19", "19 dollars", "v1.4.2", "0.35",
)  # fmt: skip
_TAILS = (
    "every minute", "nightly", "daily", "once a day", "twice", "once", "3 times",
    "at least twice", 'with "exact phrase here"', "with `citecast ingest docs/`", "",
    "but not during an ingest", "or a search server", "",
)  # fmt: skip
_CJK = (
    "索引は毎晩更新されます。",
    "東京タワーは333メートルです。",
    "citecastは2時間ごとに再試行します！",
)


def _phrase(rng: random.Random) -> str:
    words = " ".join(rng.choice(_PLAIN) for _ in range(rng.randint(1, 4)))
    verb = rng.choice(_VERBS)
    if rng.random() < 0.3:
        verb = f"{rng.choice(_NEGATIONS)} {verb.rstrip('s')}"
    amount = f" {rng.choice(_AMOUNTS)}" if rng.random() < 0.45 else ""
    tail = f" {rng.choice(_TAILS)}" if rng.random() < 0.4 else ""
    extra = " ".join(rng.choice(_PLAIN) for _ in range(rng.randint(0, 4)))
    sentence = f"{words} {verb}{amount} {extra}{tail}".strip()
    if rng.random() < 0.15:
        sentence += f", {rng.choice(_NEGATIONS)} {rng.choice(_PLAIN)} {rng.choice(_PLAIN)}"
    return sentence[0].upper() + sentence[1:] + rng.choice(".....!?")


def _mutate(rng: random.Random, sentence: str) -> str:
    """A claim near a passage sentence: a word, number, unit or negation changed (or not)."""
    choice = rng.random()
    if choice < 0.4:
        return sentence
    if choice < 0.55:
        for neg in _NEGATIONS:
            if f" {neg} " in sentence:
                return sentence.replace(f" {neg} ", " ", 1)
        words = sentence.split()
        at = rng.randint(1, max(1, len(words) - 1))
        return " ".join([*words[:at], rng.choice(_NEGATIONS), *words[at:]])
    if choice < 0.75:
        for amount in _AMOUNTS:
            if amount in sentence:
                return sentence.replace(amount, rng.choice(_AMOUNTS), 1)
    words = sentence.split()
    words[rng.randrange(len(words))] = rng.choice(_PLAIN + _VERBS)
    return " ".join(words)


def _passage(rng: random.Random) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(2, 8)):
        kind = rng.random()
        if kind < 0.08:
            parts.append(f"\n- {_phrase(rng)}\n")
        elif kind < 0.13:
            parts.append(f"\n| {rng.choice(_PLAIN)} | {rng.choice(_AMOUNTS)} |\n")
        elif kind < 0.17:
            parts.append(rng.choice(_CJK))
        elif kind < 0.2:
            parts.append("\n\n")
        else:
            parts.append(_phrase(rng) + rng.choice((" ", " ", "\n")))
    return "".join(parts).strip()


def _record(rng: random.Random, i: int) -> Source:
    tier = rng.choice(["Team", "Starter", "Enterprise"])
    columns = {
        "tier": tier.lower(),
        "price_usd": str(rng.choice([19, 49, 99])),
        "seats": str(rng.choice([5, 19, 50])),
        "support": rng.choice(["email", "chat", ""]),
    }
    text = f"citecast {tier} (CC-{i}). " + ". ".join(f"{k}: {v}" for k, v in columns.items())
    return Source(
        id=f"rec-{i}",
        title=f"citecast {tier}",
        kind="record",
        label=f"citecast {tier} (CC-{i})",
        columns=columns,
        text=text if rng.random() < 0.7 else None,
    )


def tricky_case(seed: int) -> tuple[str, list[Source]]:
    """A raw answer citing generated passages (and records) with claims near their sentences."""
    rng = random.Random(seed)
    count = rng.randint(2, 12)
    sources: list[Source] = []
    for i in range(1, count + 1):
        if rng.random() < 0.15:
            sources.append(_record(rng, i))
        else:
            sources.append(
                Source(
                    id=f"doc-{i}",
                    title=f"Doc {i}",
                    url=f"https://d.example/{i}",
                    text=_passage(rng),
                )
            )
    pieces: list[str] = []
    for _ in range(rng.randint(3, 25)):
        n = rng.randint(1, count)
        source = sources[n - 1]
        if source.kind == "record":
            tier = (source.label or "").split()[1]
            price = (source.columns or {}).get("price_usd", "19")
            claim = rng.choice(
                [f"The {tier} plan costs ${price}", f"{tier} has {price} seats", f"{tier} costs 7"]
            )
        else:
            options = [s for s in (source.text or "").replace("\n", " ").split(". ") if s.strip()]
            claim = (
                _mutate(rng, rng.choice(options))
                if options and rng.random() < 0.7
                else _phrase(rng)
            )
        claim = claim.rstrip(".!? ")
        marker = f" [{n}]" if rng.random() < 0.8 else f" [{n}][{rng.randint(1, count)}]"
        pieces.append(f"{claim}{marker}." + ("\n\n" if rng.random() < 0.15 else ""))
        if rng.random() < 0.1:
            pieces.append(f"{_phrase(rng)}")
    return " ".join(pieces), sources


def _bench_cases() -> list[tuple[str, list[Source]]]:
    """The answers ``bench/grounding.py`` measures (the same seed and sizes)."""
    bench = load_bench()
    rng = random.Random(7)
    sizes = [(2_000, 5), (4_000, 10), (8_000, 20), (16_000, 40)]
    return [bench.make_case(rng, size, count) for size, count in sizes]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _answer_summary(answer: Answer) -> dict[str, Any]:
    data = answer.to_json()
    # The golden file predates per-marker quotes (``Citation.occurrences``, which
    # tests/grounding/test_marker_quotes.py checks): the digest is of every verdict it recorded.
    for citation in data["citations"]:
        citation.pop("occurrences", None)
    return {
        "digest": _digest(data),
        "citations": [[c.n, c.support, c.claim, c.quote] for c in answer.citations],
        "dropped": len(answer.dropped),
        "uncited": len(answer.uncited_claims),
    }


def _verify_outputs(name: str, raw: str, sources: list[Source]) -> dict[str, Any]:
    registry = SourceRegistry()
    registry.register_all(sources)
    answer = resolve(raw, registry)
    out: dict[str, Any] = {}
    for mode in ("annotate", "drop"):
        out[f"{name}/{mode}"] = _answer_summary(
            verify(answer, registry, GroundingPolicy(mode=mode))
        )
    # every (passage, claim) pair of the case, also through ``entails`` (whole passage)
    claims_text = [c.claim for c in verify(answer, registry).citations if c.claim]
    texts = [t for t in (passage_of(s) for s in sources) if t]
    scorer = LexicalScorer(texts)
    pairs = []
    for text in texts:
        for claim in claims_text[:12]:
            support = best_support(scorer, text, claim)
            pairs.append([support.score, support.quote, scorer.entails(text, claim)])
    out[f"{name}/pairs"] = _digest(pairs)
    return out


def _eval_outputs() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in load_cases(ROOT / "examples" / "eval" / "citations.jsonl"):
        result = asyncio.run(
            run_case(
                case, runs=1, threshold=0.35, scorer=LexicalScorer, policy=ResolvePolicy(), ask=None
            )
        )
        out[f"eval/{case.id}"] = {
            "labels": list(result.label_scores),
            "answers": [_answer_summary(a) for a in result.answers],
            "statements": [
                [s.text, sorted(s.scores.items()), s.supported]
                for run in result.runs
                for s in run.statements
            ],
        }
    return out


def outputs() -> dict[str, Any]:
    """Every output the golden file records (see the module docstring)."""
    out: dict[str, Any] = {}
    for i, (raw, sources) in enumerate(_bench_cases()):
        out.update(_verify_outputs(f"bench-{i}", raw, sources))
    for seed in range(60):
        raw, sources = tricky_case(seed)
        out.update(_verify_outputs(f"tricky-{seed}", raw, sources))
    out.update(_eval_outputs())
    return out


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(
            json.dumps(outputs(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        )
    else:
        print(json.dumps(outputs(), indent=1, ensure_ascii=False, sort_keys=True))
