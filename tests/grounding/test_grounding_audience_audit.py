"""Grounding never carries text of a source the viewer may not cite into what is shown.

``verify`` reads every visible source of the turn as evidence, but the quote, claim and deep
link it writes on a citation come from that citation's own passage, and what it drops is the
marker, never a passage. A forbidden source is not even evidence: the registry keeps only its id.
"""

from __future__ import annotations

import json
import re
from typing import Literal

import pytest

from bot.grounding import GroundingPolicy, verify
from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import resolve

GUIDE = Source(
    id="guide",
    title="Install guide",
    url="https://docs.example.com/install",
    text="Install citecast with pip. It needs Python 3.11.",
)
NOTES = Source(
    id="notes",
    title="Internal notes",
    text="The walrus budget for installs is 91,000 a year.",
    citable=False,
)
BANDS = Source(
    id="bands",
    title="Salary bands",
    url="https://intranet.example.com/bands",
    text="Band C pays 91,000 a year, reviewed every spring.",
    audience=("staff",),
)
RAW = (
    "Install it with pip [1]. The walrus budget is 91,000 a year <CIT notes />. "
    "Band C pays 91,000 <CIT bands />, reviewed every spring [1]."
)


@pytest.mark.parametrize("mode", ["annotate", "drop"])
def test_nothing_of_an_uncitable_or_forbidden_source_reaches_the_answer_json(
    mode: Literal["annotate", "drop"],
) -> None:
    registry = SourceRegistry(frozenset({"public"}))
    registry.register_all([GUIDE, NOTES, BANDS])
    assert [s.id for s in registry.evidence()] == ["guide", "notes"]
    answer = verify(resolve(RAW, registry), registry, GroundingPolicy(mode=mode, threshold=0.9))
    reasons = {d.marker: d.reason for d in answer.dropped}
    assert reasons["<CIT notes />"] == "uncitable"
    # a forbidden id is redacted: its name says what exists that the viewer may not see
    assert reasons["<CIT … />"] == "forbidden"
    # A claim is the answer's own sentence, which the viewer reads anyway (annotate names the
    # weakest one: here the sentence that cited the forbidden source); it carries no passage.
    prose = " ".join(re.sub(r" ?\[\^\d+\]", "", answer.text).split())
    assert all(c.claim is None or c.claim in prose for c in answer.citations)
    cited = [{k: v for k, v in c.to_json().items() if k != "claim"} for c in answer.citations]
    shown = json.dumps({"citations": cited, "dropped": reasons})
    # the private passages' own words: neither quoted, linked nor named
    for secret in ("walrus budget for installs", "Band C pays", "Salary bands", "Internal notes"):
        assert secret not in shown
    assert "intranet.example.com" not in shown
    assert "bands" not in shown
    assert "bands" not in json.dumps(registry.to_json()["evidence"])
