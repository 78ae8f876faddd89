"""``citecast resolve``: sources file + raw answer on stdin -> Answer JSON; clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.models import Answer
from tests.core.cli_runner import run_cli

SOURCES = [
    {"id": "guide", "title": "Install guide", "url": "https://example.com/install"},
    {"id": "manual", "title": "Manual", "url": "https://example.com/manual.pdf", "page": 12},
    {"id": "guide-copy", "url": "https://EXAMPLE.com/install#top"},
    {"id": "bg", "citable": False, "text": "background"},
    {"id": "hr", "title": "Salaries", "audience": ["hr"]},
]


@pytest.fixture
def sources_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sources.json"
    path.write_text(json.dumps(SOURCES), encoding="utf-8")
    return path


def test_resolves_stdin_against_sources(
    sources_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = "Run the installer [2]. It needs Python 3.11 <CIT guide />. Dup [3]. Hidden <CIT hr />."
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", str(sources_file)], raw)
    assert (code, err) == (0, "")
    answer = Answer.from_json(json.loads(out))
    # guide-copy is a duplicate of guide (number 1), so there is no source 3
    assert answer.text == "Run the installer [^1]. It needs Python 3.11 [^2]. Dup. Hidden."
    assert [(c.n, c.source.id, c.source_number) for c in answer.citations] == [
        (1, "manual", 2),
        (2, "guide", 1),
    ]
    assert answer.citations[0].deep_link == "https://example.com/manual.pdf#page=12"
    assert [d.reason for d in answer.dropped] == ["out_of_range", "forbidden"]
    assert "Salaries" not in out


def test_audience_and_registry_numbering(
    sources_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["resolve", "--sources", str(sources_file), "--audience", "public", "hr"]
    argv += ["--numbering", "registry"]
    code, out, _ = run_cli(monkeypatch, capsys, argv, "Pay <CIT hr /> and setup [1].")
    assert code == 0
    answer = Answer.from_json(json.loads(out))
    assert answer.text == "Pay [^3] and setup [^1]."
    assert [c.source.id for c in answer.citations] == ["guide", "hr"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[{", "sources.json: invalid JSON at line 1 column 3"),
        ('{"id": "a"}', "sources.json: must be a JSON list of sources"),
        (
            '[{"id": "a"}, {"id": "b"}, {"id": "c", "page": "x"}]',
            "entry 3: page must be an integer",
        ),
        ('[{"title": "no id"}]', "sources.json: entry 1: missing field: id"),
        ('[{"id": "a", "colour": "red"}]', "entry 1: unknown field(s): colour"),
        ('[{"id": "a", "page": 0}]', "entry 1: source 'a': page must be a positive integer"),
        ("[42]", "entry 1: a source must be a JSON object"),
    ],
)
def test_bad_sources_exit_2_with_one_line(
    sources_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: str,
    message: str,
) -> None:
    sources_file.write_text(content, encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "sources.json"], "x")
    assert code == 2
    assert out == ""
    assert err.startswith("citecast resolve: sources.json: ")
    assert message in err
    assert err.count("\n") == 1


def test_missing_file_is_one_line(
    sources_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "nope.json"], "x")
    assert (code, err) == (2, "citecast resolve: nope.json: no such file\n")


def test_help_explains_formats_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["resolve", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for needle in ("--sources", "--audience", "--numbering", "example:", "entry 3", "[^n]"):
        assert needle in text


def test_real_process_never_prints_a_traceback(sources_file: Path) -> None:
    sources_file.write_text('[{"id": "a", "page": true}]', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "resolve", "--sources", str(sources_file)],
        input="fact [1]",
        capture_output=True,
        text=True,
        check=False,
        cwd=sources_file.parent,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("entry 1: page must be an integer")


def test_deeply_nested_sources_file_is_one_line_exit_2(
    sources_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sources_file.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "sources.json"], "x")
    assert (code, out) == (2, "")
    assert err == "citecast resolve: sources.json: JSON nested too deeply\n"


def test_oversized_sources_file_is_refused_before_parsing(
    sources_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.commands import resolve as resolve_command

    monkeypatch.setattr(resolve_command, "MAX_SOURCES_BYTES", 1_000_000)
    sources_file.write_text(json.dumps([{"id": "a", "text": "x" * 1_000_000}]), encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "sources.json"], "x")
    assert (code, out) == (2, "")
    assert err == "citecast resolve: sources.json: larger than 1 MB\n"
