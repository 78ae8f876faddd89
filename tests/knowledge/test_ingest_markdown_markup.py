"""Markdown markup a rendered page does not show (raw HTML and JSX tags, footnote marks, link
targets and reference definitions, admonition markers) is not indexed, so it never reaches a
quote."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.ingest_file import READER_VERSION
from bot.knowledge.markdown_reader import read_markdown

GUIDE = """\
# Install

## Linux

!!! note "Heads up"
    The daemon needs root to bind port 80.

:::tip[Faster]
Use the package manager instead of the tarball.
:::

<Callout type="warning">
Never run the migrator twice in a row.
</Callout>

<div class="admonition">
<p>Restart the <b>service</b> after upgrading.<br>Then log in again.</p>
</div>

See the [configuration reference][cfg] for details.[^1] Write `<b>` for bold.

[cfg]: https://docs.example.com/config.html "Reference"

[^1]: The reference covers version 2.4 only.
"""


def _texts(markdown: str) -> list[str]:
    return [block.text for block in read_markdown(markdown, "guide.md").blocks]


def test_tags_footnotes_and_admonition_markers_are_not_text() -> None:
    assert _texts(GUIDE) == [
        "Heads up",
        "The daemon needs root to bind port 80.",
        "Faster",
        "Use the package manager instead of the tarball.",
        "Never run the migrator twice in a row.",
        "Restart the service after upgrading. Then log in again.",
        "See the configuration reference for details. Write `<b>` for bold.",
        "The reference covers version 2.4 only.",
    ]


def test_links_and_images_are_their_text() -> None:
    page = (
        'Read the [upgrade notes](https://x.example/u.html "Upgrade") and ![the diagram](a.png), '
        "then the [backup guide][BK] or [Bk][]. Kept: a[0][1], [draft][nope] and `[x](y)`.\n\n"
        "[bk]: https://docs.example.com/backup.html\n"
    )
    assert _texts(page) == [
        "Read the upgrade notes and the diagram, then the backup guide or Bk. "
        "Kept: a[0][1], [draft][nope] and `[x](y)`."
    ]


def test_indented_code_and_fenced_code_keep_their_tags() -> None:
    page = 'Example:\n\n    <div class="x">kept</div>\n\n```html\n<p>also kept</p>\n```\n'
    assert _texts(page) == [
        "Example:",
        '<div class="x">kept</div>',
        "```html\n<p>also kept</p>\n```",
    ]


@pytest.mark.parametrize(
    "line", ["<https://example.com/a>", "<ops@example.com>", "if a < b and c > d"]
)
def test_autolinks_and_comparisons_are_text(line: str) -> None:
    assert _texts(f"{line}\n") == [line]


def test_a_link_definition_inside_a_paragraph_is_text() -> None:
    # CommonMark: a definition cannot interrupt a paragraph
    assert _texts("Line one\n[a]: b\n") == ["Line one\n[a]: b"]


def test_ingested_chunks_and_the_answer_quote_no_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text(GUIDE, encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        [source] = index.search("restart")  # the page is one chunk
    finally:
        index.close()
    stored = source.text or ""
    for markup in ("<b>", "<p>", "Callout", "!!!", ":::", "[^1]", "[cfg]", "docs.example.com"):
        assert markup not in stored.replace("`<b>`", "")
    capsys.readouterr()
    assert (
        main(["--config", str(config), "ask", "Should I restart the service after upgrading?"]) == 0
    )
    answer = capsys.readouterr().out
    assert "Restart the service after upgrading" in answer
    assert "<" not in answer.split("Sources:")[0]


def test_the_reader_version_changed_so_indexes_read_files_again() -> None:
    # chunks stored by reader "5" hold the markup; they must not stay until the file changes
    assert READER_VERSION != "5"
