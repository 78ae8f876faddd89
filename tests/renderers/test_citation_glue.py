"""A citation marker stays on the line of the word it cites, in every channel.

Answers write "works [^1]." with an ordinary space, where a line may wrap, and the chat showed
"[1]" opening the next line alone. HTML writes the superscript right after the word with a word
joiner inside it; text channels write a no-break space (renderers.glue).
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

NBSP = "\u00a0"
WJ = "\u2060"
GUIDE = Citation(1, Source(id="g", title="Setup guide", url="https://docs.example/setup"), 1)
FILE = Citation(2, Source(id="f", title="Notes", path="kb/notes.md", filename="notes.md"), 2)


def answer(text: str) -> Answer:
    return Answer(text=text, citations=tuple(c for c in (GUIDE, FILE) if f"[^{c.n}]" in text))


def body(channel: str, text: str, context: RenderContext | None = None) -> str:
    """The answer's text as the channel sends it (before the source list)."""
    payload = render(channel, answer(text), context)
    if channel == "web":
        return str(payload["html"]).split('<section class="sources"', 1)[0]
    if channel == "email":
        return str(payload["html"]).split(">Sources</h2>", 1)[0] + str(payload["text"])
    if channel == "slack":
        return "\n".join(
            b["text"]["text"] for m in payload["messages"] for b in m["blocks"] if "text" in b
        )
    if channel == "discord":
        return str(payload["messages"][0]["content"]).split("**Sources**", 1)[0]
    return str(payload["raw"]).split("\n\n[^1]:", 1)[0]


def test_html_writes_the_superscript_right_after_the_word_held_by_a_joiner() -> None:
    web = body("web", "It works [^1]. Then [^2] it ends.[^1]")
    assert 'It works<sup class="citation">' + WJ + "<a " in web
    assert 'Then<sup class="citation">' + WJ + "<a " in web
    assert 'ends.<sup class="citation">' + WJ + "<a " in web  # a break after "." is allowed
    assert " <sup" not in web
    email = body("email", "It works [^1]. Then [^2] it ends.")
    assert 'It works<sup style="font-size:11px;line-height:0;">' + WJ + "<a " in email
    assert 'Then<sup style="font-size:11px;line-height:0;">' + WJ + "<a " in email
    assert " <sup" not in email


@pytest.mark.parametrize(
    ("channel", "marker"),
    [
        ("slack", "<https://docs.example/setup|[1]>"),
        ("discord", "\\[1\\]"),
        ("discourse", "[^1]"),
        ("email", "[1]"),  # the text part
    ],
)
def test_text_channels_hold_the_marker_with_a_no_break_space(channel: str, marker: str) -> None:
    text = body(channel, "It works [^1].")
    assert f"It works{NBSP}{marker}." in text
    assert f"works {marker}" not in text


@pytest.mark.parametrize("channel", ["slack", "discord", "discourse", "email"])
def test_a_url_keeps_its_ordinary_space_before_the_marker(channel: str) -> None:
    # a no-break space might be taken into the address by the platform's link detection
    text = body(channel, "Download it from https://get.example/dl [^1] today.")
    assert f"dl{NBSP}" not in text
    assert "https://get.example/dl " in text


def test_slack_keeps_an_ordinary_space_after_bold_text() -> None:
    # Slack ends bold or italic text only before an ordinary space
    text = body("slack", "It **works** [^1] and *runs* [^1].")
    assert "*works* <https://docs.example/setup|[1]>" in text
    assert "_runs_ <https://docs.example/setup|[1]>" in text


def test_markers_after_a_marker_may_still_wrap() -> None:
    # a dozen glued markers would be one stretch wider than a phone: only the first is held
    text = body("discord", "Sources agree [^1] [^2].")
    assert f"agree{NBSP}\\[1\\] \\[2\\]." in text


@pytest.mark.parametrize("channel", ["web", "slack", "email", "discord", "discourse"])
def test_streamed_render_glues_as_the_one_shot_render(channel: str) -> None:
    done = answer(
        "It works [^1].\n\nSee https://get.example/dl [^2] and notes [^2]. "
        "Run `make serve` [^1] as **the guide** [^2] says."
    )
    context = RenderContext(public_base_url="https://bot.example", turn_id="t1")
    stream = StreamRenderer(channel, context)
    stream.feed([CitationAdded(c) for c in done.citations])
    for start in range(0, len(done.text), 3):
        stream.feed([TextDelta(done.text[start : start + 3])])
    assert stream.finish(done) == render(channel, done, context)


def test_the_slack_fallback_text_holds_the_marker_as_the_blocks_do() -> None:
    # the notification text too: "works [1]" was written with an ordinary space
    payload = render(
        "slack", answer("It works [^1]. See https://get.example/dl [^2], **it** [^1].")
    )
    fallback = payload["messages"][0]["text"]
    assert fallback == f"It works{NBSP}[1]. See https://get.example/dl [2], it [1]."


def test_html_glues_after_code_formatting_and_links_too() -> None:
    # "<code>x</code> <sup>" could wrap there; Slack's reason for the space has no HTML analogue
    text = (
        "Run `make serve` [^1], **then** [^2] *wait* [^1] ~~or not~~ [^2] "
        "per [the guide](https://docs.example/g) [^1]."
    )
    web = body("web", text)
    for before in ("</code>", "</strong>", "</em>", "</del>", "</a>"):
        assert f'{before}<sup class="citation">{WJ}<a ' in web, before
    assert " <sup" not in web
    email = body("email", text).split("</html>", 1)[0]
    for before in ("</code>", "</strong>", "</em>", "</del>", "</a>"):
        assert f'{before}<sup style="font-size:11px;line-height:0;">{WJ}' in email, before
    assert " <sup" not in email


def test_html_does_not_glue_after_markup_that_ends_in_its_own_marker() -> None:
    # "*works [^1]* [^2]": a marker after a marker may wrap, as in "[^1] [^2]"
    web = body("web", "It *works [^1]* [^2] and [the guide [^1]](https://docs.example/g) [^2].")
    assert web.count('</em> <sup class="citation">') == 1
    assert web.count('</a></sup> <sup class="citation">') == 1


@pytest.mark.parametrize("channel", ["slack", "discord", "discourse"])
def test_text_channels_keep_the_ordinary_space_after_code(channel: str) -> None:
    text = body(channel, "Run `make serve` [^1] now.")
    assert f"`{NBSP}" not in text
    assert "` " in text
