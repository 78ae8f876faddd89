"""Slack's pings of everyone are no question words.

Slack writes a ping as a token (``<!here>``, ``<!channel>``, ``<!everyone>``, a user group's
``<!subteam^S123|@team>``); the Slack connector reads a labelled one as its label, so
"<!channel|@channel> What python version does citecast need?" reached the answerer as
"@channel What python version …", whose "channel" added the passage about channels to the
answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.slack_text import question_text
from tests.assistant.handbook_index import ask, ingested

GUIDE = """\
# Getting started

## Install

citecast needs Python version 3.11 or newer.

## Troubleshooting

When pip fails with a resolver error, upgrade pip and run it again.
"""

SLACK = """\
# Slack FAQ

## Which channel does citecast answer in?

citecast answers in the channel where it was asked, in a thread under the question.
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("slack-pings")
    return ingested(base, {"guide.md": GUIDE, "slack.md": SLACK})


@pytest.mark.parametrize(
    "message",
    [
        "<!channel|@channel> What python version does citecast need?",
        "What python version does citecast need? <!channel|@channel>",
        "<!here|@here> <!channel|@channel> What python version does citecast need?",
        "<!channel> What python version does citecast need?",
        "<!subteam^S0123ABC|@support> What python version does citecast need?",
    ],
)
def test_a_slack_ping_is_not_answered_about(
    handbook: Path, capsys: pytest.CaptureFixture[str], message: str
) -> None:
    text, sources = ask(handbook, question_text(message, "U0BOT"), capsys)
    assert text == "citecast needs Python version 3.11 or newer [1]."
    assert "slack.md" not in sources


def test_a_channel_asked_about_is_a_question_word(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(handbook, "Which channel does citecast answer in?", capsys)
    assert text.startswith("citecast answers in the channel where it was asked")
