"""A record table made private (or removed from the config) after one of its records was cited:
the share page shows the answer no more, and a reload of the conversation shows the record by
name only, without its columns or its action, as it does for a file made private. The steps of
the QA pass, over the real app with the built-in answerer and a restart between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.config_file import parse_settings
from bot.connectors.app import build_app
from bot.connectors.web_file_access import as_now, removed, visible_now
from bot.connectors.web_viewer_links import IndexedFiles
from bot.models import Answer, Citation, RecordAction, Source
from bot.runtime import Services
from bot.store import Store
from renderers.base import RenderContext, capabilities_for, citation_form

PRICES = "sku,name,price\nPX-300,Alpha pump,1249 EUR\nPX-400,Beta pump,1890 EUR\n"
QUESTION = "What does the Alpha pump cost?"
PRICE = "1249"
REMOVED = "(no longer available)"
PUBLIC, STAFF = frozenset({"public"}), frozenset({"public", "staff"})


def settings_with(tmp_path: Path, tables: list[dict[str, Any]]) -> Settings:
    return parse_settings(
        {
            "store": {"path": str(tmp_path / "store.db")},
            "index": {"path": str(tmp_path / "index.db"), "records": tables},
            "web": {"file_secret": "test-secret-0123456789abcdef"},
        }
    )


def prices_table(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    csv = tmp_path / "prices.csv"
    csv.write_text(PRICES, encoding="utf-8")
    return {
        "name": "prices",
        "csv": str(csv),
        "id_column": "sku",
        "label_column": "name",
        "columns": ["price"],
        "action_url_template": "https://shop.example.com/item/{sku}",
        **extra,
    }


def started(settings: Settings) -> tuple[Services, httpx.AsyncClient]:
    """The app as ``citecast serve`` starts it with ``settings`` (the store kept between)."""
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=Assistant.from_settings(settings),
    )
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    transport = httpx.ASGITransport(app=app)
    return services, httpx.AsyncClient(transport=transport, base_url="http://citecast.test")


async def reloaded(client: httpx.AsyncClient, conversation: str) -> dict[str, Any]:
    response = await client.get(f"/api/conversations/{conversation}")
    assert response.status_code == 200, response.text
    [turn] = response.json()["turns"]
    return dict(turn)


async def test_a_record_of_a_table_made_private_is_no_longer_shared_or_shown(
    tmp_path: Path,
) -> None:
    services, client = started(settings_with(tmp_path, [prices_table(tmp_path)]))
    async with client:
        response = await client.post("/api/ask", json={"question": QUESTION})
        assert response.status_code == 200, response.text
        body = response.json()
        [citation] = body["citations"]
        assert citation["title"] == "Alpha pump" and PRICE in response.text
        share_path = body["share_url"].removeprefix("http://citecast.test")
        shared = await client.get(share_path, headers={"accept": "text/html"})
        assert shared.status_code == 200 and PRICE in shared.text
    services.store.close()

    for tables in ([prices_table(tmp_path, audience=["staff"])], []):
        services, client = started(settings_with(tmp_path, tables))
        async with client:
            shared = await client.get(share_path, headers={"accept": "text/html"})
            assert shared.status_code == 404 and PRICE not in shared.text
            turn = await reloaded(client, body["conversation_id"])
            [shown] = turn["citations"]
            assert shown["title"] == f"Alpha pump {REMOVED}", shown
            # the asker's own answer text stays (they have read it), its source goes
            [stored] = turn["answer"]["citations"]
            assert PRICE not in str([shown, stored["source"]])
            assert "shop.example.com" not in str(turn)
        services.store.close()


def test_the_rule_follows_the_table_as_configured_now(tmp_path: Path) -> None:
    record = Source(
        id="prices/PX-300",
        kind="record",
        label="Alpha pump",
        columns={"price": "1249 EUR"},
        action=RecordAction(label="Open", url="https://shop.example.com/item/PX-300"),
    )
    index = tmp_path / "index.db"
    public = IndexedFiles(index, settings_with(tmp_path, [prices_table(tmp_path)]).index.records)
    staff_only = IndexedFiles(
        index, settings_with(tmp_path, [prices_table(tmp_path, audience=["staff"])]).index.records
    )
    assert visible_now(public, PUBLIC)(record)
    assert not visible_now(staff_only, PUBLIC)(record) and visible_now(staff_only, STAFF)(record)
    assert not visible_now(IndexedFiles(index), STAFF)(record)  # no such table any more

    answer = Answer("Alpha costs 1249 EUR.[^1]", (Citation(n=1, source=record, source_number=1),))
    assert as_now(answer, public, None, PUBLIC) is answer
    [gone] = as_now(answer, staff_only, None, PUBLIC).citations
    assert gone.source.title == f"Alpha pump {REMOVED}"
    assert (gone.source.columns, gone.source.action) == (None, None)


def test_a_removed_file_named_by_its_file_name_is_named_once(tmp_path: Path) -> None:
    pdf = Source(id="kb/handbook.pdf#1", filename="handbook.pdf", path=str(tmp_path / "h.pdf"))
    gone = removed(Citation(n=1, source=pdf, source_number=1, quote="leave"))
    form = citation_form(gone, capabilities_for("web"), RenderContext())
    assert form.title == f"handbook.pdf {REMOVED}" and form.filename is None
