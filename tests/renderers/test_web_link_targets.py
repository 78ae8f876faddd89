"""A citation's ``url`` in the web payload is exactly the link its rendered HTML has.

A front-matter url nh3 cannot parse (``http://user:pass@evil.example:99999/path``: no such
port) had no ``href`` in the HTML but was still the JSON ``url``, so a client offered a link
the answer does not have; a url holding U+2028 went raw into the ``href`` while U+202E was
percent-encoded. Both now come from one function (``renderers.web.link_target``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import renderers
from bot.models import Answer, Citation, Source
from renderers.base import RenderContext

HREF = re.compile(r'<a class="source-link" href="([^"]*)"')


def rendered(url: str) -> dict[str, Any]:
    source = Source(id="s", title="Guide", url=url, text="The guide says so.")
    answer = Answer("It says so.[^1]", (Citation(n=1, source=source, source_number=1),))
    return dict(renderers.render("web", answer, RenderContext(audience=frozenset({"public"}))))


@pytest.mark.parametrize(
    ("url", "link"),
    [
        ("http://user:pass@evil.example:99999/path", None),
        ("https://docs.example/a\u2028b", "https://docs.example/a%E2%80%A8b"),
        ("https://docs.example/a\u2029b", "https://docs.example/a%E2%80%A9b"),
        ("https://docs.example/a\u202eb", "https://docs.example/a%E2%80%AEb"),
        ("https://docs.example/guide?a=1&b=2", "https://docs.example/guide?a=1&b=2"),
    ],
)
def test_the_payload_url_is_the_rendered_link(url: str, link: str | None) -> None:
    payload = rendered(url)
    [citation] = payload["citations"]
    hrefs = [h.replace("&amp;", "&") for h in HREF.findall(payload["html"])]
    assert citation.get("url") == link
    assert hrefs == ([] if link is None else [link])
