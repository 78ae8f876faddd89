"""A quoted table row links its first cell, and shows its cells without the pipes.

The page a Markdown or HTML file is shown on renders a ``<table>``: the pipes of the row as the
passage holds it ("| Warehouse night shift | 22:00–06:00 | 8 hours |") are not on it, and a text
fragment cannot reach across its cells, so a link to the whole row left the browser at the top
of the page. The row's first cell is words the page has, in the row to scroll to.
"""

from __future__ import annotations

import pytest

from bot.deeplinks import deep_link, file_link
from bot.models import Source
from bot.table_rows import row_display, row_target
from renderers.quote_text import quote_html, quote_plain

ROW = "| Warehouse night shift | 22:00–06:00 | 8 hours |"
MARKDOWN = Source(id="o", filename="onboarding.md", path="/kb/onboarding.md")
HTML = Source(id="r", filename="returns.html", path="/kb/returns.html")
FILES = "http://127.0.0.1:8000/files/t0ken/onboarding.md"


@pytest.mark.parametrize("source", [MARKDOWN, HTML])
def test_a_quoted_row_links_its_first_cell(source: Source) -> None:
    assert file_link(FILES, source, ROW) == f"{FILES}#:~:text=Warehouse%20night%20shift"


def test_a_public_page_links_the_first_cell_of_a_row_too() -> None:
    for media in ("text/html", "text/markdown"):
        page = Source(id="p", url="https://docs.example/fees", media_type=media)
        link = deep_link(page, "| Pallet | 95 EUR |")
        assert link == "https://docs.example/fees#:~:text=Pallet"


def test_the_first_cell_is_read_as_the_page_shows_it() -> None:
    # Markdown in the cell: the page shows "Hotel room", an empty first cell is no target
    quote = "|  | **Hotel** `room` | 140 EUR |"
    assert row_target(quote) == "**Hotel** `room`"
    assert file_link(FILES, MARKDOWN, quote) == f"{FILES}#:~:text=Hotel%20room"


def test_rows_run_together_link_the_first_one() -> None:
    glued = "| Office | 10:00–15:00 | 8 hours | | Warehouse day shift | 06:00–14:00 | 8 hours |"
    assert file_link(FILES, MARKDOWN, glued) == f"{FILES}#:~:text=Office"


@pytest.mark.parametrize(
    "quote",
    [
        "Overtime must be approved in advance by your shift lead.",
        "Use a | between the two values.",
        "|",  # a pipe alone has no cell
    ],
)
def test_a_quote_that_is_no_row_is_linked_and_shown_as_before(quote: str) -> None:
    assert row_target(quote) is None
    assert row_display(quote) == quote


def test_a_quoted_row_shows_its_cells_without_pipes() -> None:
    assert quote_plain(ROW) == "Warehouse night shift · 22:00–06:00 · 8 hours"
    assert quote_html("| `retries` | 5 \\| 6 |") == "<code>retries</code> · 5 | 6"
    # two rows (and a delimiter between header and row) read one after the other
    assert quote_plain("| Team | Hours |\n|---|---|\n| Office | 8 |") == "Team · Hours Office · 8"
