"""A file too large for the reading page says how much of it is shown, and that a cited passage
further on is not on the page.

Found in a QA pass: a citation into a 14.5 MB Markdown file, its quote at 83%, opened a page
without the quoted sentence (so ``#:~:text=`` could not scroll to it) whose only hint was "This
file is larger than 2 MB: only its beginning is shown here." The link carries no position the
server sees (a text fragment never leaves the browser), so the page says so instead.
"""

from __future__ import annotations

from pathlib import Path

from bot.connectors.web_file_viewer import MAX_VIEW_BYTES, ViewedFile, read_for_view, viewer_page
from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer

SECRET = b"0123456789abcdef0123456789abcdef"
LINE = "A paragraph of the very long handbook, said again and again....\n"  # 64 bytes
NEEDLE = "The okapi licence renews every March, on the first working day.\n"


def _handbook(path: Path, megabytes: float) -> None:
    assert len(LINE.encode()) == len(NEEDLE.encode()) == 64
    lines = int(megabytes * 1024 * 1024) // 64
    at = lines * 83 // 100
    path.write_text(LINE * at + NEEDLE + LINE * (lines - at - 1), encoding="utf-8")


async def test_a_cut_file_names_its_size_and_the_passage_it_cannot_show(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    _handbook(kb / "handbook.md", 2.5)
    signer = FileSigner(SECRET, "http://citecast.test", 600, roots=[kb])
    _, client = build_harness(tmp_path, CannedAnswerer(cited_answer()), signer=signer)
    source = Source(id="h", path=str(kb / "handbook.md"), filename="handbook.md", kind="file")
    issued = signer.token_for(source, frozenset({"public"}))
    assert issued is not None
    async with client:
        page = await client.get(f"/files/{issued}")
    assert page.status_code == 200
    assert (
        "This file is 2.5 MB, larger than 2 MB: only its beginning is shown here, its first 2 MB."
        " A cited passage further on is not on this page, so the link cannot take you to it:"
        " download the file to read all of it."
    ) in page.text
    assert "okapi licence" not in page.text
    assert len(page.content) < MAX_VIEW_BYTES + 10_000


def test_a_file_within_the_limit_has_no_note(tmp_path: Path) -> None:
    path = tmp_path / "small.md"
    _handbook(path, 0.01)
    viewed = read_for_view(path, "small.md", "markdown")
    assert not viewed.truncated and viewed.size == path.stat().st_size
    assert 'class="cc-note"' not in viewer_page(viewed)


def test_a_page_without_the_files_size_keeps_the_plain_note() -> None:
    page = viewer_page(ViewedFile("x.txt", "text", "x\n", truncated=True))
    assert "This file is larger than 2 MB: only its beginning is shown here." in page
    assert "A cited passage further on is not on this page" in page
