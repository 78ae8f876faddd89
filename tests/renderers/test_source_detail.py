"""A source's page and section as every channel shows them, without repeating the title."""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render_all
from renderers.base import RenderContext, section_below_title, source_detail

GUIDE = "Getting started"


@pytest.mark.parametrize(
    ("title", "section", "shown"),
    [
        (GUIDE, "Getting started > Install > Linux", "Install > Linux"),
        (GUIDE, "getting STARTED  > Install", "Install"),  # case and spaces do not matter
        (GUIDE, "Getting started", None),  # only the title: nothing to add
        (GUIDE, "Administration > Getting started", "Administration > Getting started"),
        (GUIDE, "Getting started again > Install", "Getting started again > Install"),
        # the heading's words inside the title, together and whole
        ("citecast security model", "Security model > Signed links", "Signed links"),
        ("citecast security model", "Model > Links", "Links"),
        ("citecast security model", "Model security > Links", "Model security > Links"),
        ("Settings guide", "Set > Up", "Set > Up"),
        ("Settings guide", "> Up", "> Up"),  # no words: nothing is repeated
        (GUIDE, None, None),
    ],
)
def test_the_first_heading_is_dropped_only_when_it_is_the_title(
    title: str, section: str | None, shown: str | None
) -> None:
    assert section_below_title(Source(id="s", title=title, section=section)) == shown


def test_the_detail_keeps_pages_and_drops_the_repeated_title() -> None:
    source = Source(id="s", title=GUIDE, section=f"{GUIDE} > Install", page=3, page_end=4)
    assert source_detail(source) == "pp. 3\u20134, Install"
    assert source_detail(Source(id="t", title=GUIDE, section=GUIDE, page=2)) == "p. 2"


def test_no_channel_repeats_the_title_in_its_source_list() -> None:
    source = Source(
        id="g", title=GUIDE, url="https://docs.example/start", section=f"{GUIDE} > Install > Linux"
    )
    answer_text = "Install the venv package first.[^1]"
    payloads = render_all(
        Answer(text=answer_text, citations=(Citation(1, source, 1),)),
        RenderContext(public_base_url="https://bot.example"),
    )
    shown = {
        "web": payloads["web"]["html"],
        "slack": str(payloads["slack"]["messages"]),
        "email": payloads["email"]["text"] + payloads["email"]["html"],
        "discord": str(payloads["discord"]["messages"]),
        "discourse": payloads["discourse"]["raw"],
    }
    for channel, text in shown.items():
        assert "Install" in text and "Linux" in text, channel
        assert f"{GUIDE} &gt; Install" not in text and f"{GUIDE} > Install" not in text, channel
        assert f"{GUIDE} \\> Install" not in text, channel
