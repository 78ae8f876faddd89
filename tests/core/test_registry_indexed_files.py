"""Passages of two indexed files sharing a URL are shown to the model under two numbers."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.registry import SourceRegistry

FAQ = """---
url: https://docs.example.com/faq#{name}
---
# {title} FAQ

The walrus connector for {title} needs {need}.
"""
VERSION = """# Install

To install version {v} of walrus, run `pip install walrus=={v}` and restart the server.
"""


def search(tmp_path: Path, query: str, templates: dict[str, str] | None = None) -> SourceRegistry:
    index_settings: dict[str, object] = {"path": str(tmp_path / "index.db")}
    if templates:
        index_settings["url_templates"] = templates
    settings = Settings.model_validate({"index": index_settings})
    ingest([tmp_path / "kb"], settings.index)
    registry = SourceRegistry()
    found = KnowledgeIndex(settings.index.path).search(query, limit=5)
    shown = registry.format_passages(found)
    headings = re.findall(r"^\[cite: (\d+)\]", shown, re.MULTILINE)
    assert len(headings) == len(found) == 2
    assert sorted(headings) == ["1", "2"]
    return registry


def test_files_whose_front_matter_urls_are_anchors_of_one_page(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    for name, title, need in (
        ("slack", "Slack", "the chat:write scope"),
        ("discord", "Discord", "a bot token"),
    ):
        text = FAQ.format(name=name, title=title, need=need)
        (kb / f"{name}.md").write_text(text, encoding="utf-8")
    registry = search(tmp_path, "walrus connector")
    [slack] = registry.numbers_for_url("https://docs.example.com/faq#slack")
    slack_source = registry.get(slack)
    assert slack_source is not None and slack_source.filename == "slack.md"


def test_two_versions_given_one_url_by_a_template(tmp_path: Path) -> None:
    # a template without a placeholder links every version to the current page
    for v in ("1", "2"):
        folder = tmp_path / "kb" / f"v{v}"
        folder.mkdir(parents=True)
        (folder / "install.md").write_text(VERSION.format(v=v), encoding="utf-8")
    registry = search(
        tmp_path, "install walrus", {"**/*.md": "https://docs.example.com/install.html"}
    )
    texts = {source.text for source in registry.numbered().values()}
    assert any("walrus==1" in (t or "") for t in texts)
    assert any("walrus==2" in (t or "") for t in texts)
