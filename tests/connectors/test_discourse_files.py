"""Discourse files: allowed uploads, configured extensions and the signed-link fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.discourse_harness import (
    GUIDE,
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


@pytest.mark.parametrize(
    ("status", "times"),
    [(413, 1), (403, 1), (502, 3)],  # a proxy's body limit, a denial, an outage past 3 tries
    ids=["body-too-large", "forbidden", "outage"],
)
async def test_a_failed_upload_still_posts_the_answer(
    harness: Harness, tmp_path: Path, status: int, times: int
) -> None:
    harness.script([*file_sources(tmp_path)[:1], GUIDE], "Sales grew [1]. Install with pip [2].")
    harness.forum.fail("/uploads.json", status=status, times=times)
    first = harness.forum.new_topic("Files", "How did sales go?", category_id=PUBLIC)
    await harness.deliver(first)
    posted = only_post(harness.forum)["raw"]
    refs, links = footnotes(posted)
    assert refs == ["1", "2"] and links["1"] == []
    assert "[^1]: Sales chart: chart.png" in posted.splitlines()
    assert links["2"] == [("Install guide", GUIDE.url)]
    assert "upload://" not in posted
    uploads = [s for _, path, s in harness.forum.requests if path == "/uploads.json"]
    assert uploads == [status] * times
    [turn] = harness.store.turns(f"discourse-topic-{first['topic_id']}")
    assert turn.status == "done"


async def test_a_failed_upload_falls_back_to_a_signed_link(
    harness: Harness, tmp_path: Path
) -> None:
    harness.connector.services.signer = StaticSigner()
    harness.script(file_sources(tmp_path)[:1], "Sales grew [1].")
    harness.forum.fail("/uploads.json", status=413)
    first = harness.forum.new_topic("Files", "How did sales go?", category_id=PUBLIC)
    await harness.deliver(first)
    _, links = footnotes(only_post(harness.forum)["raw"])
    assert links["1"] == [("chart.png", "https://citecast.example/files/chart-public")]
