"""Download roots follow the knowledge index while the server runs (no restart after ingest)."""

from __future__ import annotations

from pathlib import Path

import httpx

from bot.knowledge.index import KnowledgeIndex
from bot.knowledge.ingest import ingest
from bot.models import Source
from bot.runtime import Services
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    make_settings,
    passage,
)


def folder(root: Path, name: str, text: str) -> Path:
    root.mkdir(parents=True)
    (root / name).write_text(f"# {name}\n\n{text}\n", encoding="utf-8")
    return root


def indexed(services: Services, query: str) -> Source:
    """The source the index returns for ``query``: a file with a path and no public URL."""
    index = KnowledgeIndex(services.settings.index.path)
    try:
        [source] = index.search(query, limit=1)
    finally:
        index.close()
    assert source.path and not source.url
    return source


async def cited_link(client: httpx.AsyncClient, answerer: CannedAnswerer, source: Source) -> str:
    answerer.answer = cited_answer(source)
    [citation] = (await client.post("/api/ask", json={"question": "where?"})).json()["citations"]
    assert citation["form"] == "download", citation
    return str(citation["url"]).removeprefix("http://citecast.test")


async def test_a_folder_ingested_while_serving_can_be_downloaded(tmp_path: Path) -> None:
    first = folder(tmp_path / "first", "install.md", "Run the installer once.")
    later = folder(tmp_path / "later", "rotate.md", "Rotate the keys monthly.")
    answerer = CannedAnswerer(cited_answer(passage(1)))
    ingest([first], make_settings(tmp_path).index)
    services, client = build_harness(tmp_path, answerer)  # `serve` starts with first/ ingested
    async with client:
        before = await client.get(await cited_link(client, answerer, indexed(services, "install")))
        assert before.status_code == 200
        # `citecast ingest later/` while the server runs: no restart needed.
        ingest([later], services.settings.index)
        link = await cited_link(client, answerer, indexed(services, "rotate"))
        download = await client.get(link)
        assert download.status_code == 200
        assert b"Rotate the keys monthly." in download.content
        # Only ingested roots are served: rebuilt without `later/`, its links stop working.
        ingest([first], services.settings.index, rebuild=True)
        gone = await client.get(link)
    services.store.close()
    assert (gone.status_code, gone.json()) == (404, {"error": "not found"})
