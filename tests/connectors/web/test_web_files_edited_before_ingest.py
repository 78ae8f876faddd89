"""A cited file edited in place, not yet ingested again: ``/files/`` serves only the bytes the
index read (its stored fingerprint), so an old public link never shows text the index has not
judged (front matter or an HTML audience tag that made it private, with private text added).

Over the real app with the built-in answerer, and over the ``/files/`` handler given the index
(:mod:`tests.connectors.web.viewer_kb`) for the reading page's links and ``web.file_roots``.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from bot.config import IndexSettings
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge import ingest, ingest_file
from bot.models import Source
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import (
    PRIVATE_TEXT,
    PUBLIC_TEXT,
    SECRET,
    ask_public,
    assert_refused,
    fetch_all,
    harness,
    kb_with_roadmap,
)
from tests.connectors.web.viewer_kb import PUBLIC, LinkedKb, build_linked_kb, viewer_app
from tests.connectors.web.viewer_kb import SECRET as SIGNING_SECRET

PUBLIC_PAGE = (
    "<!DOCTYPE html><html><head><title>Roadmap</title></head><body>"
    "<h1>Roadmap</h1><p>The new Leipzig depot opens in June.</p></body></html>\n"
)
PRIVATE_PAGE = PUBLIC_PAGE.replace(
    "<title>", '<meta name="citecast:audience" content="board"><title>'
).replace("</body>", f"<p>{SECRET}</p></body>")


def kb_with_page(tmp_path: Path) -> Path:
    kb = kb_with_roadmap(tmp_path)
    (kb / "roadmap.md").unlink()
    (kb / "roadmap.html").write_text(PUBLIC_PAGE, encoding="utf-8")
    return kb


@pytest.mark.parametrize("kind", ["markdown", "html"])
async def test_a_file_rewritten_private_before_ingest_is_not_served(
    tmp_path: Path, kind: str
) -> None:
    kb = kb_with_roadmap(tmp_path) if kind == "markdown" else kb_with_page(tmp_path)
    cited, private = (
        (kb / "roadmap.md", PRIVATE_TEXT)
        if kind == "markdown"
        else (kb / "roadmap.html", PRIVATE_PAGE)
    )
    settings = make_settings(tmp_path)
    ingest([kb], settings.index)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask_public(client)
        served = await fetch_all(client, asked.file_path)
        assert [r.status_code for r in served] == [200, 200, 200]  # twice: the hash is kept
        assert [r.status_code for r in await fetch_all(client, asked.file_path)] == [200] * 3
        cited.write_text(private, encoding="utf-8")  # not re-ingested yet
        refused = await fetch_all(client, asked.file_path)
        for response in refused:
            assert SECRET not in response.text
        assert_refused(refused)
        # a browser gets the page any dead link gets: nothing tells that the file exists
        forged = await client.get("/files/forged.token", headers={"accept": "text/html"})
        assert refused[0].text == forged.text
    services.store.close()


async def test_an_edited_file_is_served_again_once_ingested(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors.web_files")
    kb = kb_with_roadmap(tmp_path)
    settings = make_settings(tmp_path)
    ingest([kb], settings.index)
    services, client = harness(tmp_path)
    async with client:
        asked = await ask_public(client)
        # the same size: not the size, the bytes tell it apart
        edited = PUBLIC_TEXT.replace("June", "July")
        assert len(edited) == len(PUBLIC_TEXT)
        (kb / "roadmap.md").write_text(edited, encoding="utf-8")
        assert_refused(await fetch_all(client, asked.file_path))
        # the log (never the viewer) says why
        assert "refused roadmap.md: it changed since it was indexed" in caplog.text
        ingest([kb], settings.index)  # the index judged the new bytes: still public
        opened = await fetch_all(client, asked.file_path)
        assert [r.status_code for r in opened] == [200, 200, 200]
        assert "opens in July" in opened[2].text
    services.store.close()


async def test_an_edit_that_keeps_size_and_modified_time_is_still_seen(tmp_path: Path) -> None:
    kb = kb_with_roadmap(tmp_path)
    settings = make_settings(tmp_path)
    ingest([kb], settings.index)
    roadmap = kb / "roadmap.md"
    services, client = harness(tmp_path)
    async with client:
        asked = await ask_public(client)
        assert [r.status_code for r in await fetch_all(client, asked.file_path)] == [200] * 3
        before = roadmap.stat()
        # as `cp -p` or `rsync --times` writes it: same size, the old modified time put back
        roadmap.write_text(PUBLIC_TEXT.replace("Leipzig", "Hamburg"), encoding="utf-8")
        os.utime(roadmap, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert roadmap.stat().st_size == before.st_size
        refused = await fetch_all(client, asked.file_path)
        assert [r.status_code for r in refused] == [404] * 3
        assert all("Hamburg" not in r.text for r in refused)
    services.store.close()


async def test_the_reading_page_links_no_file_edited_since_it_was_indexed(
    tmp_path: Path,
) -> None:
    linked = build_linked_kb(tmp_path)
    transport = httpx.ASGITransport(app=viewer_app(linked))
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        guide = f"/files/{linked.token('docs/guide.md')}"
        assert "#linux" in (await client.get(guide)).text  # the setup is linked
        setup = linked.kb / "docs" / "setup.md"
        setup.write_text(f"---\naudience: staff\n---\n# Setup\n\n{SECRET}\n", encoding="utf-8")
        page = await client.get(guide)
        assert page.status_code == 200
        assert "the setup" in page.text and "#linux" not in page.text  # text, no link
        assert "#retention" in page.text  # the unchanged HTML file is linked as before
        # and a link to it signed before the edit opens nothing
        assert (await client.get(f"/files/{linked.token('docs/setup.md')}")).status_code == 404


async def test_a_file_roots_file_outside_the_index_is_served_as_it_is_now(
    tmp_path: Path,
) -> None:
    kb, served = tmp_path / "kb", tmp_path / "served"
    kb.mkdir()
    served.mkdir()
    (kb / "welcome.md").write_text("# Welcome\n\nThe help desk answers mail.\n")
    notes = served / "notes.md"
    notes.write_text("# Notes\n\nFirst draft.\n", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb], settings)
    signer = FileSigner(SIGNING_SECRET, "", 600, roots=[served])
    source = Source(id="notes.md", path=str(notes), filename="notes.md", kind="file")
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    files = IndexedFiles.of(settings)
    app = viewer_app(LinkedKb(kb, served, files, signer))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://viewer.test"
    ) as client:
        notes.write_text("# Notes\n\nSecond draft.\n", encoding="utf-8")
        opened = await client.get(f"/files/{issued}?download=1")
    # no index judged it: web.file_roots alone serves it, as it is now
    assert opened.status_code == 200 and "Second draft." in opened.text


async def opened(files: IndexedFiles, kb: Path, relative: str) -> httpx.Response:
    """``kb/relative`` fetched (downloaded) on a public link signed now."""
    signer = FileSigner(SIGNING_SECRET, "", 600, roots=[kb])
    path = kb / relative
    source = Source(id=relative, path=str(path), filename=path.name, kind="file")
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    app = viewer_app(LinkedKb(kb, kb, files, signer))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        return await client.get(f"/files/{issued}?download=1")


async def test_unchanged_files_of_every_stored_kind_are_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each way ingest stores a fingerprint, unchanged, still opens: a file with an
    ``index.url_templates`` URL, one read by an older reader (its mark's version), one read
    with other chunk settings than the server's config is not (nothing served on a guess)."""
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "linked.md").write_text("# Linked\n\nOn the docs site too.\n", encoding="utf-8")
    (kb / "plain.md").write_text("# Plain\n\nRead by an older reader.\n", encoding="utf-8")
    settings = IndexSettings(
        path=str(tmp_path / "index.db"), url_templates={"linked.md": "https://docs.example/{stem}"}
    )
    with monkeypatch.context() as older:
        older.setattr(ingest_file, "READER_VERSION", "20")
        ingest([kb], settings)
    with closing(sqlite3.connect(settings.path)) as conn:
        marks = {row[0][:4] for row in conn.execute("SELECT fingerprint FROM files")}
    assert marks == {"r20:"}
    files = IndexedFiles.of(settings)
    assert (await opened(files, kb, "linked.md")).status_code == 200
    assert "Read by an older reader." in (await opened(files, kb, "plain.md")).text
    other_chunks = IndexedFiles.of(settings.model_copy(update={"chunk_chars": 900}))
    assert (await opened(other_chunks, kb, "plain.md")).status_code == 404
