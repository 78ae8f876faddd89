"""Golden files for the link and footnote capabilities: a few answers rendered with each
override a channel honours, compared exactly.

``golden/overrides/NAME.CHANNEL.OVERRIDE.*`` (the suffixes of ``test_golden_renders``):
``links: false`` (Slack, Discord, Discourse: no URL anywhere, a file still attached or named),
``masked_links: false`` (the title, then the bare URL) and Discourse's ``footnotes: false``
(``\\[n\\]`` markers and a numbered "Sources" list). Regenerate after an intended change with
``UPDATE_GOLDEN=1 .venv/bin/pytest tests/renderers/test_golden_overrides.py`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bot.models import Answer
from renderers import render
from renderers.base import capabilities_for
from tests.renderers.payload_checks import CHECKS
from tests.renderers.test_golden_renders import ANSWERS, GOLDEN, UPDATE, context_for, outputs

NAMES = ("mixed_forms", "hostile_titles", "record_with_action", "model_links", "weak_support")
OVERRIDES: dict[str, dict[str, Any]] = {
    "nolinks": {"links": False},
    "bare": {"masked_links": False},
    "nofootnotes": {"footnotes": False},
    "nofootnotes-bare": {"footnotes": False, "masked_links": False},
}
CASES = [
    ("slack", "nolinks"),
    ("slack", "bare"),
    ("discord", "nolinks"),
    ("discord", "bare"),
    ("discourse", "nolinks"),
    ("discourse", "bare"),
    ("discourse", "nofootnotes"),
    ("discourse", "nofootnotes-bare"),
]
OUT = GOLDEN / "overrides"


@pytest.mark.parametrize(("channel", "override"), CASES)
@pytest.mark.parametrize("name", NAMES)
def test_golden_with_override(name: str, channel: str, override: str) -> None:
    path = next(p for p in ANSWERS if p.stem == name)
    answer = Answer.from_json(json.loads(path.read_text(encoding="utf-8")))
    caps = capabilities_for(channel, OVERRIDES[override])
    context = dataclasses.replace(context_for(name), capabilities=caps)
    payload = render(channel, answer, context)
    CHECKS[channel](payload)
    for suffix, content in outputs(channel, payload).items():
        target = OUT / f"{name}.{channel}.{override}.{suffix.removeprefix(channel + '.')}"
        if UPDATE:
            target.write_text(content, encoding="utf-8")
            continue
        assert target.exists(), f"missing {target.name}: run with UPDATE_GOLDEN=1"
        assert content == target.read_text(encoding="utf-8"), f"{target.name} differs"


def test_every_golden_override_file_is_used() -> None:
    wanted = {
        f"{name}.{channel}.{override}.{suffix}"
        for name in NAMES
        for channel, override in CASES
        for suffix in (("md", "json") if channel == "discourse" else ("json",))
    }
    assert {p.name for p in Path(OUT).iterdir()} == wanted
