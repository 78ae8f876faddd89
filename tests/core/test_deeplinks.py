"""Deep links: #page=N for PDFs, text fragments for web and text sources."""

from __future__ import annotations

import pytest

from bot.deeplinks import deep_link, encode_fragment_text, is_pdf, text_fragment
from bot.models import Source


def test_pdf_gets_page_link_and_loses_old_fragment() -> None:
    source = Source("m", url="https://x.test/manual.pdf#old", page=7)
    assert deep_link(source, "any quote") == "https://x.test/manual.pdf#page=7"


def test_pdf_by_media_type_without_pdf_suffix() -> None:
    source = Source("m", url="https://x.test/download?id=3", media_type="application/pdf", page=2)
    assert is_pdf(source)
    assert deep_link(source) == "https://x.test/download?id=3#page=2"


def test_pdf_without_page_has_no_deep_link() -> None:
    assert deep_link(Source("m", url="https://x.test/manual.pdf")) is None


def test_html_quote_becomes_text_fragment() -> None:
    source = Source("h", url="https://x.test/guide", media_type="text/html")
    assert deep_link(source, "Install  the\npackage") == (
        "https://x.test/guide#:~:text=Install%20the%20package"
    )


def test_reserved_characters_are_percent_encoded() -> None:
    assert encode_fragment_text("a-b, c & d") == "a%2Db%2C%20c%20%26%20d"
    assert encode_fragment_text("naïve 100%") == "na%C3%AFve%20100%25"


def test_long_quote_uses_start_end_form() -> None:
    quote = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    quote = quote.replace("five", "five fifteen sixteen seventeen eighteen")
    assert len(quote) > 80
    assert text_fragment(quote) == (
        ":~:text=one%20two%20three%20four,eleven%20twelve%20thirteen%20fourteen"
    )


def test_fragment_longer_than_cap_is_left_out() -> None:
    # even the first and last word alone are too long (six encoded characters an omega)
    quote = " ".join(f"{'Ω' * 60}{n}" for n in range(12))
    assert text_fragment(quote) is None
    assert deep_link(Source("h", url="https://x.test/p"), quote) is None


@pytest.mark.parametrize(
    "source",
    [
        Source("no-url", media_type="text/html"),
        Source("mail", url="mailto:a@b.test"),
        Source("image", url="https://x.test/a.png", media_type="image/png"),
    ],
)
def test_no_deep_link_without_a_linkable_text_source(source: Source) -> None:
    assert deep_link(source, "some words") is None


def test_web_page_without_quote_has_no_deep_link() -> None:
    assert deep_link(Source("h", url="https://x.test/p")) is None
    assert text_fragment("   ") is None
