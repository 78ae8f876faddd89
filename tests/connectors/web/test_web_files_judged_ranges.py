"""An indexed file sent from the descriptor its check opened keeps what ``FileResponse`` gave.

``/files/`` now sends a knowledge-base file it checked from the open descriptor
(:mod:`bot.connectors.web_judged_response`); a browser still gets the same headers, ``HEAD``,
and the byte ranges Chrome's PDF viewer asks for, each of them only of the judged bytes.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.config import IndexSettings
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge import ingest
from bot.models import Source
from tests.connectors.web.viewer_kb import PUBLIC, LinkedKb, viewer_app
from tests.connectors.web.viewer_kb import SECRET as SIGNING_SECRET

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _build_pdf() -> Callable[[], bytes]:
    spec = importlib.util.spec_from_file_location("make_pdf", EXAMPLES / "make_pdf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # keep examples/ clean
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes
    built: Callable[[], bytes] = module.build_pdf  # the handbook it writes by default
    return built


@dataclass(frozen=True)
class Served:
    """An indexed PDF, its bytes, and a client of an app serving it at ``url``."""

    path: Path
    pdf: bytes
    client: httpx.AsyncClient
    url: str


@pytest.fixture
def served(tmp_path: Path) -> Served:
    kb = tmp_path / "kb"
    kb.mkdir()
    pdf = _build_pdf()()
    (kb / "manual.pdf").write_bytes(pdf)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    report = ingest([kb], settings)
    assert report.indexed == 1, report
    signer = FileSigner(SIGNING_SECRET, "", 600, roots=[kb])
    path = kb / "manual.pdf"
    source = Source(
        id="manual", path=str(path), filename=path.name, media_type="application/pdf", kind="file"
    )
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    app = viewer_app(LinkedKb(kb, kb, IndexedFiles.of(settings), signer))
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://v.test")
    return Served(path, pdf, client, f"/files/{issued}")


async def test_a_judged_pdf_opens_inline_with_its_headers_and_ranges(served: Served) -> None:
    pdf, url = served.pdf, served.url
    async with served.client as client:
        whole = await client.get(url)
        head = await client.head(url)
        part = await client.get(url, headers={"range": "bytes=5-14"})
        tail = await client.get(url, headers={"range": "bytes=-7"})
        two = await client.get(url, headers={"range": "bytes=0-3,10-12"})
        beyond = await client.get(url, headers={"range": f"bytes={len(pdf) + 5}-"})
        stale = await client.get(url, headers={"range": "bytes=0-3", "if-range": '"stale"'})
    assert whole.status_code == 200 and whole.content == pdf
    assert whole.headers["content-type"] == "application/pdf"
    assert whole.headers["content-disposition"] == 'inline; filename="manual.pdf"'
    assert whole.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in whole.headers  # Chrome's PDF viewer needs none
    assert whole.headers["accept-ranges"] == "bytes"
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(pdf))
    assert (part.status_code, part.content) == (206, pdf[5:15])
    assert part.headers["content-range"] == f"bytes 5-14/{len(pdf)}"
    assert (tail.status_code, tail.content) == (206, pdf[-7:])
    assert two.status_code == 206 and pdf[0:4] in two.content and pdf[10:13] in two.content
    assert two.headers["content-type"].startswith("multipart/byteranges")
    assert beyond.status_code == 416
    assert (stale.status_code, stale.content) == (200, pdf)


async def test_a_pdf_written_into_after_it_was_served_is_refused_again(served: Served) -> None:
    async with served.client as client:
        first = await client.get(served.url, headers={"range": "bytes=0-9"})
        before = served.path.stat()
        with served.path.open("r+b") as handle:  # same size, same inode, old times put back
            handle.seek(len(served.pdf) // 2)
            handle.write(b"Board only")
        os.utime(served.path, ns=(before.st_atime_ns, before.st_mtime_ns))
        part = await client.get(served.url, headers={"range": "bytes=0-9"})
    assert (first.status_code, first.content) == (206, served.pdf[:10])
    assert part.status_code == 404
