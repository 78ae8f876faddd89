"""Properties of the one URL rule: whatever a source's URL holds, each channel's link, read
back by that channel's own syntax, is the encoded URL (:func:`encoded_url`), which names the
same address and holds nothing a URL may not."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.url_encoding import encoded_url

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
_ANY = st.characters(codec="utf-8")  # no lone surrogate: it is no text to decode
HOSTS = st.sampled_from(
    ["docs.example", "b\u00fccher.example", "docs.example:8443", "u:p@docs.example"]
)
URLS = st.builds(
    lambda scheme, host, rest: f"{scheme}://{host}/{rest}",
    st.sampled_from(["https", "http", "HTTPS"]),
    HOSTS,
    st.text(_ANY, max_size=30),
)
# what RFC 3986 lets a URL hold outside its host, besides "%XX"
_URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*")


def _commonmark() -> MarkdownIt:
    """A CommonMark reader, as Discourse's (markdown-it) reads a link: its destination with
    entities and escapes read, without the library's own percent-encoding or scheme check."""
    reader = MarkdownIt("commonmark")
    reader.normalizeLink = lambda url: url  # type: ignore[method-assign]
    reader.validateLink = lambda url: True  # type: ignore[method-assign]
    return reader


_MARKDOWN = _commonmark()


def markdown_link(text: str) -> tuple[str, str]:
    """The label and destination of the first link in one line of Markdown."""
    tokens = _MARKDOWN.parseInline(text)[0].children or []
    start = next(i for i, t in enumerate(tokens) if t.type == "link_open")
    end = next(i for i, t in enumerate(tokens) if t.type == "link_close")
    label = "".join(t.content for t in tokens[start + 1 : end])
    return label, str(tokens[start].attrs["href"])


class _Hrefs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found.extend(v or "" for k, v in attrs if k == "href")


def html_hrefs(markup: str) -> list[str]:
    """Every ``href`` of ``markup`` as a browser reads it (entities decoded), anchors left."""
    reader = _Hrefs()
    reader.feed(markup)
    return [h for h in reader.found if not h.startswith("#")]


def discord_link(text: str) -> tuple[str, str]:
    """Discord's reading of a masked link ``[label](<url>)`` at the start of ``text``: the
    address ends at the first ``>``, and is taken as written (Discord reads no HTML entity and
    turns backslash escapes off in a masked link)."""
    found = re.match(r"\[([^\[\]]*)\]\(<([^<>]*)>\)", text)
    assert found is not None, text
    return found.group(1), found.group(2)


def slack_link(text: str) -> tuple[str, str]:
    """Slack's reading of ``<url|label>`` at the start of ``text``: the URL ends at the first
    ``|`` or ``>``, and ``&amp;``, ``&lt;``, ``&gt;`` are read back."""
    found = re.match(r"<([^|>]*)\|([^>]*)>", text)
    assert found is not None, text
    return html.unescape(found.group(1)), html.unescape(found.group(2))


def cited(url: str) -> tuple[Answer, str]:
    """An answer citing a source at ``url``, and the address its links must name."""
    source = Source(id="s1", title="Guide 1", url=url)
    assert source.url is not None
    answer = Answer("Claim.[^1]", (Citation(n=1, source=source, source_number=1),))
    return answer, encoded_url(source.url)


def _has_link(url: str) -> bool:
    return Source(id="s", url=url).url is not None


@settings(max_examples=150, deadline=None)
@given(st.text(_ANY, max_size=40).map(lambda rest: "https://docs.example/" + rest))
def test_the_encoded_url_names_the_same_address_and_only_uri_characters(url: str) -> None:
    written = encoded_url(url)
    assert encoded_url(written) == written
    assert unquote(written) == unquote(url)
    assert _URI_CHARS.fullmatch(written) is not None, written
    assert written.count("#") <= 1


@settings(max_examples=60, deadline=None)
@given(URLS.filter(_has_link))
def test_every_channel_reads_back_the_encoded_url(url: str) -> None:
    answer, linked = cited(url)
    markdown = linked.replace("(", "%28").replace(")", "%29")

    web = render("web", answer, CONTEXT)
    assert html_hrefs(web["html"]) == [linked]
    assert web["citations"][0]["url"] == linked

    email = render("email", answer, CONTEXT)
    assert html_hrefs(email["html"]) == [linked, linked]
    entry = email["text"].split("[1] Guide 1\n", 1)[1].split("\n", 1)[0]
    assert entry.strip() == linked and entry == "    " + linked

    slack = render("slack", answer, CONTEXT)["messages"][0]["blocks"]
    assert slack_link(slack[1]["elements"][0]["text"]) == (linked, "[1] Guide 1")
    marker = slack[0]["text"]["text"].removeprefix("Claim.")
    assert slack_link(marker) == (linked, "[1]")

    discord = render("discord", answer, CONTEXT)["messages"][0]["content"]
    entry = discord.rsplit("\n", 1)[1].removeprefix("\\[1\\] ")
    assert discord_link(entry) == ("Guide 1", markdown)

    discourse = render("discourse", answer, CONTEXT)["raw"]
    definition = discourse.rsplit("\n", 1)[1].removeprefix("[^1]: ")
    assert markdown_link(definition) == ("Guide 1", markdown)
