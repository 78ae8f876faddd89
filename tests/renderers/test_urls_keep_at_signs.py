"""URLs containing ``@`` survive every renderer byte for byte; mentions are broken in text only.

Discourse and Discord break ``@name`` / ``@here`` with a zero-width character so an answer can
never mention anyone, but a ``…/@team/docs`` path or a ``mailto:`` address must stay a working
link, whether it is a link target, a bare URL in the prose, or a source shown by its URL.
"""

from __future__ import annotations

import json

import pytest

from bot.models import Answer, Citation, RecordAction, Source
from renderers import CHANNELS, render
from renderers.escaping import no_forum_mentions

TEAM = "https://example.com/@team/docs"
HERE = "https://chat.example/@here/room?a=1"
MAIL = "mailto:support@example.com"
SOURCES = (
    Source(id="s1", title="Team page", url=TEAM),
    Source(id="s2", url=MAIL),  # no title: shown by its URL
    Source(id="s3", title="Room @here", url=HERE),
    Source(
        id="s4",
        kind="record",
        label="Ticket @alice",
        columns={"owner": "@bob"},
        action=RecordAction("Open @carol", "https://t.example/@carol/1"),
    ),
)
TEXT = f"Ask @dave or see {TEAM} and [the room]({HERE}).[^1][^2][^3][^4]"


def answer() -> Answer:
    return Answer(
        text=TEXT,
        citations=tuple(Citation(i, s, i, columns=("owner",)) for i, s in enumerate(SOURCES, 1)),
    )


def test_discourse_definitions_keep_urls_and_break_mentions_in_text() -> None:
    raw = render("discourse", answer())["raw"]
    lines = raw.split("\n")
    assert f"[^1]: [Team page]({TEAM})" in lines
    assert f"[^2]: [{MAIL}]({MAIL})" in lines
    assert f"[^3]: [Room @\u200bhere]({HERE})" in lines
    assert "[Open @\u200bcarol](https://t.example/@carol/1)" in raw
    assert "Ticket @\u200balice" in raw and "owner: @\u200bbob" in raw


def test_discourse_prose_keeps_bare_urls_and_breaks_mentions() -> None:
    raw = render("discourse", answer())["raw"]
    body = raw.split("\n\n")[0]
    assert f"Ask @\u200bdave or see {TEAM} and [the room]({HERE})." in body


def test_discord_source_lines_keep_urls() -> None:
    payload = render("discord", answer())
    content = "\n".join(m["content"] for m in payload["messages"])
    assert f"[Team page](<{TEAM}>)" in content
    # Discord links only http(s) in a masked link ("[x](<mailto:…>)" shows as written)
    assert f"\\[2\\] {MAIL.removeprefix('mailto:')}\n" in content
    # the title still cannot ping; its URL is untouched
    assert f"\\[3\\] [Room @\u200dhere](<{HERE}>)" in content
    button = payload["messages"][-1]["components"][0]["components"][0]
    assert button["url"] == "https://t.example/@carol/1"


@pytest.mark.parametrize("channel", CHANNELS)
def test_every_channel_carries_each_url_unbroken(channel: str) -> None:
    blob = json.dumps(render(channel, answer()), ensure_ascii=False)
    for url in (TEAM, MAIL, "https://t.example/@carol/1"):
        if channel == "discord":  # it links only http(s): an e-mail source shows its address
            url = url.removeprefix("mailto:")
        assert url in blob or url.replace("&", "&amp;") in blob, (channel, url)
    assert "@\u200bteam" not in blob and "support@\u200b" not in blob
    assert "@\u200dhere/room" not in blob


def test_no_forum_mentions_leaves_urls_and_addresses() -> None:
    text = f"@a x@b.c {MAIL} {TEAM} www.e.example/@x (@y) @"
    assert no_forum_mentions(text) == (
        f"@\u200ba x@b.c {MAIL} {TEAM} www.e.example/@x (@\u200by) @"
    )
