"""With embeds, a source entry may be as long as an embed's description (4,096 characters).

A source whose URL was about 2,400 characters showed in the "Sources" embed as "(link too long
to show)": the entries were sized for a message's content (2,000), not for the embed they go
into (DESIGN §6: "Discord: 2,000 content chars, embed limits").
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import DISCORD_MAX_DESCRIPTION
from tests.renderers.payload_checks import check_discord

TOO_LONG = "(link too long to show)"


def long_url(length: int) -> str:
    start = "https://kb.example/search?q="
    return start + "a" * (length - len(start))


def rendered(url: str, embeds: bool) -> dict[str, object]:
    caps = dataclasses.replace(capabilities_for("discord"), embeds=embeds)
    answer = Answer(
        text="The search keeps every filter.[^1] Short one.[^2]",
        citations=(
            Citation(1, Source(id="l", title="Saved search", url=url), 1),
            Citation(2, Source(id="s", title="Guide", url="https://kb.example/guide"), 2),
        ),
    )
    payload = render("discord", answer, RenderContext(capabilities=caps))
    check_discord(payload)
    return payload


def descriptions(payload: dict[str, object]) -> str:
    messages = payload["messages"]
    assert isinstance(messages, list)
    return "\n".join(e["description"] for m in messages for e in m["embeds"])


@pytest.mark.parametrize("length", [2_100, 2_400, 3_900])
def test_a_link_longer_than_a_message_is_linked_in_the_embed(length: int) -> None:
    url = long_url(length)
    shown = descriptions(rendered(url, embeds=True))
    assert f"[Saved search](<{url}>)" in shown
    assert TOO_LONG not in shown


def test_a_link_longer_than_an_embed_still_shows_its_title_alone() -> None:
    shown = descriptions(rendered(long_url(DISCORD_MAX_DESCRIPTION + 10), embeds=True))
    assert f"Saved search {TOO_LONG}" in shown
    assert "[Guide](<https://kb.example/guide>)" in shown


def test_without_embeds_the_message_limit_still_decides() -> None:
    payload = rendered(long_url(2_400), embeds=False)
    messages = payload["messages"]
    assert isinstance(messages, list)
    content = "\n".join(m["content"] for m in messages)
    assert f"Saved search {TOO_LONG}" in content
