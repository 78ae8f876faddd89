"""``citecast render --turn-key``: a key no link could be built with is refused in one line."""

from __future__ import annotations

import json

import pytest

from tests.core.cli_runner import run_cli

ANSWER = json.dumps(
    {
        "text": "Fact [^1].",
        "citations": [{"n": 1, "source": {"id": "a", "title": "A", "url": "https://e.com/a"}}],
    }
)
BASE = ["render", "--channel", "email", "--public-base-url", "https://b.example"]


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        # without a base URL the key did nothing, silently
        (
            ["render", "--turn-key", "7-ab12"],
            "--turn-key needs --public-base-url: the link is built on it",
        ),
        # the whole share_url pasted: https://b.example/turns/https://b.example/turns/7-ab12
        (
            [*BASE, "--turn-key", "https://b.example/turns/7-ab12"],
            "--turn-key takes the end of the share_url (the part after /turns/), "
            "not 'https://b.example/turns/7-ab12'",
        ),
        (
            [*BASE, "--turn-key", "7 ab12"],
            "--turn-key must look like 7-AbC123 (turn id, dash, key), not '7 ab12'",
        ),
    ],
)
def test_unusable_turn_key_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    reason: str,
) -> None:
    assert run_cli(monkeypatch, capsys, argv, ANSWER) == (2, "", f"citecast render: {reason}\n")


def test_a_signed_key_is_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(monkeypatch, capsys, [*BASE, "--turn-key", "7-Ab_c-D9"], ANSWER)
    assert (code, err) == (0, "")
    assert "https://e.com/a" in json.loads(out)["html"]
