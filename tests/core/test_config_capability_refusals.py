"""A ``capabilities:`` override no renderer would honour is refused at load, in one line.

``markup`` picks the renderer and ``streaming`` is the connector's, so neither can change;
``web.max_chars`` has no message to limit; ``footnotes`` changes only on Discourse, ``links`` and
``masked_links`` not on the HTML channels; and a ``max_chars``/``max_blocks`` below the least
the renderer writes to (or above the platform's own limit) was silently raised (lowered)
before. ``citecast render`` with such a config stops with status 2 and one line naming the key.
"""
# ruff: noqa: E501  (one row per case reads best as one line)

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings
from renderers.sample import sample_answer

ANSWER = json.dumps(sample_answer().to_json())

REFUSED = [
    ("slack", "markup", "plain", "describes the Slack renderer; it cannot be changed"),
    ("web", "markup", "plain", "describes the web renderer; it cannot be changed"),
    ("discourse", "markup", "html", "describes the Discourse renderer; it cannot be changed"),
    ("slack", "streaming", "none", "set by slack.streaming; it cannot be changed here"),
    ("discord", "streaming", "none", "the Discord connector streams by editing its message; it cannot be changed"),
    ("web", "streaming", "none", "the web connector streams over SSE; it cannot be changed"),
    ("email", "streaming", "native", "an email is sent whole; it cannot be changed"),
    ("web", "max_chars", 300, "the web page shows an answer whole, with no message limit; it cannot be changed"),
    ("web", "footnotes", False, "the web renderer always shows numbered notes; it cannot be changed"),
    ("discord", "footnotes", True, "Discord has no footnotes; it cannot be changed"),
    ("slack", "footnotes", True, "Slack has no footnotes; it cannot be changed"),
    ("email", "footnotes", True, "an email always lists numbered references; it cannot be changed"),
    ("web", "links", False, "a web page always shows links; it cannot be changed"),
    ("email", "links", False, "an HTML email always shows links; it cannot be changed"),
    ("web", "masked_links", False, "an HTML link always shows its title; it cannot be changed"),
    ("discord", "max_chars", 50, "must be at least 200 (the least the Discord renderer writes to)"),
    ("discord", "max_chars", 0, "must be at least 200 (the least the Discord renderer writes to)"),
    ("discord", "max_chars", 2001, "must be at most 2000 (Discord's limit)"),
    ("slack", "max_chars", 50, "must be at least 100 (the least the Slack renderer writes to)"),
    ("slack", "max_chars", 3001, "must be at most 3000 (Slack's limit)"),
    ("slack", "max_blocks", 2, "must be at least 5 (the least the Slack renderer writes to)"),
    ("slack", "max_blocks", 51, "must be at most 50 (Slack's limit)"),
]  # fmt: skip


def render_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, yaml: str) -> tuple[int, Path]:
    path = tmp_path / "config.yaml"
    path.write_text(yaml, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(ANSWER))
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    return main(["render", "--config", str(path), "--channel", "all"]), path


@pytest.mark.parametrize(("channel", "key", "value", "reason"), REFUSED)
def test_render_refuses_an_override_no_renderer_honours(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    channel: str,
    key: str,
    value: object,
    reason: str,
) -> None:
    yaml = f"capabilities:\n  {channel}:\n    {key}: {json.dumps(value)}\n"
    status, path = render_with(tmp_path, monkeypatch, yaml)
    out = capsys.readouterr()
    assert status == 2
    assert out.err == f"citecast render: {path}: capabilities.{channel}.{key}: {reason}\n"
    assert out.out == ""


@pytest.mark.parametrize(
    "yaml",
    [
        # each channel's own value may be restated, and the bounds themselves load
        "capabilities:\n  slack: {markup: mrkdwn, streaming: native, max_chars: 100, max_blocks: 5}\n",
        "capabilities:\n  discord: {markup: markdown, max_chars: 200, footnotes: false}\n",
        "capabilities:\n  slack: {max_chars: 3000, max_blocks: 50, links: false}\n",
        "capabilities:\n  web: {max_chars: 1000000, footnotes: true, masked_links: true}\n",
        "capabilities:\n  discourse: {footnotes: false, masked_links: false, links: false}\n",
        "capabilities:\n  discord: {max_chars: 2000, masked_links: false}\n",
    ],
)
def test_overrides_a_renderer_honours_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], yaml: str
) -> None:
    status, path = render_with(tmp_path, monkeypatch, yaml)
    assert status == 0, capsys.readouterr().err
    assert load_settings(path).capabilities
