"""A file uploaded to Discourse is stored under the name its post lists.

Rack percent-decodes an upload's ``filename`` when every ``%`` in it starts a valid escape
(rack/rack#1772), so a file sent as ``100%25.pdf`` was stored as ``100%.pdf`` and ``a%0Ab.pdf``
with a line break in it: the post's entry named a file that is not the one that arrived. The
fake forum decodes names as Rack does (:func:`tests.fakes.discourse_uploads.rack_file_name`);
the client sends each ``%`` as ``%25``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.connectors.discourse_client import DiscourseClient
from bot.models import Source
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    footnotes,
    forum,
    harness,
    only_post,
)
from tests.fakes.discourse_api import FakeDiscourse
from tests.fakes.discourse_uploads import rack_file_name

__all__ = ["forum", "harness"]


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("100%25.pdf", "100%.pdf"),
        ("a%0Ab.pdf", "a\nb.pdf"),
        ("say %22hi%22.pdf", 'say "hi".pdf'),
        ("100%.pdf", "100%.pdf"),  # "%.p" is no escape: nothing is decoded
        ("50% %41.pdf", "50% %41.pdf"),
        ("%e9t%E9.pdf", "\ufffdt\ufffd.pdf"),  # Latin-1 bytes are no UTF-8: scrubbed
        ("plain.pdf", "plain.pdf"),
    ],
)
def test_the_fake_forum_reads_a_file_name_as_rack_does(sent: str, stored: str) -> None:
    assert rack_file_name(sent) == stored


@pytest.fixture
async def client(forum: FakeDiscourse) -> AsyncIterator[DiscourseClient]:
    forum.authorized_extensions = ("pdf", "png")
    opened = DiscourseClient(forum.url, forum.api_key, "citecast")
    try:
        yield opened
    finally:
        await opened.aclose()


@pytest.mark.parametrize(
    "name",
    [
        "100%25.pdf",
        "a%0Ab.pdf",
        "100%.pdf",
        'say "hi" 50%.pdf',
        "growth %2F%2e%2E.pdf",
        "plain.pdf",
    ],
)
async def test_an_upload_is_stored_under_the_name_it_was_sent_as(
    forum: FakeDiscourse, client: DiscourseClient, tmp_path: Path, name: str
) -> None:
    path = tmp_path / "file.pdf"
    path.write_bytes(b"%PDF-1.4 figures")
    upload = await client.upload(path, name, "application/pdf")
    [stored] = forum.uploads
    assert stored.filename == name
    assert upload.filename == name


async def test_a_posted_file_is_stored_under_the_name_its_entry_lists(
    harness: Harness, tmp_path: Path
) -> None:
    chart = tmp_path / "chart.png"
    chart.write_bytes(b"\x89PNG chart")
    source = Source(
        id="chart",
        path=str(chart),
        filename="growth 100%25.png",
        media_type="image/png",
        kind="file",
    )
    harness.script([source], "Sales doubled [1].")
    topic = harness.forum.new_topic("Growth", "How much did sales grow?", category_id=PUBLIC)
    await harness.deliver(topic)
    posted = only_post(harness.forum)["raw"]
    [upload] = harness.forum.uploads
    assert upload.filename == "growth 100%25.png"
    _, links = footnotes(posted)
    assert ("growth 100%25.png|attachment", upload.short_url) in links["1"]
