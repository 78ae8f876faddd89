"""A source URL ending in a backslash stays a link in Discord and Discourse markdown:
``(https://a.example/\\)`` would escape the ``)`` that ends the link."""

from __future__ import annotations

import pytest

from bot.markdown import parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.escaping import md_url

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")


def cited(url: str) -> Answer:
    source = Source(id="s1", title="Guide 1", url=url)
    return Answer("Claim.[^1]", (Citation(n=1, source=source, source_number=1),))


def test_a_source_url_ending_in_a_backslash_stays_a_discourse_link() -> None:
    raw = render("discourse", cited("https://a.example/\\"), CONTEXT)["raw"]
    assert "[Guide 1](https://a.example/%5C)" in raw, raw
    definition = parse(raw.split("\n\n")[-1].removeprefix("[^1]: "))[0]["children"][0]
    assert definition["type"] == "link"
    assert definition["attrs"]["url"] == "https://a.example/%5C"


def test_a_source_url_ending_in_a_backslash_stays_a_discord_link() -> None:
    content = render("discord", cited("https://a.example/\\"), CONTEXT)["messages"][0]["content"]
    assert "[Guide 1](<https://a.example/%5C>)" in content, content


@pytest.mark.parametrize("url", ["https://a.example/\\", "https://a.example/a\\b(c)"])
def test_md_url_encodes_what_would_escape_or_end_the_link(url: str) -> None:
    written = md_url(url)
    assert "\\" not in written and "(" not in written and ")" not in written
    tokens = parse(f"[x]({written})")[0]["children"]
    assert [t["type"] for t in tokens] == ["link"]
