"""Bad input on the command line is one line on stderr and status 2, never a traceback.

Found in a QA pass over README's command sections: JSON the stdlib decoder refuses with
something other than a JSONDecodeError, input that parses but would render wrongly, flags
whose values were silently ignored, and a --config given after the command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.core.cli_runner import run_cli

DEEP = '{"text": "a", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
LONG_NUMBER = '{"text": "a", "x": ' + "1" * 5000 + "}"
FILE_SOURCE = {"id": "f", "title": "F", "path": "/srv/docs/f.pdf"}


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        (DEEP, "JSON nested too deeply"),
        (LONG_NUMBER, "a number in it has more than 4300 digits"),
    ],
    ids=["nested", "long-number"],
)
@pytest.mark.parametrize("command", ["render", "preview"])
def test_answer_json_the_decoder_cannot_take_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    document: str,
    reason: str,
) -> None:
    argv = [command] if command == "render" else [command, "--answer", "-"]
    argv += ["--channel", "web"] if command == "render" else ["--out", str(tmp_path / "p.html")]
    code, out, err = run_cli(monkeypatch, capsys, argv, document)
    assert (code, out, err) == (2, "", f"citecast {command}: stdin: {reason}\n")


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
        ('[{"id": "a", "page": ' + "1" * 5000 + "}]", "a number in it has more than 4300 digits"),
    ],
    ids=["nested", "long-number"],
)
def test_a_sources_file_the_decoder_cannot_take_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    document: str,
    reason: str,
) -> None:
    (tmp_path / "s.json").write_text(document, encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["resolve", "--sources", "s.json"], "x [1]")
    assert (code, out, err) == (2, "", f"citecast resolve: s.json: {reason}\n")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (DEEP.replace('"text"', '"answer"'), "JSON nested too deeply"),
        (LONG_NUMBER.replace('"text"', '"answer"'), "a number in it has more than 4300 digits"),
        (
            '{"answer": "x", "labels": {"claim": "x"}}',
            "labels must be a list of {claim, source, supported} objects",
        ),
    ],
    ids=["nested", "long-number", "labels-not-a-list"],
)
def test_an_eval_line_the_decoder_cannot_take_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str
) -> None:
    (tmp_path / "cases.jsonl").write_text(line + "\n", encoding="utf-8")
    assert main(["eval", "cases.jsonl"]) == 2
    assert capsys.readouterr() == ("", f"citecast eval: cases.jsonl:1: {reason}\n")


def test_two_citations_with_the_same_n_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # every channel would show one of them and silently drop the other
    answer = {
        "text": "Fact.[^1]",
        "citations": [{"n": 1, "source": {"id": "a"}}, {"n": 1, "source": {"id": "b"}}],
    }
    code, out, err = run_cli(monkeypatch, capsys, ["render"], json.dumps(answer))
    assert (code, out) == (2, "")
    assert err == "citecast render: citations has more than one entry with n 1\n"


def test_eval_of_questions_without_an_index_is_refused_like_ask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it used to print a table of "0% cited", as if the assistant had failed every question
    (tmp_path / "cases.jsonl").write_text('{"id": "q", "question": "How do I install?"}\n')
    assert main(["eval", "cases.jsonl"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "citecast eval: no knowledge index at .citecast/index.db yet; build one with "
        "`citecast ingest PATH` (no config.yaml in this folder, so that is the default path; "
        "run citecast where its config.yaml is, or name it with --config)\n"
    )


def test_preview_with_an_empty_answer_path_is_refused_not_the_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--answer "$ANSWER"` with the variable unset used to write the built-in sample, status 0
    assert main(["preview", "--answer", "", "--out", str(tmp_path / "p.html")]) == 2
    assert capsys.readouterr() == (
        "",
        "citecast preview: --answer: empty path; name an Answer JSON file, or - for stdin\n",
    )
    assert not (tmp_path / "p.html").exists()


@pytest.mark.parametrize("url", ["bot.example.com", "javascript:alert(1)", "ftp://bot.example"])
@pytest.mark.parametrize("command", ["render", "preview"])
def test_a_public_base_url_links_cannot_be_built_on_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    url: str,
) -> None:
    # renderers drop every link that is not http(s): the flag was silently ignored
    argv = [command, "--public-base-url", url]
    if command == "preview":
        argv += ["--out", str(tmp_path / "p.html")]
    answer = {"text": "Fact.[^1]", "citations": [{"n": 1, "source": FILE_SOURCE}]}
    code, out, err = run_cli(monkeypatch, capsys, argv, json.dumps(answer))
    assert (code, out) == (2, "")
    assert err == (
        f"citecast {command}: --public-base-url must be an http:// or https:// URL "
        f"with a host, not {url!r}\n"
    )


@pytest.mark.parametrize(
    "groups",
    [["staff,hr"], ["staff", "hr"]],  # as `ask --audience staff,hr`; as README's `GROUP ...`
    ids=["commas", "several"],
)
def test_render_reads_the_audience_groups_as_ask_and_resolve_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], groups: list[str]
) -> None:
    staff = {"id": "pay", "title": "Pay scales", "url": "https://hr.example/pay"}
    answer = {"text": "Pay.[^1]", "citations": [{"n": 1, "source": {**staff, "audience": ["hr"]}}]}
    argv = ["render", "--channel", "discourse", "--audience", *groups]
    code, out, err = run_cli(monkeypatch, capsys, argv, json.dumps(answer))
    assert (code, err) == (0, "")
    assert "Pay scales" in json.loads(out)["raw"]  # not "restricted source"


def test_config_is_also_accepted_after_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.yaml").write_text("store:\n  path: a.db\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("store:\n  path: b.db\n", encoding="utf-8")
    assert main(["report", "--config", "a.yaml"]) == 2
    assert (
        capsys.readouterr().err
        == "citecast report: no store at a.db yet: citecast serve creates it\n"
    )
    # the one after the command is the nearer: it wins; without it the one before still counts
    assert main(["--config", "b.yaml", "report", "--config", "a.yaml"]) == 2
    assert "no store at a.db" in capsys.readouterr().err
    assert main(["--config", "b.yaml", "report"]) == 2
    assert "no store at b.db" in capsys.readouterr().err


def test_render_help_shows_its_continued_example_on_two_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["render", "--help"])
    assert stop.value.code == 0
    assert "--turn-key 7-ab12 \\\n      < long-answer.json" in capsys.readouterr().out


def test_an_index_path_that_cannot_be_created_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("not a folder", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("index:\n  path: afile/index.db\n", encoding="utf-8")
    (tmp_path / "guide.md").write_text("# Guide\n\nHerons wade.\n", encoding="utf-8")
    assert main(["ingest", "guide.md"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("citecast ingest: cannot open afile/index.db for writing: ")
    assert err.count("\n") == 1
