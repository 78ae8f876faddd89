"""``citecast render`` and ``preview`` refuse an answer resolved for a wider audience.

Found by a QA pass (auditqa): README's ``resolve | render`` pipeline with ``resolve --audience
staff`` and ``render --audience public`` printed the staff source's claim ("The merger closes in
May [2].") with its marker, beside a "[2] restricted source" entry: the public payload carried
the private claim and told that a hidden source was cited. No channel renders for a viewer
narrower than the answer was resolved for, so the commands refuse in one line (status 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli

SOURCES = [
    {"id": "a", "title": "Public guide", "url": "https://e.com/a", "text": "The sky is blue."},
    {
        "id": "b",
        "title": "Zanzibar plan",
        "url": "https://intranet.example/zz",
        "text": "The merger closes in May.",
        "audience": ["staff"],
    },
    {"id": "c", "title": "Other guide", "url": "https://e.com/c", "text": "Grass is green."},
]
RAW = "The sky is blue [1]. The merger closes in May [2]. Grass is green [3]."
REFUSAL = (
    "the answer cites [2], a source {who} may not see (it was resolved for a wider audience); "
    "resolve it again for this one: citecast resolve --audience {groups}"
)


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _resolved_for_staff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    sources = tmp_path / "s.json"
    sources.write_text(json.dumps(SOURCES), encoding="utf-8")
    argv = ["resolve", "--sources", str(sources), "--audience", "staff"]
    code, out, err = run_cli(monkeypatch, capsys, argv, RAW)
    assert (code, err) == (0, "")
    assert "merger" in json.loads(out)["text"]  # staff may see it: it is cited as [2]
    return out


@pytest.mark.parametrize("channel", ["web", "slack", "discord", "email", "discourse", "all"])
@pytest.mark.parametrize(
    ("flags", "groups"),
    [
        ([], "public"),
        (["--audience", "public"], "public"),
        (["--audience", "hr,sales"], "hr,sales"),
    ],
    ids=["default", "public", "other-groups"],
)
def test_render_refuses_an_answer_resolved_for_a_wider_audience(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    channel: str,
    flags: list[str],
    groups: str,
) -> None:
    answer = _resolved_for_staff(tmp_path, monkeypatch, capsys)
    argv = ["render", "--channel", channel, *flags]
    code, out, err = run_cli(monkeypatch, capsys, argv, answer)
    refusal = REFUSAL.format(who=f"--audience {groups}", groups=groups)
    assert (code, out, err) == (2, "", f"citecast render: {refusal}\n")


def test_render_names_every_hidden_citation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = json.loads(_resolved_for_staff(tmp_path, monkeypatch, capsys))
    answer["citations"][2]["source"]["audience"] = ["board"]
    code, out, err = run_cli(monkeypatch, capsys, ["render"], json.dumps(answer))
    assert (code, out) == (2, "")
    assert err.startswith("citecast render: the answer cites [2], [3], sources --audience public ")


@pytest.mark.parametrize("channel", ["web", "slack", "discord", "email", "discourse"])
def test_render_for_the_audience_it_was_resolved_for_shows_every_source(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    channel: str,
) -> None:
    answer = _resolved_for_staff(tmp_path, monkeypatch, capsys)
    argv = ["render", "--channel", channel, "--audience", "staff"]
    code, out, err = run_cli(monkeypatch, capsys, argv, answer)
    assert (code, err) == (0, "")
    assert "merger" in out and "Zanzibar plan" in out
    assert "restricted source" not in out


def test_preview_refuses_an_answer_resolved_for_a_wider_audience(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = _resolved_for_staff(tmp_path, monkeypatch, capsys)
    page = tmp_path / "p.html"
    argv = ["preview", "--answer", "-", "--out", str(page)]
    code, out, err = run_cli(monkeypatch, capsys, argv, answer)
    refusal = REFUSAL.format(who="--audience public", groups="public")
    assert (code, out, err) == (2, "", f"citecast preview: {refusal}\n")
    assert not page.exists()


def test_preview_for_the_audience_it_was_resolved_for_shows_every_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = _resolved_for_staff(tmp_path, monkeypatch, capsys)
    argv = ["preview", "--answer", "-", "--out", "-", "--audience", "staff"]
    code, out, err = run_cli(monkeypatch, capsys, argv, answer)
    assert (code, err) == (0, "")
    assert "merger" in out and "Zanzibar plan" in out
    assert "restricted source" not in out


def test_preview_of_a_public_answer_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = tmp_path / "s.json"
    sources.write_text(json.dumps(SOURCES), encoding="utf-8")
    code, answer, _ = run_cli(monkeypatch, capsys, ["resolve", "--sources", str(sources)], RAW)
    assert code == 0
    code, out, err = run_cli(
        monkeypatch, capsys, ["preview", "--answer", "-", "--out", "-"], answer
    )
    assert (code, err) == (0, "")
    assert "Public guide" in out and "restricted source" not in out
