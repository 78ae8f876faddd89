"""The email text part: a citation written inside a link's text follows the link.

It used to stay inside the label, before the URL ("the guide [1] <https://…>"), written from
the label's plain text, so a weak citation lost its "?" there ("[1]" where every other marker
of it reads "[1?]").
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render

GUIDE = Source(id="g", title="Guide", url="https://docs.example/g")


def text_part(text: str, support: float | None = None) -> str:
    citation = Citation(n=1, source=GUIDE, source_number=1, support=support)
    payload = render("email", Answer(text=text, citations=(citation,)))
    return str(payload["text"]).split("\n\nSources\n", 1)[0].strip()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See [the guide [^1]](https://docs.example/x) now.",
         "See the guide <https://docs.example/x>[1] now."),
        ("See [the *guide*[^1]](https://docs.example/x).",
         "See the guide <https://docs.example/x>[1]."),
        # the label is the URL: the marker is set apart, or a mail client links it with the URL
        ("See [https://docs.example/x[^1]](https://docs.example/x) now.",
         "See https://docs.example/x [1] now."),
        # an unsafe link shows its label; the marker still follows it
        ("Run [this [^1]](javascript:alert(1)).", "Run this[1]."),
    ],
)  # fmt: skip
def test_a_citation_in_a_link_label_follows_the_link(text: str, expected: str) -> None:
    assert text_part(text) == expected


def test_a_weak_citation_in_a_link_label_reads_as_weak() -> None:
    shown = text_part("See [the guide [^1]](https://docs.example/x).", support=0.1)
    assert shown == "See the guide <https://docs.example/x>[1?]."


def test_a_link_without_citations_is_unchanged() -> None:
    assert text_part("See [the guide](https://docs.example/x).[^1]") == (
        "See the guide <https://docs.example/x>.[1]"
    )
