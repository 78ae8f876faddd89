"""A backslash-escaped ``\\@`` breaks a mention as a plain ``@`` does: the
parser makes it a text token of its own, so mentions are broken across runs of text tokens."""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
SOURCE = Source(id="s1", title="Guide 1", url="https://docs.example/1")


def shown(channel: str, text: str) -> str:
    payload = render(
        channel, Answer(text, (Citation(n=1, source=SOURCE, source_number=1),)), CONTEXT
    )
    if channel == "discourse":
        return str(payload["raw"])
    return str(payload["messages"][0]["content"])


def test_an_escaped_at_sign_cannot_mention_on_discourse() -> None:
    raw = shown("discourse", "Ask \\@admin or \\@everyone about it.[^1]")
    assert "@admin" not in raw and "@everyone" not in raw, raw


def test_an_escaped_at_sign_cannot_mention_everyone_on_discord() -> None:
    content = shown("discord", "Ask \\@admin or \\@everyone or \\@here about it.[^1]")
    assert "@everyone" not in content and "@here" not in content, content


@pytest.mark.parametrize("channel", ["discord", "discourse"])
@pytest.mark.parametrize(
    "text",
    [
        "Ask \\@admin or \\@everyone about it.[^1]",
        "*Ping \\@everyone* now.[^1]",
        "Mail \\@team\\_leads or \\@here.[^1]",
    ],
)
def test_an_escaped_at_sign_shows_as_a_plain_one(channel: str, text: str) -> None:
    plain = text.replace("\\@", "@")
    assert shown(channel, text) == shown(channel, plain)


@pytest.mark.parametrize("channel", ["discord", "discourse"])
def test_entities_next_to_escapes_are_decoded_one_token_at_a_time(channel: str) -> None:
    # "\&amp;" shows "&amp;" (an escaped "&" and the text "amp;"), "&amp;" alone shows "&"
    text = shown(channel, "Tom \\&amp; Jerry &amp; co.[^1]")
    assert "Tom &amp; Jerry & co." in text, text
