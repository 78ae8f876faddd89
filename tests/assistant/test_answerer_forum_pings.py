"""A forum post's title tags and pings are no question words.

A Discord forum post titled "Installing on Linux [help] @everyone" asking "pip fails, what
python version do I need?" (the connector asks the title and the body together) got the
not-found reply, while the same body under "Installing on Linux" was answered: "everyone" found
the passage about pings, and the install sentence no longer held half of the question's words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_question import plain_question
from tests.assistant.handbook_index import ask, ingested

GUIDE = """\
# Getting started

## Install

citecast needs Python version 3.11 or newer.

### Linux

On Linux, install Python 3.11 with your package manager first.

## Troubleshooting

When pip fails with a resolver error, upgrade pip and run it again.
"""

FAQ = """\
# Discord FAQ

## Why does citecast never ping anyone?

Every message is sent with allowed mentions that ping nobody, so an answer that quotes
`@everyone` from a document cannot notify a whole server.
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("forum-pings")
    return ingested(base, {"guide.md": GUIDE, "faq.md": FAQ})


@pytest.mark.parametrize(
    "title",
    [
        "Installing on Linux [help] @everyone",
        "Installing on Linux @here",
        "[help] Installing on Linux",
        "@everyone Installing on Linux",
        "Installing on Linux",
    ],
)
def test_a_titles_tags_and_pings_do_not_hide_the_answer(
    handbook: Path, capsys: pytest.CaptureFixture[str], title: str
) -> None:
    question = f"{title}\n\npip fails, what python version do I need?"
    text, _ = ask(handbook, question, capsys)
    assert "citecast needs Python version 3.11 or newer" in text


def test_a_ping_asked_about_is_a_question_word(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(handbook, "Why does citecast never ping @everyone?", capsys)
    assert text.startswith("Every message is sent with allowed mentions")


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        ("Linux [help] @everyone\nWhy?", "Linux  \nWhy?"),
        ("@here can someone help? [SOLVED]", "  can someone help?  "),
        ("Why does it never ping @everyone?", "Why does it never ping @everyone?"),
        ("What goes in [help]?", "What goes in [help]?"),
        ("Mail me@here", "Mail me@here"),
        # Slack's pings, as tokens or as the labels its connector reads them as
        ("@channel how do I install?", "  how do I install?"),
        ("how do I install? @here @channel", "how do I install?  "),
        ("<!here> how do I install?", "  how do I install?"),
        ("<!channel|@channel> <!everyone> how?", "  how?"),
        ("<!subteam^S0123ABC|@support-team> how much?", "  how much?"),
        ("how much? <!subteam^S0123ABC>", "how much?  "),
        # inside a sentence a ping is what is asked about
        ("Why does it never ping @channel?", "Why does it never ping @channel?"),
        ("Can I ping <!here> from a bot?", "Can I ping <!here> from a bot?"),
        ("Is @channelbot a user?", "Is @channelbot a user?"),
    ],
)
def test_plain_question(question: str, plain: str) -> None:
    assert plain_question(question) == plain
