"""`citecast render` and `citecast preview`."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render, render_all
from renderers.base import RenderContext, capabilities_for
from renderers.document import form_key
from renderers.preview import preview_page
from renderers.sample import sample_answer

ANSWER = json.dumps(sample_answer().to_json())
ROOT = Path(__file__).resolve().parents[2]


def run_cli(monkeypatch: pytest.MonkeyPatch, args: list[str], stdin: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    monkeypatch.chdir(Path(__file__).parent)
    return main(args)


def test_render_one_channel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(monkeypatch, ["render", "--channel", "discord"], ANSWER) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"messages", "files"}
    assert payload["messages"][0]["allowed_mentions"] == {"parse": []}


def test_render_all_channels_with_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "render",
        "--channel",
        "all",
        "--show",
        "none",
        "--public-base-url",
        "https://b.example",
    ]
    assert run_cli(monkeypatch, args, ANSWER) == 0
    payloads = json.loads(capsys.readouterr().out)
    assert list(payloads) == list(CHANNELS)
    assert payloads["web"]["citations"] == []


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("", "no input"),
        ("{not json", "not valid JSON"),
        ('{"text": 3}', "answer text must be a string"),
        (
            '{"text": "x", "citations": [{"n": 0, "source": {"id": "a"}}]}',
            "citations[0]: n must be",
        ),
        ('{"text": "a [^2]", "citations": []}', "the text cites [^2] but citations has no such n"),
        (
            '{"text": "x", "citations": [{"n": 1, "source": {"id": "a"}, "support": NaN}]}',
            "citations[0]: citation support must be a number from 0 to 1",
        ),
        (
            '{"text": "x", "citations": [{"n": 1, "source": {"id": "a"}, "support": 1.5}]}',
            "support must be a number from 0 to 1",
        ),
    ],
)
def test_render_bad_input_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, reason: str
) -> None:
    assert run_cli(monkeypatch, ["render", "--channel", "slack"], stdin) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1 and "Traceback" not in err


def test_render_links_the_turn_page_given_its_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # an email too long for 100 KB is shortened and points at the whole answer's page
    long_text = "The gateway caches every policy it has seen.[^1] " * 3000
    citation = sample_answer().citations[0]
    answer = json.dumps(Answer(text=long_text, citations=(citation,)).to_json())
    args = ["render", "--channel", "email", "--public-base-url", "https://b.example"]
    assert run_cli(monkeypatch, [*args, "--turn-key", "7-ab12"], answer) == 0
    assert 'href="https://b.example/turns/7-ab12"' in json.loads(capsys.readouterr().out)["html"]


def test_preview_writes_one_page_with_five_panels(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer_file = tmp_path / "a.json"
    answer_file.write_text(ANSWER, encoding="utf-8")
    out = tmp_path / "p.html"
    assert (
        run_cli(monkeypatch, ["preview", "--answer", str(answer_file), "--out", str(out)], "") == 0
    )
    page = out.read_text(encoding="utf-8")
    for channel in CHANNELS:
        assert f'data-channel="{channel}"' in page
    assert "<script" not in page.lower()
    assert run_cli(monkeypatch, ["preview", "--answer", str(tmp_path / "missing.json")], "") == 2
    assert run_cli(monkeypatch, ["preview", "--answer", "-"], '{"text": "a [^1]"}') == 2
    assert "the text cites [^1] but citations has no such n" in capsys.readouterr().err


def test_preview_discourse_panel_shows_adjacent_references_apart() -> None:
    sources = [Source(f"s{i}", title=f"Doc {i}", url=f"https://d.test/{i}") for i in (1, 2)]
    answer = Answer(
        text="Restart the gateway.[^1][^2]",
        citations=tuple(Citation(n, s, n) for n, s in enumerate(sources, 1)),
    )
    page = preview_page(answer)
    start = page.index('data-channel="discourse"')
    discourse = page[start : page.index("data-channel=", start + 1)]
    # drawn as Discourse does ("[1][2]"), never run together as "12"
    assert re.search(r">\[1\]</a></sup><sup [^>]*><a [^>]*>\[2\]</a></sup>", discourse)


def test_render_all_gives_each_channel_what_rendering_it_alone_gives() -> None:
    with_file = sample_answer()  # one source is a file without a public URL
    links_only = Answer(
        text="Setup[^1], fixes[^2] and plans.[^3]", citations=with_file.citations[:3]
    )
    context = RenderContext(public_base_url="https://b.example", turn_id="7")
    for answer in (links_only, with_file):
        payloads = render_all(answer, context)
        assert payloads == {channel: render(channel, answer, context) for channel in CHANNELS}


def test_forms_are_shared_across_channels_only_when_no_file_could_be_attached() -> None:
    web, slack, discourse = (capabilities_for(c) for c in ("web", "slack", "discourse"))
    citations = sample_answer().citations
    links, with_file = citations[:3], citations
    assert all(c.source.path is None for c in links)
    assert form_key(web, links) == form_key(slack, links) != form_key(discourse, links)
    assert form_key(web, with_file) != form_key(slack, with_file)


def test_render_warnings_carry_the_command_prefix(tmp_path: Path) -> None:
    """Run as a user runs it: with no logging configured, a warning printed bare
    ("dropping unsafe URL from source 'a'") while every other line says "citecast render:"."""
    import subprocess
    import sys

    source = {"id": "a", "title": "t", "url": "javascript:alert(1)"}
    stdin = json.dumps({"text": "x [^1].", "citations": [{"n": 1, "source": source}]})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "render", "--channel", "slack"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        # this checkout's code, whatever the environment has installed
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "citecast render: dropping unsafe URL from source 'a'\n"
