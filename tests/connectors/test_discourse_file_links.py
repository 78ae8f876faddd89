"""Discourse: a cited file's signed link lasts as long as a forum post is read, and a file that
is not public is never uploaded to the forum unless the operator opts in.

The links are signed by a real FileSigner (a fixed clock) and checked with another one, as
``/files/`` would check them; uploads go to the loopback fake forum.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.discourse_harness import (
    PUBLIC,
    STAFF,
    Harness,
    footnotes,
    forum,
    only_post,
    opened_harness,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

NOW = 1_800_000_000
DAY = 86_400
SECRET = b"a-file-link-secret-for-tests"


def signer_at(root: Path, now: int, ttl: int = 3600) -> FileSigner:
    return FileSigner(SECRET, "https://citecast.example", ttl, [root], clock=lambda: now)


def sheet(tmp_path: Path, audience: tuple[str, ...] = ("public",)) -> Source:
    path = tmp_path / "prices.xlsx"
    path.write_bytes(b"PK sheet")
    return Source(id="sheet", title="Price list", path=str(path), filename="prices.xlsx",
                  media_type="application/vnd.ms-excel", kind="file",
                  audience=audience)  # fmt: skip


def chart(tmp_path: Path, audience: tuple[str, ...]) -> Source:
    path = tmp_path / "chart.png"
    path.write_bytes(b"\x89PNG chart")
    return Source(id="chart", title="Sales chart", path=str(path), filename="chart.png",
                  media_type="image/png", kind="file", audience=audience)  # fmt: skip


async def ask_about_the_chart(h: Harness, tmp_path: Path, audience: tuple[str, ...]) -> None:
    """A topic in the staff category answered citing the chart, for ``audience``."""
    h.script([chart(tmp_path, audience)], "Sales grew [1].")
    await h.deliver(h.forum.new_topic("Sales", "How did sales go?", category_id=STAFF))


def token_of(url: str) -> str:
    return urlsplit(url).path.rsplit("/files/", 1)[1]


async def link_in_post(h: Harness, tmp_path: Path, category: int = PUBLIC) -> str:
    h.connector.services.signer = signer_at(tmp_path, NOW)
    h.script([sheet(tmp_path)], "Prices are listed [1].")
    await h.deliver(h.forum.new_topic("Prices", "Where are the prices?", category_id=category))
    _, links = footnotes(only_post(h.forum)["raw"])
    [(_, url)] = links["1"]
    assert url.startswith("https://citecast.example/files/")
    return url


async def test_a_posted_file_link_works_for_a_year_by_default(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path, allowed_upload_extensions=["pdf"]) as h:
        url = await link_in_post(h, tmp_path)
    grant = signer_at(tmp_path, NOW + 300 * DAY).verify(token_of(url))
    assert grant.expires_at == NOW + 365 * DAY
    assert grant.audience == frozenset({"public"})


async def test_the_link_lifetime_is_configurable(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(
        forum, tmp_path, allowed_upload_extensions=["pdf"], file_link_ttl_days=30
    ) as h:
        url = await link_in_post(h, tmp_path)
    assert signer_at(tmp_path, NOW).verify(token_of(url)).expires_at == NOW + 30 * DAY


async def test_zero_days_keeps_the_webs_lifetime(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(
        forum, tmp_path, allowed_upload_extensions=["pdf"], file_link_ttl_days=0
    ) as h:
        url = await link_in_post(h, tmp_path)
    assert signer_at(tmp_path, NOW).verify(token_of(url)).expires_at == NOW + 3600


async def test_the_webs_own_signer_keeps_its_lifetime(forum: FakeDiscourse, tmp_path: Path) -> None:
    async with opened_harness(forum, tmp_path, allowed_upload_extensions=["pdf"]) as h:
        await link_in_post(h, tmp_path)
        signer = h.connector.services.signer
        assert isinstance(signer, FileSigner) and signer.ttl == 3600


async def test_a_staff_only_file_is_linked_not_uploaded(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as h:
        h.connector.services.signer = signer_at(tmp_path, NOW)
        await ask_about_the_chart(h, tmp_path, ("staff",))
        posted = only_post(forum)["raw"]
    assert forum.uploads == []
    assert "upload://" not in posted
    _, links = footnotes(posted)
    [(text, url)] = links["1"]
    assert text == "chart.png"
    grant = signer_at(tmp_path, NOW).verify(token_of(url))
    assert grant.audience == frozenset({"staff"})


async def test_a_staff_only_file_is_named_without_a_signer(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as h:
        await ask_about_the_chart(h, tmp_path, ("staff",))
        posted = only_post(forum)["raw"]
    assert forum.uploads == []
    assert "[^1]: Sales chart: chart.png" in posted.splitlines()


async def test_private_files_are_uploaded_when_the_operator_opts_in(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path, upload_private_files=True) as h:
        await ask_about_the_chart(h, tmp_path, ("staff",))
        posted = only_post(forum)["raw"]
    [upload] = forum.uploads
    assert upload.filename == "chart.png" and upload.short_url in posted


async def test_a_public_file_is_still_uploaded_in_a_staff_category(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    async with opened_harness(forum, tmp_path) as h:
        await ask_about_the_chart(h, tmp_path, ("public",))
    assert [u.filename for u in forum.uploads] == ["chart.png"]
