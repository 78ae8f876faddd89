"""A source URL or deep link with white space around it links its page on every channel, not
a percent-encoded ``%20https://…``."""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Occurrence, RecordAction, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")


@pytest.mark.parametrize(
    "url",
    [
        " https://docs.example/install",
        "https://docs.example/install ",
        "\u00a0https://docs.example/install\u3000",
    ],
)
@pytest.mark.parametrize("channel", CHANNELS)
def test_a_source_url_with_surrounding_space_links_the_page(channel: str, url: str) -> None:
    source = Source(id="s1", title="Guide 1", url=url)
    shown = str(
        render(
            channel,
            Answer("Install it.[^1]", (Citation(n=1, source=source, source_number=1),)),
            CONTEXT,
        )
    )
    assert "%20" not in shown and "%C2%A0" not in shown and "%E3%80%80" not in shown, shown
    assert "https://docs.example/install" in shown


def test_a_source_keeps_its_url_and_action_url_without_surrounding_space() -> None:
    source = Source(
        id="s1",
        url=" https://docs.example/a ",
        kind="record",
        label="Widget",
        action=RecordAction("Buy", "\u2003https://shop.example/w "),
    )
    assert source.url == "https://docs.example/a"
    assert source.action is not None and source.action.url == "https://shop.example/w"
    assert (
        Source.from_json({"id": "s2", "url": "https://docs.example/b  "}).url
        == "https://docs.example/b"
    )


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_deep_link_with_surrounding_space_links_the_quote(channel: str) -> None:
    source = Source(id="s1", title="Guide 1", url="https://docs.example/install")
    deep = " https://docs.example/install#:~:text=run%20it "
    citation = Citation(
        n=1,
        source=source,
        source_number=1,
        quote="run it",
        deep_link=deep,
        occurrences=(Occurrence(quote="run it", deep_link=deep),),
    )
    shown = str(render(channel, Answer("Install it.[^1]", (citation,)), CONTEXT))
    assert "%20https" not in shown and "run%20it%20" not in shown, shown
    assert "https://docs.example/install#:~:text=run%20it" in shown
