"""Golden files: every answer in answers/ rendered for every channel, compared exactly.

Reviewable outputs live in golden/: ``NAME.web.html`` (+ ``.web.json`` citations),
``NAME.slack.json``, ``NAME.discord.json``, ``NAME.email.txt`` / ``.email.html`` /
``.email.json``, ``NAME.discourse.md`` / ``.discourse.json``. Regenerate after an intended change
with ``UPDATE_GOLDEN=1 .venv/bin/pytest tests/renderers/test_golden_renders.py`` and review the
diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bot.models import Answer, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from tests.renderers.payload_checks import CHECKS

HERE = Path(__file__).parent
ANSWERS = sorted((HERE / "answers").glob("*.json"))
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def signer(source: Source) -> str | None:
    """A deterministic stand-in for FileSigner: files get a /files/ link."""
    return f"https://bot.example.com/files/tok-{source.id}" if source.path else None


def context_for(name: str) -> RenderContext:
    """The golden context: a deployment with a public URL, a signer and a public viewer."""
    if name == "file_without_url":
        return RenderContext()
    if name == "unreferenced_citation":
        return RenderContext(public_base_url="https://bot.example.com", show="all")
    return RenderContext(public_base_url="https://bot.example.com", turn_id="t1", signer=signer)


def dump(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def outputs(channel: str, payload: dict[str, Any]) -> dict[str, str]:
    """The golden files of one payload: suffix -> content."""
    if channel == "web":
        return {"web.html": payload["html"] + "\n", "web.json": dump(payload["citations"])}
    if channel == "email":
        meta = {k: v for k, v in payload.items() if k not in ("text", "html")}
        return {
            "email.txt": payload["text"],
            "email.html": payload["html"],
            "email.json": dump(meta),
        }
    if channel == "discourse":
        meta = {k: v for k, v in payload.items() if k != "raw"}
        return {"discourse.md": payload["raw"] + "\n", "discourse.json": dump(meta)}
    return {f"{channel}.json": dump(payload)}


def test_corpus_is_large_enough() -> None:
    assert len(ANSWERS) >= 25


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("path", ANSWERS, ids=[p.stem for p in ANSWERS])
def test_golden(path: Path, channel: str) -> None:
    answer = Answer.from_json(json.loads(path.read_text(encoding="utf-8")))
    payload = render(channel, answer, context_for(path.stem))
    json.dumps(payload)  # plain JSON-able data
    CHECKS[channel](payload)
    for suffix, content in outputs(channel, payload).items():
        target = GOLDEN / f"{path.stem}.{suffix}"
        if UPDATE:
            target.write_text(content, encoding="utf-8")
            continue
        assert target.exists(), f"missing {target.name}: run with UPDATE_GOLDEN=1"
        assert content == target.read_text(encoding="utf-8"), f"{target.name} differs"
