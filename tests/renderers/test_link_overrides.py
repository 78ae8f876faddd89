"""``links``, ``masked_links`` and Discourse's ``footnotes`` change what each renderer writes.

Before, the three were validated and then read by nothing: a config with them rendered byte for
byte as without. ``links: false`` shows no URL (a page by its title, a file attached or named);
``masked_links: false`` shows the title and then the bare URL (the answer's own links too);
``footnotes: false`` gives a forum without the footnote plugin ``\\[n\\]`` markers and a numbered
"Sources" list.
"""

from __future__ import annotations

from typing import Any

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from tests.renderers.payload_checks import CHECKS

PAGE = Source(id="a", title="Install *guide*", url="https://docs.example/install_x?a=1&b=2", page=4)
FILE = Source(id="b", title="Prices", filename="prices.pdf", path="kb/prices.pdf",
              media_type="application/pdf")  # fmt: skip
ANSWER = Answer(
    text="Run it.[^1] See [the notes](https://docs.example/notes). Prices vary.[^2]",
    citations=(Citation(1, PAGE, 1), Citation(2, FILE, 2)),
)


def signer(source: Source) -> str | None:
    return "https://bot.example/f/tok" if source.path else None


def rendered(channel: str, **overrides: Any) -> dict[str, Any]:
    caps = capabilities_for(channel, overrides)
    payload = render(channel, ANSWER, RenderContext(capabilities=caps, signer=signer))
    CHECKS[channel](payload)
    return payload


def discord_text(payload: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in payload["messages"])


def slack_texts(payload: dict[str, Any]) -> list[str]:
    return [
        e["text"] if "elements" not in e else ""
        for m in payload["messages"]
        for b in m["blocks"]
        for e in ([b["text"]] if "text" in b else b.get("elements", []))
    ] + [
        e["text"] for m in payload["messages"] for b in m["blocks"] if b["type"] == "context"
        for e in b["elements"]
    ]  # fmt: skip


def test_discord_without_masked_links_shows_title_then_url() -> None:
    text = discord_text(rendered("discord", masked_links=False))
    assert (
        "\\[1\\] Install \\*guide\\* <https://docs.example/install_x?a=1&b=2> \u2014 p. 4" in text
    )
    assert "the notes (<https://docs.example/notes>)" in text
    assert "](" not in text  # no masked link anywhere
    # the file (Discord attaches it) is unchanged
    assert "\\[2\\] Prices (attached: prices.pdf)" in text


def test_discord_without_links_shows_no_url() -> None:
    payload = rendered("discord", links=False)
    text = discord_text(payload)
    assert "\\[1\\] Install \\*guide\\* \u2014 p. 4" in text
    assert "See the notes. Prices" in text
    assert "http" not in text
    assert [f["path"] for f in payload["files"]] == ["kb/prices.pdf"]


def test_slack_without_masked_links_shows_title_then_url() -> None:
    texts = slack_texts(rendered("slack", masked_links=False))
    assert "[1] Install *guide* <https://docs.example/install_x?a=1&amp;b=2> \u00b7 p. 4" in [
        t.replace("\u200d", "") for t in texts
    ]
    body = texts[0]
    assert "the notes (<https://docs.example/notes>)" in body
    assert "<https://docs.example/install_x" not in body  # the marker is "[1]", not a link
    assert not any("|" in t for t in texts)


def test_slack_without_links_shows_no_url() -> None:
    texts = slack_texts(rendered("slack", links=False))
    assert all("http" not in t for t in texts)
    assert "See the notes. Prices" in texts[0]


def test_discourse_without_masked_links_defines_title_then_url() -> None:
    raw = rendered("discourse", masked_links=False)["raw"]
    assert "[^1]: Install \\*guide\\* <https://docs.example/install_x?a=1&b=2>, p. 4" in raw
    assert "[^2]: Prices: [prices.pdf|attachment](citecast-upload://2)" in raw  # an upload
    assert "the notes (<https://docs.example/notes>)" in raw


def test_discourse_without_links_shows_no_url() -> None:
    payload = rendered("discourse", links=False)
    assert "http" not in payload["raw"]
    assert "[^1]: Install \\*guide\\*, p. 4" in payload["raw"]
    assert [u["path"] for u in payload["uploads"]] == ["kb/prices.pdf"]


def test_discourse_without_footnotes_numbers_markers_and_lists_sources() -> None:
    payload = rendered("discourse", footnotes=False)
    assert payload["raw"] == (
        "Run it.\\[1\\] See [the notes](https://docs.example/notes). Prices vary.\\[2\\]\n\n"
        "**Sources**\n"
        "- \\[1\\] [Install \\*guide\\*](https://docs.example/install_x?a=1&b=2), p. 4\n"
        "- \\[2\\] Prices: [prices.pdf|attachment](citecast-upload://2)"
    )
    assert payload["uploads"][0]["placeholder"] == "citecast-upload://2"


def test_discourse_without_footnotes_or_masked_links() -> None:
    raw = rendered("discourse", footnotes=False, masked_links=False)["raw"]
    assert "- \\[1\\] Install \\*guide\\* <https://docs.example/install_x?a=1&b=2>, p. 4" in raw
    assert "[^" not in raw
