"""A quoted table row reaches the web client with ``display_quote``, its cells as a reader of
the page sees them, beside the passage's own ``quote``: in the answer's citations, in the
streamed ``citation`` events, in the renderer's citations and in a stored conversation.

The chat's tooltips showed ``quote`` as sent, so a row read ``| Pallet | 95 EUR |`` there (and
to a screen reader, as the number's description) while the source list showed its cells.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.connectors.web_client_json import client_citation_json
from bot.models import Answer, Citation, Occurrence
from tests.connectors.web.conftest import CannedAnswerer, build_harness, parse_sse, passage

ROW = "| Pallet | 95 EUR |"
SHOWN = "Pallet · 95 EUR"
PROSE = "Passage number 2 explains the setup."


def row_answer() -> Answer:
    row = Citation(n=1, source=passage(1, text=ROW), source_number=1, quote=ROW)
    prose = Citation(n=2, source=passage(2), source_number=2, quote=PROSE)
    return Answer(text="A pallet costs 95 EUR.[^1] It is set up so.[^2]\n", citations=(row, prose))


def by_n(citations: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {c["n"]: c for c in citations}


async def test_the_answer_and_the_rendered_citations_carry_the_row_as_shown(
    tmp_path: Path,
) -> None:
    services, client = build_harness(tmp_path, CannedAnswerer(row_answer()))
    async with client:
        payload = (await client.post("/api/ask", json={"question": "Pallet fee?"})).json()
        stored = (await client.get(f"/api/conversations/{payload['conversation_id']}")).json()
    services.store.close()
    for body in (payload, stored["turns"][0]):
        answer = by_n(body["answer"]["citations"])
        # the cited text stays as it was cited; the display form is beside it
        assert answer[1]["quote"] == ROW
        assert answer[1]["display_quote"] == SHOWN
        assert "display_quote" not in answer[2]
        rendered = by_n(body["citations"])
        assert rendered[1]["display_quote"] == SHOWN
        assert "display_quote" not in rendered[2]


async def test_a_streamed_citation_carries_the_row_as_shown(tmp_path: Path) -> None:
    services, client = build_harness(tmp_path, CannedAnswerer(row_answer()))
    async with client:
        response = await client.get("/api/ask/stream", params={"question": "Pallet fee?"})
    services.store.close()

    cited = by_n([data for name, data in parse_sse(response.text) if name == "citation"])
    assert (cited[1]["quote"], cited[1]["display_quote"]) == (ROW, SHOWN)
    assert "display_quote" not in cited[2]


def test_each_marker_s_own_quoted_row_is_shown_as_its_cells() -> None:
    citation = Citation(
        n=1,
        source=passage(1, text="| Parcel | 8 EUR |\n| Pallet | 95 EUR |"),
        source_number=1,
        quote="| Parcel | 8 EUR |",
        occurrences=(Occurrence(quote="| Parcel | 8 EUR |"), Occurrence(quote=ROW)),
    )
    data = client_citation_json(citation)
    assert data["display_quote"] == "Parcel · 8 EUR"
    assert [o.get("display_quote") for o in data["occurrences"]] == ["Parcel · 8 EUR", SHOWN]
    assert [o["quote"] for o in data["occurrences"]] == ["| Parcel | 8 EUR |", ROW]
