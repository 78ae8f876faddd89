"""``citecast render`` refuses a key the Answer JSON does not have, naming it, as ``resolve
--sources`` refuses one a source does not have.

Found in a README-as-reference QA pass: ``{"text": "a", "citatons": []}`` rendered with status
0, and a citation's misspelt ``"qoute"`` was dropped, so the quote never showed, without a word.
"""

from __future__ import annotations

import json

import pytest

from bot.models import Answer
from tests.core.cli_runner import run_cli

CITATION = {"n": 1, "source": {"id": "a"}, "quote": "Heron facts."}


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"text": "a", "citatons": []}, "unknown field(s): citatons"),
        (
            {"text": "a[^1]", "citations": [{"n": 1, "source": {"id": "a"}, "qoute": "x"}]},
            "citations[0]: unknown field(s): qoute",
        ),
        (
            {"text": "a", "dropped": [{"marker": "[9]", "reason": "unknown", "ofset": 3}]},
            "dropped[0]: unknown field(s): ofset",
        ),
        ({"text": "a", "zeta": 1, "alpha": 2}, "unknown field(s): alpha, zeta"),
        (
            {"text": "a[^1]", "citations": [{"n": 1, "source": {"id": "a", "tilte": "A"}}]},
            "citations[0]: unknown field(s): tilte",
        ),
    ],
    ids=["answer", "citation", "dropped", "several", "source"],
)
def test_an_unknown_key_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: dict[str, object],
    reason: str,
) -> None:
    code, out, err = run_cli(
        monkeypatch, capsys, ["render", "--channel", "web"], json.dumps(answer)
    )
    assert (code, out, err) == (2, "", f"citecast render: {reason}\n")


def test_every_key_the_answer_json_has_is_accepted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full = {
        "text": "Heron facts.[^1]",
        "citations": [
            {
                **CITATION,
                "source_number": 1,
                "deep_link": "https://docs.example.com/a#x",
                "columns": [],
                "claim": "Heron facts.",
                "support": 0.9,
            }
        ],
        "dropped": [{"marker": "[9]", "reason": "unknown", "offset": 3}],
        "uncited_claims": ["Egret facts."],
    }
    # what `citecast resolve` and `ask --json` print passes as it is
    assert set(Answer.from_json(full).to_json()) == set(full)
    code, out, err = run_cli(monkeypatch, capsys, ["render", "--channel", "web"], json.dumps(full))
    assert (code, err) == (0, "")
    assert "Heron facts." in json.loads(out)["html"]
