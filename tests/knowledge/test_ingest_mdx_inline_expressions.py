"""Inline MDX ``{expressions}`` are not text in ``.mdx`` pages (a rendered page shows their
value, never their source); code keeps them, and ``.md`` files keep their literal braces."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.markdown_markup import without_expressions
from bot.knowledge.markdown_reader import read_markdown

PAGE = """\
# Release {props.version}

Version {props.version} is out today.
The current build is
{props.build} and it ships from {siteConfig.url}.

{props.name} ships with the wombat importer.

Write `{props.version}` in a page, {fn({a: 1})} stays, a{' '}b.

```jsx
<Version value={props.version} />
```
"""


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("Version {props.version} is out", "Version is out"),
        ("It is {props.version}.", "It is."),
        ("{props.name} ships today.", "ships today."),
        ("a{' '}b and {\"Note\"}", "a b and Note"),
        ("keep `{props.x}` in code", "keep `{props.x}` in code"),
        (r"an escaped \{brace\} is text", r"an escaped \{brace\} is text"),
        ("nested {fn({a: 1})} is left", "nested {fn({a: 1})} is left"),
        ("an open { brace is text", "an open { brace is text"),
    ],
)
def test_simple_inline_expressions_go(line: str, shown: str) -> None:
    assert without_expressions(line) == shown


def test_an_mdx_page_reads_without_its_inline_expressions() -> None:
    doc = read_markdown(PAGE, "release.mdx", mdx=True)
    assert [(block.section, block.text) for block in doc.blocks] == [
        ("Release", "Version is out today.\nThe current build is\nand it ships from."),
        ("Release", "ships with the wombat importer."),
        ("Release", "Write `{props.version}` in a page, {fn({a: 1})} stays, a b."),
        ("Release", "```jsx\n<Version value={props.version} />\n```"),
    ]
    assert doc.title == "Release"


def test_a_markdown_file_keeps_its_braces() -> None:
    doc = read_markdown(PAGE, "release.md")
    assert doc.blocks[0].text == (
        "Version {props.version} is out today.\nThe current build is\n"
        "{props.build} and it ships from {siteConfig.url}."
    )
    assert doc.blocks[0].section == "Release {props.version}"


def test_a_line_that_opens_with_an_expression_keeps_its_text(tmp_path: Path) -> None:
    # it was read as a block-level expression and left out whole
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "release.mdx").write_text(PAGE, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([docs], settings)
    index = KnowledgeIndex(settings.path)
    try:
        [found, *_] = index.search("wombat importer")
        assert index.search("siteConfig") == []
    finally:
        index.close()
    assert found.text is not None and "ships with the wombat importer." in found.text
    assert "props.name" not in found.text
