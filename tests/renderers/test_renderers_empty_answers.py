"""An answer with nothing to show says so on the web and in email, as the chat channels do.

Resolving can leave nothing behind (a model that wrote only an out-of-range marker or only a
source list), and blocks with nothing visible are left out; the web chat then showed an empty
bubble and the email reply was a blank mail with an empty HTML body.
"""

from __future__ import annotations

import re

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import EMPTY_ANSWER, RenderContext

GUIDE = Source(id="g", title="Install guide", url="https://docs.example/install")
NOTHING_VISIBLE = ["", "\n\n", "- \n- \n", "#\n", "\u200b\n"]


def body_text(html: str) -> str:
    """The text of the answer part of a web or email HTML payload (before its source list)."""
    html = html.split("<h2", 1)[0].split("<section", 1)[0]
    return re.sub(r"<[^>]+>", "", html).strip()


@pytest.mark.parametrize("text", NOTHING_VISIBLE)
@pytest.mark.parametrize("channel", ["web", "email"])
def test_an_answer_with_nothing_visible_says_it_is_empty(channel: str, text: str) -> None:
    payload = render(channel, Answer(text=text))
    assert EMPTY_ANSWER in body_text(payload["html"])
    if channel == "email":
        assert payload["text"] == EMPTY_ANSWER + "\n"
        assert payload["subject"] == "Your answer"


def test_an_empty_email_answer_still_lists_every_source_under_show_all() -> None:
    answer = Answer(text="", citations=(Citation(n=1, source=GUIDE, source_number=1),))
    payload = render("email", answer, RenderContext(show="all"))
    assert payload["text"].startswith(EMPTY_ANSWER + "\n\nSources\n[1] Install guide\n")
    assert 'href="https://docs.example/install"' in payload["html"]


@pytest.mark.parametrize("channel", ["web", "email"])
def test_an_answer_with_text_shows_no_empty_answer_note(channel: str) -> None:
    answer = Answer(
        text="Port 8443.[^1]", citations=(Citation(n=1, source=GUIDE, source_number=1),)
    )
    payload = render(channel, answer)
    assert EMPTY_ANSWER not in payload["html"]
    assert EMPTY_ANSWER not in payload.get("text", "")
