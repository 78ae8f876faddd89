"""A source's reading page is read in the knowledge base's language (``assistant.language``)
when the file declares none, as the chat and the share page mark the answer citing it; a
language the file declares itself wins, and with the setting empty nothing is added."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bot.assistant import Assistant
from bot.config_file import parse_settings
from bot.connectors.app import build_app
from bot.connectors.web_file_viewer import ViewedFile, viewer_page
from bot.knowledge.ingest import ingest
from bot.runtime import Services
from bot.store import Store

GERMAN = (
    "# Installationsanleitung\n\n## Linux\n\nUnter Debian und Ubuntu installieren Sie zuerst "
    "das Paket python3-venv, damit die virtuelle Umgebung funktioniert. Danach starten "
    "Sie den Server mit dem Befehl make serve.\n"
)


def _cited_page(tmp_path: Path, language: str) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "anleitung.md").write_text(GERMAN, encoding="utf-8")
    settings = parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db")},
            "store": {"path": str(tmp_path / "store.db")},
            "web": {"file_secret": "viewer-language-secret-0123456789"},
            "assistant": {"language": language},
        }
    )
    ingest([docs], settings.index)
    services = Services(
        settings=settings,
        store=Store(settings.store.path),
        assistant=Assistant.from_settings(settings),
    )
    try:
        with TestClient(build_app(services, connectors=[]), base_url="http://127.0.0.1") as client:
            answer = client.post(
                "/api/ask",
                json={"question": "Wie installiere ich unter Debian das Paket python3-venv?"},
            )
            link = answer.json()["citations"][0]["url"].split("#")[0]
            return client.get(link, headers={"accept": "text/html"}).text
    finally:
        services.store.close()


def test_a_cited_files_page_is_read_in_the_assistant_language(tmp_path: Path) -> None:
    page = _cited_page(tmp_path, "de")
    assert '<html lang="en">' in page  # the page's own words stay English
    assert '<main class="cc-doc" lang="de"' in page, page[page.find("<main") :][:80]


def test_without_the_setting_the_page_adds_no_language(tmp_path: Path) -> None:
    page = _cited_page(tmp_path, "")
    assert '<main class="cc-doc">' in page, page[page.find("<main") :][:80]


@pytest.mark.parametrize(
    ("viewed", "expected"),
    [
        (ViewedFile("a.html", "html", '<html lang="fr"><p>Bonjour</p>', False), "fr"),
        (ViewedFile("a.md", "markdown", "---\nlang: nl\n---\n\nHallo\n", False), "nl"),
        (ViewedFile("a.txt", "text", "Hallo Welt\n", False), "de"),
    ],
    ids=["html-lang", "front-matter-lang", "text"],
)
def test_a_language_the_file_declares_wins(viewed: ViewedFile, expected: str) -> None:
    assert f'<main class="cc-doc" lang="{expected}"' in viewer_page(viewed, language="de")
