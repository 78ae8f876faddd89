"""``/files/{token}`` shows a cited Markdown, text or HTML file on a sanitized reading page.

Over the real app (httpx against its ASGI interface): the page renders the file readable, keeps
nothing that could run, load from elsewhere or navigate by itself, sends a CSP without any
script or inline-style allowance, and leaves the token rules (one file, expiry) as they were.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import httpx
from starlette.responses import FileResponse

from bot.connectors.web_file_viewer import MAX_VIEW_BYTES
from bot.connectors.web_files import file_response
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer

SECRET = b"0123456789abcdef0123456789abcdef"
PUBLIC = frozenset({"public"})

HOSTILE = """<!DOCTYPE html>
<html><head>
<meta http-equiv="refresh" content="0; url=https://evil.example/phish">
<base href="https://evil.example/">
<title>Hostile page</title>
<link rel="stylesheet" href="https://evil.example/track.css">
<style>body { background: url(https://evil.example/bg.png) }</style>
<script>document.cookie = "stolen"</script>
</head><body>
<h1 onclick="steal()">Hostile page</h1>
<p>Read the <a href="javascript:steal()">terms</a> or the
<a href="https://docs.example/ok">documentation</a>.</p>
<img src="https://evil.example/pixel.png" onerror="steal()" alt="pixel">
<img src="//evil.example/pixel2.png" alt="pixel2">
<iframe src="https://evil.example/frame"></iframe>
<form action="https://evil.example/post"><input name="q"></form>
<svg><script>steal()</script></svg>
<object data="https://evil.example/x.swf"></object>
<p style="background: url(https://evil.example/s.png)">Keep this sentence.</p>
</body></html>
"""


def token(signer: FileSigner, path: Path) -> str:
    source = Source(id=str(path), path=str(path), filename=path.name, kind="file")
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    return issued


def harness(tmp_path: Path, kb: Path) -> tuple[FileSigner, httpx.AsyncClient]:
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    return signer, client


def kb_dir(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    kb.mkdir()
    return kb


async def test_a_hostile_html_file_comes_out_inert(tmp_path: Path) -> None:
    kb = kb_dir(tmp_path)
    (kb / "hostile.html").write_text(HOSTILE)
    signer, client = harness(tmp_path, kb)
    async with client:
        page = await client.get(f"/files/{token(signer, kb / 'hostile.html')}")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "content-disposition" not in page.headers  # read in the browser, not downloaded
    assert page.headers["x-content-type-options"] == "nosniff"
    body = page.text.lower()
    # the page's readable text is there
    assert "<h1>hostile page</h1>" in body and "keep this sentence." in body
    assert '<a href="https://docs.example/ok"' in body
    # and nothing that runs, loads from elsewhere or navigates by itself
    for inert in (
        "<script",
        "steal()",
        "document.cookie",
        "onclick",
        "onerror",
        "javascript:",
        "<iframe",
        "<object",
        "<form",
        "<input",
        "http-equiv",
        "<base",
        "<link",
        "evil.example",
        "style=",
    ):
        assert inert not in body, inert
    # the one <style> left is the viewer's own; it is the only one the CSP allows
    styles = re.findall(r"<style>(.*?)</style>", page.text, re.S)
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    csp = page.headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert directives["default-src"] == ["'none'"]
    assert directives["style-src"] == [f"'sha256-{digest}'"]
    assert directives["img-src"] == ["'none'"]  # the page shows no image (nor an icon)
    assert "<link" not in page.text and 'src="' not in page.text
    assert directives["base-uri"] == ["'none'"]
    assert "sandbox" in directives and "allow-scripts" not in csp
    assert "script-src" not in directives and "unsafe" not in csp


async def test_markdown_is_rendered_and_text_is_shown_escaped(tmp_path: Path) -> None:
    kb = kb_dir(tmp_path)
    (kb / "guide.md").write_text(
        "---\ntitle: Guide\n---\n# Install\n\nRun **make serve** <b onmouseover=x()>now</b>.\n\n"
        "| Key | Value |\n|---|---|\n| port | 8080 |\n"
    )
    (kb / "notes.txt").write_text("a <b>literal</b> & plain\nsecond line\n")
    signer, client = harness(tmp_path, kb)
    async with client:
        guide = await client.get(f"/files/{token(signer, kb / 'guide.md')}")
        notes = await client.get(f"/files/{token(signer, kb / 'notes.txt')}")
    assert '<h1 id="install">Install</h1>' in guide.text
    assert "<strong>make serve</strong> <b>now</b>." in guide.text
    assert "<td>8080</td>" in guide.text
    assert "title: Guide" not in guide.text  # front matter is metadata
    assert "onmouseover" not in guide.text
    assert "<pre>a &lt;b&gt;literal&lt;/b&gt; &amp; plain\nsecond line\n</pre>" in notes.text
    for page in (guide, notes):
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        assert "sandbox" in page.headers["content-security-policy"]
        assert '<a href="?download=1">Download the file</a>' in page.text


async def test_toml_front_matter_is_hidden_as_yaml_is(tmp_path: Path) -> None:
    # ingest reads both (bot.knowledge.markdown_reader.split_front_matter): neither is text
    kb = kb_dir(tmp_path)
    (kb / "hugo.md").write_text('+++\ntitle = "Guide"\naudience = ["public"]\n+++\n# Install\n')
    (kb / "empty.md").write_text("---\n---\n# Setup\n")
    signer, client = harness(tmp_path, kb)
    async with client:
        hugo = await client.get(f"/files/{token(signer, kb / 'hugo.md')}")
        empty = await client.get(f"/files/{token(signer, kb / 'empty.md')}")
    assert '<h1 id="install">Install</h1>' in hugo.text
    assert "+++" not in hugo.text and "title =" not in hugo.text and "audience" not in hugo.text
    assert '<main class="cc-doc">\n<h1 id="setup">Setup</h1>' in empty.text
    assert "<hr" not in empty.text


async def test_front_matter_ingest_reads_after_blank_lines_or_as_json_is_hidden_too(
    tmp_path: Path,
) -> None:
    # ingest reads a block after blank lines, or a JSON object, as front matter when it names an
    # audience: the page showed it as a rule, a heading and the JSON as text
    kb = kb_dir(tmp_path)
    (kb / "later.md").write_text("\n---\naudience: public\n---\n# Install\n")
    (kb / "json.md").write_text('{"title": "Guide", "audience": "public"}\n# Setup\n')
    signer, client = harness(tmp_path, kb)
    async with client:
        later = await client.get(f"/files/{token(signer, kb / 'later.md')}")
        json = await client.get(f"/files/{token(signer, kb / 'json.md')}")
    assert '<main class="cc-doc">\n<h1 id="install">Install</h1>' in later.text
    assert "audience" not in later.text and "<hr" not in later.text
    assert '<main class="cc-doc">\n<h1 id="setup">Setup</h1>' in json.text
    assert "audience" not in json.text


async def test_a_token_shows_its_own_file_only_and_still_expires(tmp_path: Path) -> None:
    kb = kb_dir(tmp_path)
    (kb / "one.md").write_text("The first file.\n")
    (kb / "two.md").write_text("The second file.\n")
    now = [1_000_000.0]
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb], clock=lambda: now[0])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    one, two = token(signer, kb / "one.md"), token(signer, kb / "two.md")
    spliced = one.split(".")[0] + "." + two.split(".")[1]
    async with client:
        first = await client.get(f"/files/{one}")
        forged = await client.get(f"/files/{spliced}")
        now[0] += 601
        expired = await client.get(f"/files/{one}")
    assert "<p>The first file.</p>" in first.text and "second" not in first.text
    for refused in (forged, expired):
        assert refused.status_code == 404 and refused.json() == {"error": "not found"}


async def test_a_huge_file_shows_its_beginning_with_a_note(tmp_path: Path) -> None:
    kb = kb_dir(tmp_path)
    line = "A line of the very long log, repeated.\n"
    lines = MAX_VIEW_BYTES // len(line) + 100
    (kb / "huge.txt").write_text(line * (lines - 1) + "THE LAST LINE\n")
    signer, client = harness(tmp_path, kb)
    async with client:
        page = await client.get(f"/files/{token(signer, kb / 'huge.txt')}")
    assert page.status_code == 200
    assert "only its beginning is shown here" in page.text
    assert "THE LAST LINE" not in page.text
    assert len(page.content) < MAX_VIEW_BYTES + 10_000
    assert '<a href="?download=1">Download the file</a>' in page.text


def test_the_download_is_the_files_own_bytes_as_an_attachment(tmp_path: Path) -> None:
    kb = kb_dir(tmp_path)
    (kb / "hostile.html").write_text(HOSTILE)
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    # no index: a file of web.file_roots alone, served on its token
    files = IndexedFiles(tmp_path / "no-index.db")
    response = file_response(signer, token(signer, kb / "hostile.html"), download=True, files=files)
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment")
    assert response.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.media_type == "text/html; charset=utf-8"
    assert isinstance(response, FileResponse) and Path(response.path) == kb / "hostile.html"


async def test_the_viewers_download_link_sends_the_file_itself(tmp_path: Path) -> None:
    # the viewer's "Download the file" link adds ?download=1: without the route reading it,
    # the link only reloaded the viewer
    kb = kb_dir(tmp_path)
    (kb / "hostile.html").write_text(HOSTILE)
    signer, client = harness(tmp_path, kb)
    async with client:
        got = await client.get(f"/files/{token(signer, kb / 'hostile.html')}?download=1")
    assert got.status_code == 200
    assert got.headers["content-disposition"].startswith("attachment")
    assert got.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert got.text == HOSTILE
