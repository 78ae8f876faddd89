"""A misspelt command or choice is named with the closest one, as a misspelt option already is.

Found in a QA pass of the command line: ``citecast injest docs`` and ``citecast render --channel
slak`` listed every choice, leaving the reader to spot the one meant, where ``--chanel`` got
``(did you mean --channel?)``.
"""

from __future__ import annotations

import pytest

from bot.cli import choice_hint, main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["injest", "docs"],
            "citecast: invalid command 'injest', did you mean ingest? "
            "(choose from 'serve', 'ask', 'ingest', 'resolve', 'render', 'preview', 'eval', "
            "'report') (see citecast --help)",
        ),
        (
            ["render", "--channel", "slak"],
            "citecast render: --channel: invalid choice: 'slak', did you mean "
            "slack? (choose from 'web', 'slack', 'email', 'discord', 'discourse', 'all') "
            "(see citecast render --help)",
        ),
        (
            ["resolve", "--sources", "s.json", "--numbering", "apperance"],
            "citecast resolve: --numbering: invalid choice: 'apperance', did you "
            "mean appearance? (choose from 'appearance', 'registry') (see citecast resolve --help)",
        ),
    ],
    ids=["command", "channel", "numbering"],
)
def test_the_closest_choice_is_named(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{expected}\n"


def test_nothing_close_lists_the_choices_only() -> None:
    message = "argument --channel: invalid choice: 'nope' (choose from 'web', 'slack')"
    assert choice_hint(message) == message
    quoted = "argument COMMAND: invalid choice: \"it's\" (choose from 'serve', 'ask')"
    assert choice_hint(quoted) == quoted
    assert choice_hint("the following arguments are required: PATH") == (
        "the following arguments are required: PATH"
    )
