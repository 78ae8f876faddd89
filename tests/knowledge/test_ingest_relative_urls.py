"""A relative page URL (Hugo's ``url = "/docs/setup/"``, a relative canonical link) is resolved
against the page's own address instead of leaving the citation without a link."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.html_reader import read_html

TEMPLATE = {"*": "https://docs.example.com/{path}"}


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "guide").mkdir(parents=True)
    pages = {
        "guide/hugo.md": "---\nurl: /docs/setup/\n---\n# Setup\n\nQuokka setup steps.\n",
        "guide/rel.html": '<link rel="canonical" href="install.html"><p>Quokka install.</p>',
        "guide/js.html": '<link rel="canonical" href="javascript:alert(1)"><p>Quokka js.</p>',
        "guide/abs.md": "---\nurl: https://own.example/x\n---\nQuokka own.\n",
    }
    for name, text in pages.items():
        (site / name).write_text(text, encoding="utf-8")
    return site


def test_relative_urls_resolve_against_the_template_url(tmp_path: Path) -> None:
    settings = IndexSettings(path=str(tmp_path / "i.db"), url_templates=TEMPLATE)
    report = ingest([_site(tmp_path)], settings)
    urls = {s.filename: s.url for s in KnowledgeIndex(settings.path).search("quokka", limit=9)}
    assert urls == {
        "hugo.md": "https://docs.example.com/docs/setup/",
        "rel.html": "https://docs.example.com/guide/install.html",
        # a URL that is none falls back to the template instead of leaving no link at all
        "js.html": "https://docs.example.com/guide/js.html",
        "abs.md": "https://own.example/x",
    }
    assert [(n.path, n.reason) for n in report.notes] == [
        (
            "site/guide/js.html",
            "url 'javascript:alert(1)' is not an absolute http(s) URL; "
            "cited with https://docs.example.com/guide/js.html from index.url_templates",
        )
    ]


def test_a_relative_url_without_a_template_is_named_in_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(site)]) == 0
    out = capsys.readouterr().out
    assert (
        "  note on site/guide/hugo.md: url '/docs/setup/' is not an absolute http(s) URL; "
        "cited without a link (make it absolute, or add an index.url_templates glob)\n"
    ) in out
    assert out.count("  note on ") == 3  # hugo.md, rel.html, js.html; abs.md is fine


def test_a_canonical_link_is_resolved_against_base_href() -> None:
    page = (
        '<head><base href="https://docs.example.com/guide/">'
        '<link rel="canonical" href="install.html"></head><p>Quokka.</p>'
    )
    assert read_html(page, "x.html").url == "https://docs.example.com/guide/install.html"
