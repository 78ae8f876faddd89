"""Property tests for the "did you mean" hint on argparse's ``invalid choice`` errors
(bot/cli.py ``choice_hint``): any message, including the user's own words that an
"unrecognized arguments" error repeats, gives a message and never an exception.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import build_parser, choice_hint

_PIECES = st.sampled_from(
    ["invalid choice: ", " (choose from ", ")", "'", '"', "\\", ", ", "{[]: 1}", "[", "(",
     "'ingest'", "'injest'", "-", "1", "10**10", "x"]
)  # fmt: skip
_MESSAGES = st.one_of(st.text(max_size=200), st.lists(_PIECES, max_size=30).map("".join))


@given(_MESSAGES)
def test_any_message_gives_a_message(message: str) -> None:
    hinted = choice_hint(message)
    assert hinted == message or (hinted.startswith(message[: message.find("invalid choice: ")]))


@given(st.text(max_size=40))
def test_argparse_errors_keep_their_words(value: str) -> None:
    choices = ("web", "slack", "email")
    listed = ", ".join(map(repr, choices))
    message = f"argument --channel: invalid choice: {value!r} (choose from {listed})"
    hinted = choice_hint(message)
    assert hinted == message or hinted in {
        message.replace(f" (choose from {listed})", f", did you mean {c}? (choose from {listed})")
        for c in choices
    }


@pytest.mark.parametrize(
    "words",
    [
        "invalid choice: {[]: 1} (choose from 1)",  # TypeError in ast.literal_eval before
        "invalid choice: 1 (choose from {[]: 1})",
        "invalid choice: " + "-" * 100_000 + "1 (choose from 1)",  # MemoryError before
    ],
)
def test_the_users_own_words_are_a_usage_error(
    words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["report", words])
    assert stopped.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_words_repeating_the_message_are_read_once() -> None:
    # adversarial but bounded: every prefix was evaluated before (cubic: 1000 repetitions took
    # over a minute, these 400 some seconds); one pass over the message now
    message = "unrecognized arguments: " + "invalid choice: 'a (choose from " * 400
    assert choice_hint(message) == message
