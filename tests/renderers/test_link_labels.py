"""What a link shows when its label is empty, and links in the e-mail subject.

A link whose label was only a citation ("see [[^1]](https://…)") loses the citation to the text
after it (links do not nest), which left nothing to show: Discord, Discourse and the e-mail text
labelled it "image", and the web wrote an empty ``<a>`` no one can see or click.
"""

from __future__ import annotations

import re

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.escaping import discord_label
from renderers.preview import preview_page

GUIDE = Citation(1, Source(id="g", title="Setup guide", url="https://docs.example/setup"), 1)
LINKED_MARKER = Answer(
    text="See [[^1]](https://docs.example/setup) for the steps.", citations=(GUIDE,)
)


def shown_text(channel: str, answer: Answer) -> str:
    payload = render(channel, answer)
    if channel == "web":
        return str(payload["html"])
    if channel == "slack":
        return str(payload["messages"][0]["blocks"][0]["text"]["text"])
    if channel == "discord":
        return str(payload["messages"][0]["content"])
    if channel == "email":
        return str(payload["text"])
    return str(payload["raw"])


@pytest.mark.parametrize("channel", ["web", "slack", "email", "discord", "discourse"])
def test_a_link_labelled_only_by_a_citation_shows_its_address(channel: str) -> None:
    text = shown_text(channel, LINKED_MARKER).split("for the steps", 1)[0]
    assert "image" not in text
    assert "https://docs.example/setup" in text
    # the citation still follows it
    assert re.search(r"\[\^?1\\?\]", text) or "[1]</a></sup>" in text


def test_the_web_writes_no_empty_link() -> None:
    html = shown_text("web", LINKED_MARKER)
    assert re.search(r"<a [^>]*></a>", html) is None
    assert (
        '<a href="https://docs.example/setup" rel="noopener noreferrer">https://docs.example/setup</a>'
        in html
    )


@pytest.mark.parametrize("channel", ["web", "email", "discord", "discourse"])
def test_an_image_without_alt_text_is_still_called_image(channel: str) -> None:
    text = shown_text(channel, Answer(text="Look: ![](https://img.example/a.png) there."))
    assert "image" in text


def test_the_email_subject_shows_a_links_words_not_its_address() -> None:
    answer = Answer(
        text="Follow [the setup guide](https://docs.example/setup) to install [^1].\n\nMore.",
        citations=(GUIDE,),
    )
    assert render("email", answer)["subject"] == "Follow the setup guide to install."
    # the text part still gives the address
    assert "the setup guide <https://docs.example/setup>" in render("email", answer)["text"]


def test_a_discord_label_ending_in_a_backslash_still_ends_the_link() -> None:
    # "[C:\\](<url>)": where "\\]" escapes the bracket the label would not end and the whole
    # link showed as text (as the preview drew it, following CommonMark)
    assert not discord_label("Paths like C:\\").endswith("\\")
    source = Citation(
        1, Source(id="w", title="Windows paths C:\\", url="https://docs.example/win"), 1
    )
    page = preview_page(Answer(text="Use a drive letter [^1].", citations=(source,)))
    discord = page.split('data-channel="discord"', 1)[1].split("</section>", 1)[0]
    assert re.search(r'<a href="https://docs.example/win"[^>]*>Windows paths C:\\', discord)


def test_the_email_text_part_writes_addresses_a_mail_client_links_whole() -> None:
    # "https://files.example/My Guide.pdf" written as is: a mail client links only up to the space
    spaced = Citation(
        1, Source(id="s", title="My Guide", url="https://files.example/My Guide.pdf"), 1
    )
    answer = Answer(
        text="Read [the guide](<https://files.example/My Guide.pdf>) first [^1].",
        citations=(spaced,),
    )
    text = render("email", answer)["text"]
    assert "the guide <https://files.example/My%20Guide.pdf>" in text
    assert "    https://files.example/My%20Guide.pdf\n" in text
    assert "My Guide.pdf" not in text
    # the HTML part links the same address as the text part (renderers.email)
    html = render("email", answer)["html"]
    assert (
        html.count('href="https://files.example/My%20Guide.pdf"') == 3
        and "My Guide.pdf" not in html
    )


@pytest.mark.parametrize(
    ("channel", "expected"),
    [
        ("slack", "<https://x.example/qa|Q&amp;A &lt;guide&gt;>"),  # Slack shows "Q&A <guide>"
        ("email", "Q&A <guide> <https://x.example/qa>"),
        ("discord", "[Q&A <guide>](<https://x.example/qa>)"),
        ("discourse", "[Q&A \\<guide\\>](https://x.example/qa)"),
        (
            "web",
            '<a href="https://x.example/qa" rel="noopener noreferrer">Q&amp;A &lt;guide&gt;</a>',
        ),
    ],
)
def test_a_link_label_shows_the_characters_its_entities_stand_for(
    channel: str, expected: str
) -> None:
    # "Q&amp;A" in a label showed as "Q&amp;A" in Slack, Discord and the e-mail's text part
    text = shown_text(channel, Answer(text="See [Q&amp;A &lt;guide&gt;](https://x.example/qa)."))
    assert expected in text
