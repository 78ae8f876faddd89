"""``file_link``: a signed ``/files/`` URL that opens at the cited place of its file."""

from __future__ import annotations

from bot.deeplinks import file_link
from bot.models import Source

URL = "http://citecast.test/files/abc.def"


def source(name: str, page: int | None = None, media_type: str | None = None) -> Source:
    return Source(
        id=name, path=f"/kb/{name}", filename=name, kind="file", page=page, media_type=media_type
    )


def test_a_markdown_quote_becomes_the_text_fragment_of_what_the_page_shows() -> None:
    link = file_link(URL, source("guide.md"), "Run `make serve` to start **now**, then stop.")
    assert link == f"{URL}#:~:text=Run%20make%20serve%20to%20start%20now%2C%20then%20stop."


def test_html_and_text_quotes_are_encoded_as_the_spec_requires() -> None:
    for name in ("page.html", "notes.txt"):
        link = file_link(URL, source(name), "a well-known, safe & sound fact")
        assert link == f"{URL}#:~:text=a%20well%2Dknown%2C%20safe%20%26%20sound%20fact"


def test_a_long_quote_uses_its_first_and_last_words() -> None:
    quote = " ".join(f"word{i}" for i in range(30))
    link = file_link(URL, source("notes.txt"), quote)
    assert link == f"{URL}#:~:text=word0%20word1%20word2%20word3,word26%20word27%20word28%20word29"


def test_a_pdf_opens_at_its_page_and_other_files_keep_the_plain_url() -> None:
    assert file_link(URL, source("manual.pdf", page=7), "any quote") == f"{URL}#page=7"
    assert file_link(URL, source("manual.pdf"), "any quote") == URL
    assert file_link(URL, source("products.csv"), "any quote") == URL
    assert file_link(URL, source("guide.md"), None) == URL
    typed = source("README", media_type="text/markdown; charset=utf-8")
    assert file_link(URL, typed, "**bold** words") == f"{URL}#:~:text=bold%20words"
