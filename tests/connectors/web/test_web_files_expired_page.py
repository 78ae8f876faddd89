"""A person who follows a ``/files/`` link that no longer works (expired, cut, forged) gets a
small page saying how to get a fresh link; other clients keep the JSON 404."""

from __future__ import annotations

from pathlib import Path

from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer

SECRET = b"0123456789abcdef0123456789abcdef"
BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
SAYS = "This file link has expired or is incomplete, or the file is no longer available."


async def test_a_browser_following_an_expired_file_link_gets_a_page(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "guide.txt").write_bytes(b"the guide")
    now = [1_000_000.0]
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb], clock=lambda: now[0])
    source = Source(id="guide", path=str(kb / "guide.txt"), filename="guide.txt", kind="file")
    token = signer.token_for(source, frozenset({"public"}))
    assert token is not None
    _, client = build_harness(
        tmp_path, CannedAnswerer(cited_answer()), signer=signer, title="Acme <docs>"
    )
    async with client:
        fresh = await client.get(f"/files/{token}", headers=BROWSER)
        assert fresh.status_code == 200 and "<pre>the guide</pre>" in fresh.text
        now[0] += 601  # the answer was read an hour ago; its links have expired
        pages = [
            await client.get(f"/files/{bad}", headers=BROWSER)
            for bad in (token, token[:-4], "forged.token")
        ]
        api = await client.get(f"/files/{token}")
    for page in pages:
        assert page.status_code == 404
        assert page.headers["content-type"].startswith("text/html")
        assert SAYS in page.text
        assert '<h1 class="cc-title">Acme &lt;docs&gt;</h1>' in page.text
        assert "script-src" not in page.headers["content-security-policy"]
        assert "default-src 'none'" in page.headers["content-security-policy"]
    # the same page whatever was wrong: it tells no one which
    assert len({page.text for page in pages}) == 1
    assert api.status_code == 404 and api.json() == {"error": "not found"}
