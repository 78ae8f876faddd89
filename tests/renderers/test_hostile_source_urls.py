"""A source URL holding characters no URL may is linked encoded, the same on every channel.

Found by review: a source URL ending in ``\\`` went unencoded into the web and e-mail ``href``
and Slack's ``<url|label>``, where a browser reads ``\\`` as ``/`` (``…/guide\\`` opened
``/guide/``, not the page indexed); a ``|`` or ``"`` or ``<`` went into some channels as it
was. Each case below is one source URL and the one address every channel must link
(:func:`renderers.url_encoding.encoded_url`); Markdown channels also encode parentheses.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from bot.connectors.web_sse import citation_href
from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.url_encoding import encoded_url

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")

# (the source's URL, the address every channel links)
HOSTILE = [
    ("https://docs.example/guide\\", "https://docs.example/guide%5C"),
    ("https://docs.example/a\\b\\c", "https://docs.example/a%5Cb%5Cc"),
    ("https://docs.example/a|b", "https://docs.example/a%7Cb"),
    ("https://docs.example/a>b", "https://docs.example/a%3Eb"),
    ("https://docs.example/a)b", "https://docs.example/a)b"),
    ("https://docs.example/a b?q=x y", "https://docs.example/a%20b?q=x%20y"),
    ("https://docs.example/%zz", "https://docs.example/%25zz"),
    ("https://docs.example/%41", "https://docs.example/%41"),
    ("https://docs.example/café/ü", "https://docs.example/caf%C3%A9/%C3%BC"),
    ("https://bücher.example/x", "https://bücher.example/x"),
    ("https://docs.example/a\"b'c", "https://docs.example/a%22b'c"),
    ("https://docs.example/{a}^`b`", "https://docs.example/%7Ba%7D%5E%60b%60"),
    ("https://docs.example/?q=<script>", "https://docs.example/?q=%3Cscript%3E"),
    ("https://docs.example/x#a#b", "https://docs.example/x#a%23b"),
    ("https://docs.example\\@evil.example/", "https://docs.example%5C@evil.example/"),
]
IDS = [url for url, _ in HOSTILE]


def cited(url: str) -> Answer:
    source = Source(id="s1", title="Guide 1", url=url)
    return Answer("Claim.[^1]", (Citation(n=1, source=source, source_number=1),))


def in_markdown(url: str) -> str:
    return url.replace("(", "%28").replace(")", "%29")


def hrefs(markup: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="([^"]*)"', markup)]


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_the_web_links_the_encoded_url(url: str, linked: str) -> None:
    payload = render("web", cited(url), CONTEXT)
    assert [h for h in hrefs(payload["html"]) if not h.startswith("#")] == [linked]
    entry = re.search(r'class="source-link" href="([^"]*)"', payload["html"])
    assert entry is not None and html.unescape(entry.group(1)) == linked
    assert payload["citations"][0]["url"] == linked


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_the_web_stream_offers_the_encoded_url(url: str, linked: str) -> None:
    citation = cited(url).citations[0]
    assert citation_href(citation, lambda source: None) == linked


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_email_links_the_encoded_url_in_both_parts(url: str, linked: str) -> None:
    payload = render("email", cited(url), CONTEXT)
    assert f"[1] Guide 1\n    {linked}\n" in payload["text"], payload["text"]
    # the marker and the source entry
    assert hrefs(payload["html"]) == [linked, linked]


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_slack_links_the_encoded_url(url: str, linked: str) -> None:
    message = render("slack", cited(url), CONTEXT)["messages"][0]
    written = linked.replace("&", "&amp;")
    assert message["blocks"][0]["text"]["text"] == f"Claim.<{written}|[1]>"
    assert message["blocks"][1]["elements"][0]["text"] == f"<{written}|[1] Guide 1>"


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_discord_links_the_encoded_url(url: str, linked: str) -> None:
    content = render("discord", cited(url), CONTEXT)["messages"][0]["content"]
    assert content.endswith(f"\\[1\\] [Guide 1](<{in_markdown(linked)}>)"), content


@pytest.mark.parametrize(("url", "linked"), HOSTILE, ids=IDS)
def test_discourse_links_the_encoded_url(url: str, linked: str) -> None:
    raw = render("discourse", cited(url), CONTEXT)["raw"]
    assert raw.endswith(f"[^1]: [Guide 1]({in_markdown(linked)})"), raw


def test_the_rule_keeps_what_a_url_may_hold_and_is_idempotent() -> None:
    for url, linked in HOSTILE:
        assert encoded_url(url) == linked
        assert encoded_url(linked) == linked


@pytest.mark.parametrize(
    ("url", "linked"),
    [
        # a bidi control and a line separator in the path: encoded as before
        ("https://docs.example/a\u202eb\u2028", "https://docs.example/a%E2%80%AEb%E2%80%A8"),
        # an invisible character in the host is encoded; an IDN's own letters are not
        ("https://b\u00fccher\u200b.example/", "https://b\u00fccher%E2%80%8B.example/"),
        # letters and symbols that show nothing or read as a path: encoded in the host too
        ("https://paypal.com\u3164.evil.example/", "https://paypal.com%E3%85%A4.evil.example/"),
        ("https://a\u115f\uffa0\u2800.example/", "https://a%E1%85%9F%EF%BE%A0%E2%A0%80.example/"),
        (
            "https://good.example\u2044login.evil.example/",
            "https://good.example%E2%81%84login.evil.example/",
        ),
        # the full stops that separate an IDN's labels stay
        ("https://\u4f8b\u3002\u5b50/", "https://\u4f8b\u3002\u5b50/"),
        ("https://[::1]:8443/a[1]", "https://[::1]:8443/a%5B1%5D"),
        ("mailto:help@docs.example?subject=a b", "mailto:help@docs.example?subject=a%20b"),
        ("https://u\u00e9:p@docs.example/", "https://u%C3%A9:p@docs.example/"),
    ],
)
def test_the_rule_on_hosts_users_and_invisible_characters(url: str, linked: str) -> None:
    assert encoded_url(url) == linked


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "javascript&#58;alert(1)",
        "jav&#x61;script:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "https:javascript:alert(1)",
    ],
)
@pytest.mark.parametrize("channel", CHANNELS)
def test_a_script_url_is_never_linked(channel: str, url: str) -> None:
    source = Source(id="s1", title="Guide 1", url=url)
    answer = Answer(
        f"Claim.[^1] See [the guide]({url.strip()}).",
        (Citation(n=1, source=source, source_number=1),),
    )
    payload = render(channel, answer, CONTEXT)
    assert _link_targets(_all_text(payload)) == [], payload


# a link as each channel writes one: an HTML href, Slack's "<url|" or "<url>", a Markdown
# "](url)" or "](<url>)", a text part's "<url>"
_TARGETS = re.compile(r'href="([^"]*)"|<([^<>|\s]+)[|>]|\]\(<?([^()<>\s]+)')


def _link_targets(text: str) -> list[str]:
    """Every link target written in ``text`` with a scheme other than http, https or mailto
    (a tag such as ``<head>`` has none)."""
    found = (next(g for g in m.groups() if g is not None) for m in _TARGETS.finditer(text))
    return [t for t in found if ":" in t and not t.lower().startswith(_SAFE)]


_SAFE = ("https://", "http://", "mailto:")


def _all_text(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_all_text(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_all_text(v) for v in value)
    return str(value)


@pytest.mark.parametrize(
    ("written", "linked"),
    [
        ("https://docs.example/%zz", "https://docs.example/%25zz"),
        ("<https://docs.example/a b|c>", "https://docs.example/a%20b%7Cc"),
    ],
)
@pytest.mark.parametrize("channel", CHANNELS)
def test_the_models_own_link_is_encoded_by_the_same_rule(
    channel: str, written: str, linked: str
) -> None:
    payload = render(channel, Answer(f"See [the guide]({written}).", ()), CONTEXT)
    expected = {
        "web": f'href="{linked}"',
        "email": f'href="{linked}"',
        "slack": f"<{linked}|the guide>",
        "discord": f"[the guide](<{linked}>)",
        "discourse": f"[the guide]({linked})",
    }[channel]
    assert expected in _all_text(payload), payload


def test_discourse_never_reads_an_entity_in_a_links_address() -> None:
    raw = render("discourse", cited("https://docs.example/?a=1&lt;b&c=2"), CONTEXT)["raw"]
    assert raw.endswith("[^1]: [Guide 1](https://docs.example/?a=1&amp;lt;b&c=2)"), raw


@pytest.mark.parametrize("channel", ["web", "email"])
def test_a_bare_url_in_the_answer_links_its_encoded_address(channel: str) -> None:
    payload = render(channel, Answer("See https://docs.example/a\\b|c{d} today.", ()), CONTEXT)
    assert hrefs(payload["html"]) == ["https://docs.example/a%5Cb%7Cc%7Bd%7D"]
    assert ">https://docs.example/a\\b|c{d}</a>" in payload["html"]  # shown as written
