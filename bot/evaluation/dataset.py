"""The ``citecast eval`` data format: one JSON object per line.

Each line is a case with an ``id`` and either a recorded ``answer`` (the raw text a model wrote,
markers and all) or a ``question`` to put to the configured assistant. Optional fields:

- ``sources``: the turn's sources as Source JSON, registered in order (needed with ``answer``);
- ``audience``: the viewer's groups (default ``["public"]``);
- ``gold_citations``: the source ids a good answer cites; an empty list says the knowledge
  base cannot answer the question, so a good answer cites nothing (measured as "abstained");
- ``labels``: hand-labelled support, ``{"claim": "...", "source": "<id>", "supported": true}``.

With a recorded answer, gold ids and label sources must be among the case's ``sources``, and two
sources may share an id only when they are the same source.

Any other key is refused, so a misspelt one cannot silently leave its part out. The file may start
with a UTF-8 byte order mark; blank lines and lines that start with ``//`` or ``#`` are skipped
(comments).

Example::

    {"id": "retries", "answer": "Failed sends are retried 5 times [1].",
     "sources": [{"id": "ops#3", "title": "Operations", "text": "We retry 5 times."}],
     "labels": [{"claim": "Failed sends are retried 5 times.", "source": "ops#3",
                 "supported": true}]}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.errors import ValidationError
from bot.models import Source

_FIELDS = frozenset({"id", "question", "answer", "sources", "audience", "gold_citations", "labels"})


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
    line: int = 0
    """The case's line in the data file (0 when it came from elsewhere)."""


MAX_DATASET_BYTES = 50_000_000
"""An evaluation file larger than this is refused: it is read whole into memory."""


def load_cases(path: Path) -> list[EvalCase]:
    """Read and validate a JSONL file; errors name the line and the problem."""
    try:
        with path.open("rb") as handle:
            # bounded: a path such as /dev/zero would otherwise fill the memory
            raw = handle.read(MAX_DATASET_BYTES + 1)
        if len(raw) > MAX_DATASET_BYTES:
            raise ValidationError(f"{path}: larger than {MAX_DATASET_BYTES // 1_000_000} MB")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ValidationError(f"{path}: cannot read: {reason[:1].lower()}{reason[1:]}") from None
    try:
        # utf-8-sig: editors on Windows start a UTF-8 file with a BOM, which is no JSON
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError(_not_utf8(path, raw, exc)) from None
    # Lines end at "\n" only (JSON Lines): str.splitlines() also splits at U+2028, U+0085 and
    # form feeds, which a JSON string may hold as they are, and cut that case in two.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    cases = list(_parse_lines(path, lines))
    if not cases:
        raise ValidationError(f"{path}: no cases (expected one JSON object per line)")
    seen: dict[str, int] = {}
    for case in cases:
        if case.id in seen:
            raise ValidationError(
                f"{path}:{case.line}: duplicate case id {case.id!r} (first on line {seen[case.id]})"
            )
        seen[case.id] = case.line
    return cases


def _not_utf8(path: Path, raw: bytes, exc: UnicodeDecodeError) -> str:
    """``cases.jsonl:3: not valid UTF-8 (byte 0xe9 at column 22); save it as UTF-8``."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        # at its very first byte, "invalid start byte" would tell the file's author nothing
        return f"{path}: saved as UTF-16; save it as UTF-8"
    line_start = raw.rfind(b"\n", 0, exc.start) + 1
    line = raw.count(b"\n", 0, exc.start) + 1
    column = len(raw[line_start : exc.start].decode("utf-8", "replace")) + 1
    found = f"byte 0x{raw[exc.start]:02x} at column {column}"
    return f"{path}:{line}: not valid UTF-8 ({found}); save it as UTF-8"


def _parse_lines(path: Path, lines: list[str]) -> Iterator[EvalCase]:
    for number, line in enumerate(lines, start=1):
        # comments: "#" as in a shell or YAML file, "//" as in JavaScript (no JSON line starts
        # with either)
        if not line.strip() or line.lstrip().startswith(("//", "#")):
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
            yield replace(parse_case(data, default_id=f"line-{number}"), line=number)
        except ValidationError as exc:
            raise ValidationError(f"{where}: {exc}") from None


def parse_case(data: Any, default_id: str = "case") -> EvalCase:
    """Validate one case object."""
    if not isinstance(data, dict):
        raise ValidationError("a case must be a JSON object")
    # A misspelt key ("gold_citation", "label") would silently measure without it, as Source
    # JSON and config.yaml refuse unknown keys.
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ValidationError(
            f"unknown field(s): {', '.join(unknown)} (known: {', '.join(sorted(_FIELDS))})"
        )
    case_id = data.get("id")
    # 1.5 is a number, but not an id: "a string or a number" told its author nothing
    if not isinstance(case_id, str | int | None) or isinstance(case_id, bool):
        raise ValidationError(f"id must be a string or a whole number, not {_json(case_id)}")
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
    first: dict[str, int] = {}
    for index, item in enumerate(raw_sources):
        try:
            source = Source.from_json(item)
        except ValidationError as exc:
            raise ValidationError(f"sources[{index}]: {exc}") from None
        earlier = first.setdefault(source.id, index)
        if earlier != index and sources[earlier] != source:
            # The registry keeps the first source of an id, as it does in a turn: the second
            # one's text would silently never be cited or scored.
            raise ValidationError(
                f"sources[{index}]: id {source.id!r} is also sources[{earlier}]'s, with other"
                " content; give each source its own id"
            )
        sources.append(source)
    labels = data.get("labels") or []
    if not isinstance(labels, list):
        raise ValidationError("labels must be a list of {claim, source, supported} objects")
    audience = data.get("audience") or ["public"]
    gold = data.get("gold_citations")
    if not _str_list(audience) or (gold is not None and not _str_list(gold)):
        raise ValidationError("audience and gold_citations must be lists of strings")
    parsed = tuple(_label(item, i) for i, item in enumerate(labels))
    if answer is not None:
        # A recorded answer's labels can only name its own sources; any other id (a typo)
        # would be scored 0 against no passage and count as the scorer's mistake.
        # Gold ids likewise: a typo could never be cited and would silently lower gold recall.
        known = {source.id for source in sources}
        named = [(f"gold_citations[{i}]", s) for i, s in enumerate(gold or ())]
        named += [(f"labels[{i}]", label.source) for i, label in enumerate(parsed)]
        for where, source_id in named:
            if source_id not in known:
                raise ValidationError(
                    f"{where}: source {source_id!r} is not among the case's sources"
                )
    return EvalCase(
        id=str(case_id if case_id not in (None, "") else default_id),
        question=question,
        answer=answer,
        sources=tuple(sources),
        audience=tuple(audience),
        gold_citations=None if gold is None else tuple(gold),
        labels=parsed,
    )


def check_known_sources(
    path: Path, cases: Sequence[EvalCase], known: Callable[[str], bool]
) -> None:
    """Refuse a question case whose gold citation or label names a source ``known`` denies.

    A question is answered from the knowledge index, so such an id is one the index no longer
    holds (the document was removed, or a re-ingest renumbered its chunks): it would count as
    a citation every answer missed, or a claim the scorer got wrong. Ids among the case's own
    ``sources`` are accepted as they are.
    """
    for case in cases:
        if case.answer is not None:
            continue
        own = {source.id for source in case.sources}
        named = [(f"gold_citations[{i}]", s) for i, s in enumerate(case.gold_citations or ())]
        named += [(f"labels[{i}]: source", label.source) for i, label in enumerate(case.labels)]
        for where, source_id in named:
            if source_id not in own and not known(source_id):
                raise ValidationError(
                    f"{path}:{case.line}: {where} {source_id!r} is not in the knowledge index"
                    " (removed, or renumbered by a re-ingest?)"
                )


def _label(item: Any, index: int) -> SupportLabel:
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("claim"), str)
        or not isinstance(item.get("source"), str)
        or "supported" not in item
    ):
        raise ValidationError(f"labels[{index}]: needs claim (string), source (id), supported")
    if not isinstance(item["supported"], bool):
        # "yes" or 1 is what people write; only JSON's true and false are a judgement
        raise ValidationError(
            f"labels[{index}]: supported must be true or false, not {_json(item['supported'])}"
        )
    return SupportLabel(item["claim"], item["source"], item["supported"])


def _json(value: Any) -> str:
    """``value`` as it was written in the JSON line (cut short): ``"yes"``, ``1.5``."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
