"""What a rendered Markdown page does not show is not indexed: HTML comments and rules."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Block, Document
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.readers import read_document

ingest_module = importlib.import_module("bot.knowledge.ingest_file")

PAGE = """\
<!-- TODO: the price rises in May, do not publish -->

# Pricing

The plan costs ten euros. <!-- internal: cost price is two --> Pay monthly.

<!--
Draft paragraph about the discount
that nobody has approved.
-->
Write `<!-- more -->` to cut the excerpt.

```html
<!-- kept: it is code -->
```
"""


def test_html_comments_are_not_text() -> None:
    doc = read_markdown(PAGE, "pricing.md")
    texts = [block.text for block in doc.blocks]
    assert texts == [
        "The plan costs ten euros.  Pay monthly.",
        "Write `<!-- more -->` to cut the excerpt.",
        "```html\n<!-- kept: it is code -->\n```",
    ]
    assert doc.blocks[0].section == "Pricing"


def test_a_comment_line_inside_a_paragraph_leaves_the_paragraph_whole() -> None:
    # indented four spaces it is inline HTML in the paragraph, not a comment block
    doc = read_markdown("First half\n    <!-- note --> \nsecond half.\n", "x.md")
    assert [block.text for block in doc.blocks] == ["First half\nsecond half."]


@pytest.mark.parametrize("rule", ["---", "***", "___", "- - -", " * * * *"])
def test_thematic_breaks_are_not_text(rule: str) -> None:
    doc = read_markdown(f"# Notes\n\nBefore the rule.\n\n{rule}\n\nAfter the rule.\n", "x.md")
    assert [block.text for block in doc.blocks] == ["Before the rule.", "After the rule."]


def test_an_underline_under_several_lines_is_not_text() -> None:
    doc = read_markdown("# Notes\n\nTwo lines\nof prose.\n===\n\nMore.\n", "x.md")
    assert [block.text for block in doc.blocks] == ["Two lines\nof prose.", "More."]


def test_a_setext_heading_still_names_its_section() -> None:
    doc = read_markdown("Install\n-------\n\nRun it.\n\n---\n\nDone.\n", "x.md")
    assert [(block.section, block.text) for block in doc.blocks] == [
        ("Install", "Run it."),
        ("Install", "Done."),
    ]


def test_a_comment_indexed_by_an_older_reader_is_dropped_on_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "pricing.md").write_text(PAGE, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "2")
        old.setattr(ingest_module, "read_document", _with_comments)
        ingest([docs], settings)
    assert KnowledgeIndex(settings.path).search("publish")  # the old reader indexed it
    report = ingest([docs], settings)
    assert report.indexed == 1
    assert KnowledgeIndex(settings.path).search("publish") == []
    assert KnowledgeIndex(settings.path).search("pay monthly")


def _with_comments(path: Path, data: bytes) -> Document:
    """The reader before comments were dropped: the comment as a paragraph of text."""
    document = read_document(path, data)
    note = Block("TODO: the price rises in May, do not publish")
    return replace(document, blocks=[note, *document.blocks])


def test_an_unclosed_comment_is_named_in_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    text = "---\ntitle: Pricing\n---\n# Pricing\n\nTen euros.\n\n<!-- draft\n\nFive euros.\n"
    (docs / "pricing.md").write_text(text, encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    assert (
        "  indexed kb/pricing.md in part: the HTML comment opened on line 8 is never closed "
        "(-->): the text after it is left out, as a Markdown renderer hides it"
    ) in capsys.readouterr().out
    assert [s.text for s in KnowledgeIndex(tmp_path / "i.db").search("euros")] == ["Ten euros."]
