"""Small display defects: Discord keeps bare URLs and e-mail addresses
byte for byte, neutralises a navigation mention ``<id:home>`` in a link label; the web source
list shows no empty code box; a blank file name or title names the source as none would."""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.escaping import no_mentions

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
GUIDE = Source(id="s1", title="Guide 1", url="https://docs.example/1")


def answer(text: str, source: Source = GUIDE, quote: str | None = None) -> Answer:
    return Answer(text, (Citation(n=1, source=source, source_number=1, quote=quote),))


def discord_content(text: str) -> str:
    return str(render("discord", answer(text), CONTEXT)["messages"][0]["content"])


@pytest.mark.parametrize(
    "address", ["https://e.example/@everyone", "me@here.com", "www.e.example/@channel/x"]
)
def test_discord_keeps_bare_urls_and_addresses_byte_for_byte(address: str) -> None:
    content = discord_content(f"Write to {address} today.[^1]")
    assert f"Write to {address} today." in content, content


def test_discord_still_breaks_mentions_next_to_a_url() -> None:
    content = discord_content("See https://e.example/x @everyone and @here.[^1]")
    assert "https://e.example/x @\u200deveryone and @\u200dhere." in content, content


def test_a_navigation_mention_in_a_discord_link_label_is_neutralised() -> None:
    content = discord_content("Open [<id:home> or <id:customize>](https://docs.example/1).[^1]")
    assert "<id:" not in content, content
    assert no_mentions("<id:browse>") == "<\u200did:browse>"


def test_a_web_quote_whose_code_holds_only_a_zero_width_space_shows_no_code_box() -> None:
    html = render("web", answer("Claim.[^1]", quote="Run `\u200b` then `ls`."), CONTEXT)["html"]
    assert "<code>\u200b</code>" not in html and "<code></code>" not in html, html
    assert "Run then <code>ls</code>." in html, html


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_blank_file_name_names_the_source_as_none_would(channel: str) -> None:
    blank = Source(id="s1", filename="   ", kind="file")
    unnamed = Source(id="s1", kind="file")
    assert render(channel, answer("Claim.[^1]", blank), CONTEXT) == render(
        channel, answer("Claim.[^1]", unnamed), CONTEXT
    )


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_blank_title_names_the_source_as_none_would(channel: str) -> None:
    blank = Source(id="s1", title=" \t ", label="  ", url="https://docs.example/1")
    shown = str(render(channel, answer("Claim.[^1]", blank), CONTEXT))
    assert shown == str(
        render(
            channel, answer("Claim.[^1]", Source(id="s1", url="https://docs.example/1")), CONTEXT
        )
    )
    assert "[](" not in shown and "> </a>" not in shown


def test_a_blank_name_is_none_on_the_source() -> None:
    source = Source(id="s1", title="  ", label="\u3000", filename="   ")
    assert (source.title, source.label, source.filename) == (None, None, None)
    assert source.display_title == "s1"
