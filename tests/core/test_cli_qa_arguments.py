"""Mistyped command lines: one line naming the command, its closest option, where input goes."""

from __future__ import annotations

import shlex

import pytest

import bot.cli
from bot.cli import main


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``citecast ARGV`` writes on stderr, without its ``(see … --help)``; it must
    stop with argparse's status 2."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    line, see, command = err.rstrip("\n").rpartition(" (see ")
    assert see and command.endswith(" --help)")
    return line


def test_misspelt_option_is_named_with_the_command_and_closest_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _error(capsys, ["render", "--chanel", "slack"])
    assert err == (
        "citecast render: unrecognized arguments: --chanel slack (did you mean --channel?)"
    )


def test_misspelt_flag_and_option_with_equals_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, ["report", "--jsn"])
    assert err.endswith("unrecognized arguments: --jsn (did you mean --json?)")
    err = _error(capsys, ["preview", "--anwser=A.json"])
    assert err == (
        "citecast preview: unrecognized arguments: --anwser=A.json (did you mean --answer?)"
    )


def test_file_name_after_render_says_the_answer_goes_on_stdin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _error(capsys, ["render", "--channel", "slack", "answer.json"])
    assert err == (
        "citecast render: unrecognized arguments: answer.json "
        "(the Answer JSON goes on stdin: citecast render < A.json)"
    )


def test_question_without_quotes_says_to_quote_it(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, ["ask", "How", "do", "I", "install", "it?"])
    assert err == (
        "citecast ask: unrecognized arguments: do I install it? "
        '(put the whole question in quotes: citecast ask "How do I install it?")'
    )


def test_the_quote_hint_quotes_the_users_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, ["ask", "How", "do", "I", "install"])
    assert err == (
        "citecast ask: unrecognized arguments: do I install "
        '(put the whole question in quotes: citecast ask "How do I install")'
    )
    # the value of a misspelt option is no word of the question
    err = _error(capsys, ["ask", "Where", "--chanel", "slack", "are", "logs"])
    assert err.endswith(
        '(did you mean --channel?; put the whole question in quotes: citecast ask "Where are logs")'
    )


@pytest.mark.parametrize(
    "words",
    [
        ["Does", "it", "cost", "$5"],
        ["Why", "does", "`ls`", "fail"],
        ["What", "is", '"strict"', "mode"],
        ["Why", "is", "it", "slow!"],
        ["Is", "C:\\Temp", "ok"],
        ["Why", "doesn't", "it", "start"],
    ],
)
def test_the_quoted_question_pastes_back_into_a_shell_unchanged(
    capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    err = _error(capsys, ["ask", *words])
    hint = err.partition("put the whole question in quotes: ")[2]
    assert hint.endswith(")")
    # what a POSIX shell makes of the suggested command line: the question as one argument
    assert shlex.split(hint[:-1]) == ["citecast", "ask", " ".join(words)]
    if set('$`!\\"') & set(" ".join(words)):
        # inside double quotes a shell would still expand these: single quotes instead
        assert hint.startswith("citecast ask '")
    else:
        assert hint.startswith('citecast ask "')


def test_unknown_option_without_a_command_is_an_error_not_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _error(capsys, ["--bogus"])
    assert err == "citecast: unrecognized arguments: --bogus"


def test_ctrl_c_while_the_commands_load_is_status_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted() -> list[tuple[str, object]]:
        # Ctrl-C arrives while the command modules are imported (the first few tenths of a
        # second of every command)
        raise KeyboardInterrupt

    monkeypatch.setattr(bot.cli, "_command_modules", interrupted)
    try:
        code = main(["report"])
    except KeyboardInterrupt:  # escaping, it would stop the whole test run
        pytest.fail("KeyboardInterrupt escaped citecast's main()")
    assert code == 130
    assert capsys.readouterr() == ("", "")
