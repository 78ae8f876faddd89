"""Discourse files: allowed uploads, configured extensions and the signed-link fallback."""

from __future__ import annotations

from pathlib import Path

from bot.models import Source
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    footnotes,
    forum,
    harness,
    make_harness,
    only_post,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


def file_sources(tmp_path: Path) -> list[Source]:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"\x89PNG chart")
    sheet = tmp_path / "prices.xlsx"
    sheet.write_bytes(b"PK sheet")
    return [
        Source(id="chart", title="Sales chart", path=str(chart), filename="chart.png",
               media_type="image/png", kind="file"),
        Source(id="sheet", title="Price list", path=str(sheet), filename="prices.xlsx",
               media_type="application/vnd.ms-excel", kind="file"),
    ]  # fmt: skip


async def test_allowed_files_are_uploaded_and_others_shown_by_name(
    harness: Harness, tmp_path: Path
) -> None:
    harness.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
    first = harness.forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    [upload] = harness.forum.uploads
    assert upload.filename == "chart.png"
    refs, links = footnotes(posted)
    assert refs == ["1", "2"]
    assert any(url == upload.short_url for _, url in links["1"])
    assert links["2"] == []
    assert "[^2]: Price list: prices.xlsx" in posted.splitlines()
    assert posted.count("upload://") == 1


async def test_configured_extensions_restrict_uploads(forum: FakeDiscourse, tmp_path: Path) -> None:
    h = await make_harness(forum, tmp_path, allowed_upload_extensions=["pdf"])
    try:
        h.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
        first = forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
        await h.deliver(first)
        posted = only_post(forum)["raw"]
        assert forum.uploads == []
        assert "upload://" not in posted
        assert "chart.png" in posted or "Sales chart" in posted
        assert [path for _, path, _ in forum.requests if path == "/uploads.json"] == []
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


class StaticSigner:
    """Stands in for FileSigner: a predictable signed link per source."""

    def url_for(self, source: Source, audience: frozenset[str]) -> str | None:
        return f"https://citecast.example/files/{source.id}-{'-'.join(sorted(audience))}"

    def turn_key(self, turn_id: int) -> str:
        return f"{turn_id}-signed"


async def test_a_refused_file_falls_back_to_a_signed_link(harness: Harness, tmp_path: Path) -> None:
    harness.connector.services.signer = StaticSigner()
    harness.script(file_sources(tmp_path), "Sales grew [1]. Prices are listed [2].")
    first = harness.forum.new_topic("Files", "Where are the numbers?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    _, links = footnotes(posted)
    [upload] = harness.forum.uploads
    assert links["1"] == [("chart.png|attachment", upload.short_url)]
    assert links["2"] == [("prices.xlsx", "https://citecast.example/files/sheet-public")]
    assert "citecast-upload://" not in posted
