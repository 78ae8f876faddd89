"""A link whose label reads as an address shows where it really leads.

``[https://docs.example.com/alpha](https://evil.example/x)`` rendered on Discord as a masked link
whose label had a zero-width space after ``https:``: Discord's own rule (a masked link's label
may not be a URL) no longer caught it, and readers saw a trusted address on a link that opened
another. The web and e-mail HTML (``<a href=evil>https://docs…</a>``), Slack
(``<evil|https://docs…>``) and Discourse did the same. Model text can be steered by the
documents it read. Now such a label is shown as text, followed by the address the link opens,
in each channel's own form (``renderers.link_urls.label_hides_target``).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from renderers import CHANNELS, render
from renderers.base import RenderContext
from tests.renderers.test_citation_lookalike_links import shown_links

SIGN_IN = "Sign in at [https://docs.example.com/login](https://evil.example/steal)."


def test_qa_a_url_label_never_masks_another_address_on_discord() -> None:
    answer = resolve(SIGN_IN, SourceRegistry(frozenset({"public"})))
    payload = render("discord", answer, RenderContext())
    content = "\n".join(m["content"] for m in payload["messages"])
    shown = [
        (label.replace("\u200b", ""), target)
        for label, target in re.findall(r"\[([^\]]*)\]\(<([^>]*)>\)", content)
    ]
    assert all(
        not label.startswith(("http://", "https://")) or label == target for label, target in shown
    )


def _rendered(channel: str, text: str) -> str:
    payload = render(channel, Answer(text=text, citations=()))
    if channel == "web":
        return str(payload["html"])
    if channel == "email":
        return str(payload["html"]) + "\n" + str(payload["text"])
    if channel == "slack":
        return str(payload["messages"][0]["blocks"][0]["text"]["text"])
    if channel == "discord":
        return str(payload["messages"][0]["content"])
    return str(payload["raw"])


def _html_target(url: str) -> str:
    return f'(<a href="{url}" rel="noopener noreferrer">{url}</a>)'


@pytest.mark.parametrize(
    ("channel", "shown"),
    [
        ("discord", "Sign in at https://docs.example.com/login (<https://evil.example/steal>)."),
        ("discourse", "Sign in at https://docs.example.com/login (<https://evil.example/steal>)."),
        ("slack", "Sign in at https://docs.example.com/login (<https://evil.example/steal>)."),
        ("web", "Sign in at https://docs.example.com/login " + _html_target("https://evil.example/steal")),
        ("email", "Sign in at https://docs.example.com/login <https://evil.example/steal>."),
    ],
)  # fmt: skip
def test_the_label_shows_as_text_and_the_real_address_follows(channel: str, shown: str) -> None:
    assert shown in _rendered(channel, SIGN_IN)


def test_the_email_html_shows_the_real_address_too() -> None:
    html = str(render("email", Answer(text=SIGN_IN, citations=()))["html"])
    assert re.search(
        r'https://docs\.example\.com/login \(<a href="https://evil\.example/steal"[^>]*>'
        r"https://evil\.example/steal</a>\)",
        html,
    )


MISLEADING = [
    "See [docs.example.com/x](https://evil.example/y).",  # a host without a scheme
    "See [www.example.org](https://evil.example/y).",
    "See [Docs.Example.COM](https://evil.example/y).",
    "See [go to https://docs.example.com/x now](https://evil.example/y).",  # one inside words
    "See [visit www.example.org today](https://evil.example/y).",
    "See [https://docs.example.com/alpha](https://docs.example.com/beta).",  # same host
    "See [https://docs.example.com/a?next=1](https://docs.example.com/a?next=2).",
    "See [https://docs.example.com\u200b/login](https://evil.example/y).",  # invisible inside
    "See [**https://docs.example.com/login**](https://evil.example/y).",  # formatted
    "See ![https://docs.example.com/logo.png](https://evil.example/y.png).",  # an image
    "See [https://docs.example.com/login](mailto:thief@evil.example).",
    "- item [https://docs.example.com/login](https://evil.example/y)",
    "## Heading [https://docs.example.com/login](https://evil.example/y)",
    "> quoted [https://docs.example.com/login](https://evil.example/y)",
    "| a | b |\n|---|---|\n| cell | [https://docs.example.com/login](https://evil.example/y) |",
]


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("text", MISLEADING)
def test_no_masked_link_reads_as_another_address(channel: str, text: str) -> None:
    payload = render(channel, Answer(text=text, citations=()))
    for label, url in _masked_links(channel, payload):
        assert not _reads_as_address(label) or _same_place(label, url), (channel, label, url)
    # the address it really opens is still there to see and follow
    target = re.findall(r"\]\(([^)\s]+)\)", text)[-1]
    assert target.removeprefix("mailto:") in _rendered(channel, text)


OWN = [
    ("[https://docs.example.com/a/](http://docs.example.com/a)", "http://docs.example.com/a"),
    ("[docs.example.com](https://docs.example.com/)", "https://docs.example.com/"),
    ("[www.example.org/guide](https://www.example.org/guide#setup)",
     "https://www.example.org/guide#setup"),
    ("[the guide](https://evil.example/guide)", "https://evil.example/guide"),
    ("[the Node.js guide](https://evil.example/node)", "https://evil.example/node"),
    ("[version 2.5](https://evil.example/v2)", "https://evil.example/v2"),
    # a file or a product named by its ending is no address: the common way to link a page
    ("[README.md](https://github.com/x/y/blob/main/README.md)",
     "https://github.com/x/y/blob/main/README.md"),
    ("[Node.js](https://nodejs.org)", "https://nodejs.org"),
    ("[config.yaml](https://docs.example.com/reference)", "https://docs.example.com/reference"),
]  # fmt: skip


@pytest.mark.parametrize("channel", [c for c in CHANNELS if c != "email"])
@pytest.mark.parametrize(("text", "url"), OWN)
def test_a_link_labelled_with_its_own_address_or_words_stays_a_link(
    channel: str, text: str, url: str
) -> None:
    payload = render(channel, Answer(text=f"Read {text} today.", citations=()))
    links = shown_links(channel, payload)
    assert url in {target for _, target in links}, (channel, links)
    shown = _rendered(channel, f"Read {text} today.")
    assert f" (<{url}>)" not in shown and f'(<a href="{url}"' not in shown


TITLED = Source(id="t", title="www.example.org handbook", url="https://handbook.example/docs")
URL_TITLED = Source(id="u", title="https://docs.example.com/guide", url="https://mirror.example/g")


def test_cited_sources_keep_their_titles_as_links() -> None:
    answer = Answer(
        text="Ports are listed.[^1] Limits too.[^2]",
        citations=(Citation(1, TITLED, 1), Citation(2, URL_TITLED, 2)),
    )
    content = render("discord", answer)["messages"][0]["content"]
    assert "[www.example.org handbook](<https://handbook.example/docs>)" in content
    assert "[https:\u200b//docs.example.com/guide](<https://mirror.example/g>)" in content


# --- the property: no channel shows a masked link whose label reads as another host --------

HOSTS = ["docs.example.com", "evil.example", "www.example.org", "example.org", "a.b.example"]
SCHEMES = ["https://", "http://", "", "HTTPS://"]
PATHS = ["", "/", "/login", "/a/b?x=1", "/login/"]
WORDS = ["the guide", "see", "here", "Node.js", "v2.5"]


@st.composite
def address(draw: st.DrawFn) -> str:
    return (
        draw(st.sampled_from(SCHEMES)) + draw(st.sampled_from(HOSTS)) + draw(st.sampled_from(PATHS))
    )


@st.composite
def link(draw: st.DrawFn) -> str:
    shown = draw(address())
    label = draw(
        st.sampled_from(
            [shown, f"go to {shown} now", f"**{shown}**", shown.replace("//", "/\u200b/"),
             f"<{shown}>", draw(st.sampled_from(WORDS))]
        )
    )  # fmt: skip
    target = draw(address())
    if "://" not in target:
        target = "https://" + target
    cited = draw(st.sampled_from(["", " [^1]"]))
    written = draw(st.sampled_from(["[{l}{c}]({u})", "![{l}]({u})"]))
    return written.format(l=label, c=cited, u=target)


@st.composite
def linked_answers(draw: st.DrawFn) -> Answer:
    blocks = [
        draw(st.sampled_from(["{}", "- {}", "## {}", "> {}", "| a |\n|---|\n| {} |"])).format(
            f"Before {draw(link())} after.[^1]"
        )
        for _ in range(draw(st.integers(1, 4)))
    ]
    source = Source(id="s", title="Gateway guide", url="https://docs.example.com/guide")
    return Answer(text="\n\n".join(blocks), citations=(Citation(1, source, 1),))


@settings(max_examples=80, deadline=None)
@given(answer=linked_answers(), show=st.sampled_from(["cited", "all", "none"]))
def test_no_channel_shows_a_masked_link_labelled_with_another_host(
    answer: Answer, show: str
) -> None:
    context = RenderContext(show=show)  # type: ignore[arg-type]
    for channel in CHANNELS:
        for label, url in _masked_links(channel, render(channel, answer, context)):
            if _reads_as_address(label):
                assert _host(label) == _host(url), (channel, label, url, answer.text)


# The test's own reading of a label as an address (independent of renderers.link_urls): a
# scheme, "www.", or the whole label a dotted host whose last name is letters, and not a few
# file or product endings ("README.md", "Node.js") when nothing follows the name.
_INVISIBLE = re.compile(r"[\u200b-\u200f\u2060\ufeff]")
_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*://", re.I)
_BARE_HOST = re.compile(r"[\w\-]+(?:\.[\w\-]+)*\.[a-z]{2,}(?:[/:?#]\S*)?", re.I)


def _clean(label: str) -> str:
    return _INVISIBLE.sub("", label).strip().strip("<>*_[]()")


def _reads_as_address(label: str) -> bool:
    text = _clean(label)
    named = re.fullmatch(r"[\w.\-]+\.(?:md|py|js|yaml|json|txt)", text, re.I)
    return bool(
        _SCHEME.search(text)
        or re.search(r"\bwww\.", text, re.I)
        or (_BARE_HOST.fullmatch(text) and not named)
    )


def _host(address: str) -> str:
    text = _clean(address)
    found = _SCHEME.search(text) or re.search(r"\bwww\.", text, re.I)
    if found:
        text = text[found.start() :].split()[0]
    if not _SCHEME.match(text) and not text.lower().startswith("mailto:"):
        text = "https://" + text
    parts = urlsplit(text)
    return (parts.hostname or parts.path.partition("@")[2]).lower()


def _same_place(label: str, url: str) -> bool:
    return _host(label) == _host(url) and _path(label) == _path(url)


def _path(address: str) -> str:
    text = _clean(address)
    if not _SCHEME.match(text):
        text = "https://" + text
    parts = urlsplit(text)
    return parts.path.rstrip("/") + "?" + parts.query


def _masked_links(channel: str, payload: dict[str, Any]) -> list[tuple[str, str]]:
    """The links a reader sees only a label of (not the e-mail text's ``label <url>``)."""
    if channel == "email":
        return shown_links("web", {"html": payload["html"]})
    return shown_links(channel, payload)
