"""The ``citecast eval`` data format: one JSON object per line.

Each line is a case with an ``id`` and either a recorded ``answer`` (the raw text a model wrote,
markers and all) or a ``question`` to put to the configured assistant. Optional fields:

- ``sources``: the turn's sources as Source JSON, registered in order (needed with ``answer``);
- ``audience``: the viewer's groups (default ``["public"]``);
- ``gold_citations``: the source ids a good answer cites;
- ``labels``: hand-labelled support, ``{"claim": "...", "source": "<id>", "supported": true}``.

Example::

    {"id": "retries", "answer": "Failed sends are retried 5 times [1].",
     "sources": [{"id": "ops#3", "title": "Operations", "text": "We retry 5 times."}],
     "labels": [{"claim": "Failed sends are retried 5 times.", "source": "ops#3",
                 "supported": true}]}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.errors import ValidationError
from bot.models import Source


@dataclass(frozen=True)
class SupportLabel:
    """A human judgement: does source ``source`` support ``claim``?"""

    claim: str
    source: str
    supported: bool


@dataclass(frozen=True)
class EvalCase:
    """One line of an eval data set."""

    id: str
    question: str | None
    answer: str | None
    sources: tuple[Source, ...]
    audience: tuple[str, ...]
    gold_citations: tuple[str, ...] | None
    labels: tuple[SupportLabel, ...]


def load_cases(path: Path) -> list[EvalCase]:
    """Read and validate a JSONL file; errors name the line and the problem."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValidationError(f"{path}: cannot read: {exc}") from None
    cases = list(_parse_lines(path, lines))
    if not cases:
        raise ValidationError(f"{path}: no cases (expected one JSON object per line)")
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise ValidationError(f"{path}: duplicate case id {case.id!r}")
        seen.add(case.id)
    return cases


def _parse_lines(path: Path, lines: list[str]) -> Iterator[EvalCase]:
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{where}: not valid JSON: {exc.msg}") from None
        except RecursionError:  # the stdlib decoder recurses once per nesting level
            raise ValidationError(f"{where}: JSON nested too deeply") from None
        except ValueError:  # an integer longer than sys.get_int_max_str_digits() (4300)
            digits = sys.get_int_max_str_digits()
            raise ValidationError(
                f"{where}: a number in it has more than {digits} digits"
            ) from None
        try:
            yield parse_case(data, default_id=f"line-{number}")
        except ValidationError as exc:
            raise ValidationError(f"{where}: {exc}") from None


def parse_case(data: Any, default_id: str = "case") -> EvalCase:
    """Validate one case object."""
    if not isinstance(data, dict):
        raise ValidationError("a case must be a JSON object")
    question, answer = data.get("question"), data.get("answer")
    if not isinstance(question, str | None) or not isinstance(answer, str | None):
        raise ValidationError("question and answer must be strings")
    if question is None and answer is None:
        raise ValidationError("a case needs a question or a recorded answer")
    if question is not None and not question.strip():
        raise ValidationError("question is empty")  # as `citecast ask` refuses it
    raw_sources = data.get("sources") or []
    if not isinstance(raw_sources, list):
        raise ValidationError("sources must be a list")
    sources: list[Source] = []
    for index, item in enumerate(raw_sources):
        try:
            sources.append(Source.from_json(item))
        except ValidationError as exc:
            raise ValidationError(f"sources[{index}]: {exc}") from None
    labels = data.get("labels") or []
    if not isinstance(labels, list):
        raise ValidationError("labels must be a list of {claim, source, supported} objects")
    audience = data.get("audience") or ["public"]
    gold = data.get("gold_citations")
    if not _str_list(audience) or (gold is not None and not _str_list(gold)):
        raise ValidationError("audience and gold_citations must be lists of strings")
    return EvalCase(
        id=str(data.get("id") or default_id),
        question=question,
        answer=answer,
        sources=tuple(sources),
        audience=tuple(audience),
        gold_citations=None if gold is None else tuple(gold),
        labels=tuple(_label(item, i) for i, item in enumerate(labels)),
    )


def _label(item: Any, index: int) -> SupportLabel:
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("claim"), str)
        or not isinstance(item.get("source"), str)
        or not isinstance(item.get("supported"), bool)
    ):
        raise ValidationError(f"labels[{index}]: needs claim (string), source (id), supported")
    return SupportLabel(item["claim"], item["source"], item["supported"])


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
