"""A mistyped command is called a command, not by the usage line's placeholder.

Found twice by a QA pass: ``citecast askk`` said ``citecast: COMMAND: invalid choice: 'askk',
did you mean ask?``, the ``COMMAND:`` being argparse's metavar for the commands' place.
"""

from __future__ import annotations

import pytest

from bot.cli import COMMANDS, main

LISTED = ", ".join(repr(name) for name in COMMANDS)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("askk", f"citecast: invalid command 'askk', did you mean ask? (choose from {LISTED})"),
        ("xyzzy", f"citecast: invalid command 'xyzzy' (choose from {LISTED})"),
    ],
    ids=["close-to-a-command", "close-to-none"],
)
def test_a_mistyped_command_is_named_an_invalid_command(
    typed: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([typed, "How do I install it?"])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{expected} (see citecast --help)\n"
