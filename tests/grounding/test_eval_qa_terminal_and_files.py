"""``citecast eval``: a data set's ids cannot act on the terminal; a file it cannot use is
named in words (the line that is not UTF-8, an --out that is a folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import ValidationError
from bot.evaluation.dataset import load_cases
from bot.evaluation.report import write_html

HOSTILE = "a\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202e\x9b\nb\tc"
SHOWN = "a\\x1b]0;owned\\x07\\x1b[2J\\x1b[31mred\\u202e\\x9b\\nb\\tc"


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)


def _recorded(case_id: str, answer: str = "Fine [1].") -> str:
    source = {"id": "s", "text": "Fine."}
    return json.dumps({"id": case_id, "answer": answer, "sources": [source]}, ensure_ascii=False)


def test_shown_id_writes_what_a_terminal_acts_on_as_escapes() -> None:
    from bot.evaluation.report import shown_id

    assert shown_id(HOSTILE) == SHOWN
    assert shown_id("retries-1 [ü]") == "retries-1 [ü]"


def test_the_table_shows_an_id_s_escape_sequences_instead_of_sending_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # short enough for the table's column at 80 characters
    case_id = "a\x1b]0;o\x07\u202eb\nc"
    (tmp_path / "cases.jsonl").write_text(_recorded(case_id) + "\n", encoding="utf-8")
    assert main(["eval", "cases.jsonl"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    row = next(line for line in out.splitlines() if "100.0%" in line and "all" not in line)
    assert row.split("│")[1].strip() == "a\\x1b]0;o\\x07\\u202eb\\nc"


def test_the_progress_bar_shows_an_id_s_escape_sequences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.commands import eval as eval_command

    monkeypatch.setattr(eval_command, "_QUIET_CASES", 0, raising=False)
    (tmp_path / "cases.jsonl").write_text(_recorded("x\x1b]0;owned\x07") + "\n", encoding="utf-8")
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then takes stderr for a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["eval", "cases.jsonl"]) == 0
    err = capsys.readouterr().err
    assert "evaluating" in err
    assert "\x1b]0;owned" not in err  # the bar's own colours are escapes too: only the id's
    assert "x\\x1b]0;owned\\x07" in err


def test_the_html_report_keeps_the_id_as_written(tmp_path: Path) -> None:
    (tmp_path / "cases.jsonl").write_text(_recorded("a\u202eb") + "\n", encoding="utf-8")
    assert main(["eval", "cases.jsonl", "--out", "report.html"]) == 0
    assert "a\u202eb" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    good = _recorded("one").encode("utf-8")
    path.write_bytes(good + b"\n\n" + _recorded("caf\u00e9").encode("latin-1") + b"\n")
    with pytest.raises(ValidationError) as caught:
        load_cases(path)
    assert str(caught.value) == (
        f"{path}:3: not valid UTF-8 (byte 0xe9 at column 12); save it as UTF-8"
    )


def test_the_command_names_the_line_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cases.jsonl").write_bytes(b'{"id": "\xff", "answer": "x"}\n')
    assert main(["eval", "cases.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "citecast eval: cases.jsonl:1: not valid UTF-8 (byte 0xff at column 9); save it as UTF-8\n"
    )


def test_a_utf16_data_set_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes((_recorded("one") + "\n").encode("utf-16"))
    with pytest.raises(ValidationError, match=r": saved as UTF-16; save it as UTF-8$"):
        load_cases(path)


def test_a_line_separator_inside_a_string_does_not_split_the_case(tmp_path: Path) -> None:
    # JSON strings may hold U+2028 and U+0085 as they are; str.splitlines() cut the line there
    path = tmp_path / "cases.jsonl"
    lines = [_recorded("one", "Fine\u2028still one [1]."), _recorded("two", "Fine\x85also [1].")]
    path.write_text("\n".join(lines) + "\r\n", encoding="utf-8")
    cases = load_cases(path)
    assert [(case.id, case.line) for case in cases] == [("one", 1), ("two", 2)]
    assert cases[0].answer == "Fine\u2028still one [1]."


def test_out_naming_a_folder_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cases.jsonl").write_text(_recorded("one") + "\n", encoding="utf-8")
    (tmp_path / "reports").mkdir()
    assert main(["eval", "cases.jsonl", "--out", "reports"]) == 2
    assert capsys.readouterr().err == (
        "citecast eval: cannot write reports: is a folder, not a file\n"
    )


def test_write_html_to_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as caught:
        write_html([], tmp_path, 0.5)
    assert str(caught.value) == f"cannot write {tmp_path}: is a folder, not a file"
