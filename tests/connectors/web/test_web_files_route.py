"""``/files/{token}`` over the real app: odd file names, ranges, files swapped after signing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer

SECRET = b"0123456789abcdef0123456789abcdef"
PUBLIC = frozenset({"public"})


def token(signer: FileSigner, path: Path, filename: str | None = None) -> str:
    source = Source(id=str(path), path=str(path), filename=filename or path.name, kind="file")
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    return issued


@pytest.mark.parametrize(
    "name",
    ['quote".pdf', "crlf\r\nSet-Cookie: a=b.pdf", "ünïcode 😀.pdf", "semi;colon=1.pdf", "a\\b.pdf"],
)
async def test_an_odd_file_name_cannot_inject_headers(tmp_path: Path, name: str) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "file.pdf").write_bytes(b"%PDF-1.4 hello")
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    async with client:
        response = await client.get(f"/files/{token(signer, kb / 'file.pdf', name)}")
    assert response.status_code == 200
    assert "set-cookie" not in response.headers
    disposition = response.headers["content-disposition"]
    # anything beyond plain ASCII name characters goes percent-encoded in filename*
    assert disposition.startswith("inline; filename*=utf-8''")
    assert "\r" not in disposition and "\n" not in disposition and '"' not in disposition
    assert disposition.count(";") == 1


async def test_ranges_keep_the_safety_headers_and_never_read_past_the_file(
    tmp_path: Path,
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "drawing.svg").write_bytes(b"<script>alert(1)</script>")
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    url = f"/files/{token(signer, kb / 'drawing.svg')}"
    async with client:
        part = await client.get(url, headers={"range": "bytes=0-7"})
        beyond = await client.get(url, headers={"range": "bytes=500-600"})
    assert (part.status_code, part.content) == (206, b"<script>")
    assert part.headers["content-range"] == "bytes 0-7/25"
    assert part.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in part.headers["content-security-policy"]
    assert part.headers["content-disposition"].startswith("attachment")
    assert beyond.status_code == 416 and beyond.content == b""


async def test_a_file_swapped_for_a_link_out_of_the_root_after_signing_is_404(
    tmp_path: Path,
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "notes.txt").write_text("public notes")
    (tmp_path / "secret.txt").write_text("outside the knowledge base")
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    url = f"/files/{token(signer, kb / 'notes.txt')}"
    async with client:
        assert "<pre>public notes</pre>" in (await client.get(url)).text
        (kb / "notes.txt").unlink()
        (kb / "notes.txt").symlink_to(tmp_path / "secret.txt")
        swapped = await client.get(url)
        (kb / "notes.txt").unlink()
        (kb / "notes.txt").mkdir()
        folder = await client.get(url)
    for response in (swapped, folder):
        assert (response.status_code, response.json()) == (404, {"error": "not found"})
