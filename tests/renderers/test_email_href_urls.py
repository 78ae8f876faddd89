"""Both parts of a reply link one address: a source URL with a space or ``<``/``>`` in it is
the same percent-encoded URL in the HTML part's links as in the text part (``text_url``)."""

from __future__ import annotations

import html
import re

from bot.models import Answer, Citation, RecordAction, Source
from renderers import render

URL = "https://docs.example.org/search?q=a b&x=<y>"
SAFE = "https://docs.example.org/search?q=a%20b&x=%3Cy%3E"


def test_the_html_part_links_the_url_the_text_part_writes() -> None:
    source = Source(id="s", title="Search help", url=URL)
    payload = render(
        "email", Answer(text="Search for it [^1].", citations=(Citation(1, source, 1),))
    )
    assert f"    {SAFE}\n" in payload["text"]
    hrefs = [html.unescape(h) for h in re.findall(r'href="([^"]*)"', payload["html"])]
    # the marker and the source entry; before: "?q=a b&amp;x=&lt;y&gt;" in both
    assert hrefs == [SAFE, SAFE]
    assert 'href="https://docs.example.org/search?q=a%20b&amp;x=%3Cy%3E"' in payload["html"]


def test_a_record_actions_link_is_the_same_in_both_parts() -> None:
    action = RecordAction("Open ticket", "https://tickets.example.org/new?title=a b")
    source = Source(
        id="r", title="Ticket 7", url="https://tickets.example.org/7", kind="record",
        columns={"status": "open"}, action=action,
    )  # fmt: skip
    payload = render("email", Answer(text="It is open [^1].", citations=(Citation(1, source, 1),)))
    safe = "https://tickets.example.org/new?title=a%20b"
    assert f"Open ticket: {safe}" in payload["text"]
    assert f'href="{safe}"' in payload["html"] and "title=a b" not in payload["html"]
