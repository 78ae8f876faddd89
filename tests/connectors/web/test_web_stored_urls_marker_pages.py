"""A stored answer relinked at its file's new URL (``web_stored_urls.relinked``) keeps each
marker on its own page: the second sentence of a pp. 1–2 passage still opens page 2."""

from __future__ import annotations

from bot.connectors.web_stored_urls import relinked
from bot.models import Citation, Occurrence, Source

OLD, NEW = "https://old.example/handbook.pdf", "https://docs.example/handbook.pdf"


def test_a_relinked_marker_keeps_its_own_page() -> None:
    source = Source(
        id="kb/handbook.pdf#1", url=OLD, media_type="application/pdf", page=1, page_end=2
    )
    first = Occurrence("Leave is 25 days.", f"{OLD}#page=1", 1.0, page=1)
    second = Occurrence("It expires in March.", f"{OLD}#page=2", 1.0, page=2)
    across = Occurrence("Both pages.", f"{OLD}#page=1", 1.0, page=1, page_end=2)
    citation = Citation(
        n=1, source=source, source_number=1, quote=first.quote, occurrences=(first, second, across)
    )
    moved = relinked(citation, NEW)
    assert [o.deep_link for o in moved.occurrences] == [
        f"{NEW}#page=1",
        f"{NEW}#page=2",
        f"{NEW}#page=1",
    ]
    assert [(o.page, o.page_end) for o in moved.occurrences] == [(1, None), (2, None), (1, 2)]
