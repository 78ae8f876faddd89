"""What a new user meets following the README's Quickstart, told in words they can act on.

Found walking through the Quickstart in a fresh clone: ``citecast eval nope.jsonl`` and
``citecast preview --answer nope.json`` printed Python's ``[Errno 2] No such file or directory:
'nope.json'`` (the path twice, and an errno), and a folder ``[Errno 21] Is a directory``;
``citecast ask`` run outside the folder holding ``config.yaml`` said "no knowledge index ...
(try `citecast ingest examples/`)", advice that builds a second index in the wrong folder from
a sample that is not there; and a record table without an action URL was listed in the
Sources as its label alone (``[1] Berlin``), naming neither the table nor the row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.core.cli_runner import run_cli

NO_CONFIG = (
    "no config.yaml in this folder, so that is the default path; "
    "run citecast where its config.yaml is, or name it with --config"
)


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "folder").mkdir()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["eval", "nope.jsonl"], "citecast eval: nope.jsonl: no such file\n"),
        (["eval", "folder"], "citecast eval: folder: is a folder, not a JSONL file of cases\n"),
        (["preview", "--answer", "nope.json"], "citecast preview: nope.json: no such file\n"),
        (
            ["preview", "--answer", "folder"],
            "citecast preview: folder: is a folder, not a file\n",
        ),
        (
            ["resolve", "--sources", "folder"],
            "citecast resolve: folder: is a folder, not a file\n",
        ),
    ],
    ids=["eval-missing", "eval-folder", "preview-missing", "preview-folder", "resolve-folder"],
)
def test_a_wrong_path_is_named_once_without_an_errno(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    expected: str,
) -> None:
    assert run_cli(monkeypatch, capsys, argv, "Fact [1].") == (2, "", expected)


@pytest.mark.parametrize("command", ["preview --answer", "resolve --sources"])
def test_a_file_that_is_not_utf8_says_so_in_the_words_stdin_uses(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"text": "caf\xe9"}')
    name = command.split()[0]
    code, out, err = run_cli(monkeypatch, capsys, [*command.split(), "latin1.json"], "x [1]")
    assert (code, out) == (2, "")
    assert err == f"citecast {name}: latin1.json: not valid UTF-8: invalid continuation byte\n"


def test_ask_outside_the_config_folder_says_no_config_was_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # no examples/ here either: the sample is not offered where it is not
    assert run_cli(monkeypatch, capsys, ["ask", "How do I install it?"]) == (
        2,
        "",
        "citecast ask: no knowledge index at .citecast/index.db yet; build one with "
        f"`citecast ingest PATH` ({NO_CONFIG})\n",
    )


def test_ask_in_a_checkout_without_an_index_still_offers_the_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "examples").mkdir()
    (tmp_path / "config.yaml").write_text("web:\n  port: 8001\n", encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["ask", "How do I install it?"])
    assert (code, out) == (2, "")
    assert err == (
        "citecast ask: no knowledge index at .citecast/index.db yet; build one with "
        "`citecast ingest PATH` (try `citecast ingest examples/`)\n"
    )


def test_report_outside_the_config_folder_says_no_config_was_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(monkeypatch, capsys, ["report"]) == (
        2,
        "",
        f"citecast report: no store at .citecast/citecast.db yet: citecast serve creates it "
        f"({NO_CONFIG})\n",
    )


def test_report_with_a_named_config_has_no_such_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.yaml").write_text("store:\n  path: a.db\n", encoding="utf-8")
    assert run_cli(monkeypatch, capsys, ["report", "--config", "a.yaml"]) == (
        2,
        "",
        "citecast report: no store at a.db yet: citecast serve creates it\n",
    )


def test_a_record_without_a_link_is_listed_with_its_table_and_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Hours\n\nThe office opens at nine.\n")
    (tmp_path / "offices.csv").write_text(
        "code,city,address\nBER,Berlin,Unter den Linden 1\nLIS,Lisbon,Rua Augusta 10\n",
        encoding="utf-8",
    )
    (tmp_path / "config.yaml").write_text(
        "index:\n  records:\n    - name: offices\n      csv: offices.csv\n"
        "      id_column: code\n      label_column: city\n      columns: [city, address]\n"
        "      description: Office addresses\n",
        encoding="utf-8",
    )
    assert main(["ingest", "docs"]) == 0
    capsys.readouterr()
    code, out, err = run_cli(
        monkeypatch, capsys, ["ask", "What is the address of the Berlin office?"]
    )
    assert (code, err) == (0, "")
    assert "Unter den Linden 1 [1]" in out
    assert out.endswith("\nSources:\n[1] Berlin — offices/BER\n")
