"""``/files/`` sends the bytes it checked, from the file it opened to check them.

It checked a file's bytes (in a worker thread), then opened the path again to send it
(``FileResponse``, or the reading page's ``read_for_view``): a save landing in between was
served though the index never judged it; a real server with a file rewritten private during
1600 requests served the secret dozens of times. Here the save lands in that window every
time: it is made right after the real check hashed the file and made its fingerprints.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.knowledge import file_fingerprint, indexed_bytes, ingest
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import (
    PRIVATE_TEXT,
    PUBLIC_TEXT,
    SECRET,
    ask_public,
    harness,
    kb_with_roadmap,
)

FETCHES = {  # the query and the accept header of each way to fetch a file
    "reading page": ("", "text/html"),
    "as a script": ("", "*/*"),
    "download": ("?download=1", "*/*"),
}


def save_in_place(file: Path) -> None:
    file.write_text(PRIVATE_TEXT, encoding="utf-8")  # truncated and rewritten, same inode


def save_same_size(file: Path) -> None:
    # the same size and the old times put back: only the bytes tell
    before = file.stat()
    private = ("Board only:" + "x" * len(PUBLIC_TEXT))[: len(PUBLIC_TEXT)]
    with file.open("r+b") as handle:
        handle.write(private.encode("utf-8"))
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))


def save_by_rename(file: Path) -> None:
    fresh = file.with_name(".roadmap.md.tmp")
    fresh.write_text(PRIVATE_TEXT, encoding="utf-8")
    fresh.replace(file)  # as most editors save: the checked inode is left as it was


class SaveAfterCheck:
    """Makes ``save`` land right after the real check made the file's fingerprints, once armed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, file: Path, save: Any) -> None:
        self.armed = False
        real = file_fingerprint.fingerprints

        def then_save(*args: Any, **kwargs: Any) -> Any:
            made = real(*args, **kwargs)
            if self.armed:
                self.armed = False
                save(file)
            return made

        monkeypatch.setattr(indexed_bytes, "fingerprints", then_save)


@pytest.fixture
def kb(tmp_path: Path) -> Iterator[Path]:
    kb = kb_with_roadmap(tmp_path)
    ingest([kb], make_settings(tmp_path).index)
    yield kb


async def _fetch(tmp_path: Path, kb: Path, saving: SaveAfterCheck, how: str) -> httpx.Response:
    services, client = harness(tmp_path)
    try:
        async with client:
            asked = await ask_public(client)
            saving.armed = True
            query, accept = FETCHES[how]
            path = asked.file_path.split("#")[0] + query
            response = await client.get(path, headers={"accept": accept})
            assert not saving.armed  # the save did land after the check
            return response
    finally:
        services.store.close()


@pytest.mark.parametrize("how", list(FETCHES))
@pytest.mark.parametrize("save", [save_in_place, save_same_size])
async def test_a_write_into_the_file_after_its_check_is_not_shown(
    tmp_path: Path, kb: Path, monkeypatch: pytest.MonkeyPatch, how: str, save: Any
) -> None:
    saving = SaveAfterCheck(monkeypatch, kb / "roadmap.md", save)
    response = await _fetch(tmp_path, kb, saving, how)
    assert response.status_code == 404
    assert "Board only" not in response.text and "Leipzig" not in response.text


@pytest.mark.parametrize("how", list(FETCHES))
async def test_a_save_by_rename_after_the_check_serves_the_checked_file_whole(
    tmp_path: Path, kb: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    saving = SaveAfterCheck(monkeypatch, kb / "roadmap.md", save_by_rename)
    response = await _fetch(tmp_path, kb, saving, how)
    assert response.status_code == 200
    assert SECRET not in response.text
    assert "The new Leipzig depot opens in June." in response.text
    if how == "download":
        assert response.content == PUBLIC_TEXT.encode("utf-8")
