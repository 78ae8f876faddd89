"""An autolink whose address holds brackets shows once, as the link it is.

Found after the resolver began keeping ``<https://…?x=[2]>`` as written: trimming the label as
text in a sentence cut its closing ``]``, so the label read as another address than the link's,
and every markdown channel showed the text followed by the encoded address in parentheses
(``…?x=[2] (<…?x=%5B2%5D>)``). Discord, whose masked-link label would have to change the
brackets, shows the address alone.
"""

from __future__ import annotations

import pytest

from bot.models import Answer
from renderers import render
from renderers.base import RenderContext

TEXT = "See <https://docs.example.com/g1?x=[2]> now."
ENCODED = "https://docs.example.com/g1?x=%5B2%5D"


def shown_text(channel: str, text: str) -> str:
    """What the channel's payload shows of ``text``: its HTML, blocks, post or message."""
    payload = render(channel, Answer(text=text), RenderContext())
    if channel == "web":
        return str(payload["html"])
    if channel == "slack":
        return "\n".join(b["text"]["text"] for b in payload["messages"][0]["blocks"])
    if channel == "discourse":
        return str(payload["raw"])
    return str(payload["messages"][0]["content"])


@pytest.mark.parametrize(
    ("channel", "shown"),
    [
        (
            "web",
            f'<a href="{ENCODED}" rel="noopener noreferrer">https://docs.example.com/g1?x=[2]</a>',
        ),
        ("slack", f"<{ENCODED}|https://docs.example.com/g1?x=[2]>"),
        ("discourse", f"[https://docs.example.com/g1?x=\\[2\\]]({ENCODED})"),
        ("discord", f"<{ENCODED}>"),
    ],
)
def test_the_address_shows_once(channel: str, shown: str) -> None:
    payload = shown_text(channel, TEXT)
    assert shown in payload
    assert f"(<{ENCODED}>)" not in payload


def test_a_label_naming_another_address_still_shows_the_real_one() -> None:
    spoof = "See [https://docs.example.com/g1?x=[2]](https://evil.example/x) now."
    for channel in ("discord", "slack", "discourse"):
        payload = shown_text(channel, spoof)
        assert "https://evil.example/x" in payload
        assert "(<https://evil.example/x>)" in payload, channel
