"""``.mdx`` pages (Docusaurus, Nextra, Astro docs) are read as Markdown without their JSX and
ESM, and a tag written over several lines is no text in ``.md`` or ``.mdx``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.ingest_file import READER_VERSION
from bot.knowledge.markdown_reader import read_markdown

INSTALL_MDX = """\
---
title: Installing Acme
url: https://docs.example.com/install
---
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const meta = {
  owner: 'platform',
};

# Install

{/* writers: the beta flag ships in May, do not publish */}

<Tabs
  groupId="os"
  values={[{label: 'Linux', value: 'linux'}, {label: 'macOS', value: 'mac'}]}>
  <TabItem value="linux">
    Install the daemon with apt, then restart the gateway service.
  </TabItem>
</Tabs>

<Callout type="warning">
  Never run the migrator twice in a row.
</Callout>

<Diagram src="/img/flow.png" caption="flow" />

{props.version}

```jsx
import Tabs from '@theme/Tabs';
<Tabs
  groupId="os">
```

Write `<Tabs groupId="os">` to group the tabs {/* todo: link */} by system.
"""

GUIDE_MD = """\
# Upgrade

<img
  src="https://cdn.example.com/upgrade-flow.png"
  alt="upgrade flow">

Back up the ledger database before every upgrade.
"""

MARKUP = ("import", "export", "Tabs", "TabItem", "groupId", "Callout", "Diagram", "props", "{")


def _texts(text: str, *, mdx: bool = True) -> list[str]:
    return [block.text for block in read_markdown(text, "page.mdx", mdx=mdx).blocks]


def _ingest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.mdx").write_text(INSTALL_MDX, encoding="utf-8")
    (docs / "upgrade.md").write_text(GUIDE_MD, encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    return config, capsys.readouterr().out


def test_an_mdx_page_is_ingested_without_its_jsx_and_answers_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, summary = _ingest(tmp_path, capsys)
    assert ".mdx" not in summary  # not among "other types ignored"
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        found = index.search("restart gateway daemon")
    finally:
        index.close()
    [source] = [hit for hit in found if hit.filename == "install.mdx"]
    assert source.title == "Installing Acme"
    assert source.url == "https://docs.example.com/install"
    prose = (source.text or "").split("```")[0]
    assert "Install the daemon with apt, then restart the gateway service." in prose
    assert "Never run the migrator twice in a row." in prose
    for markup in (*MARKUP, "writers", "publish", "flow.png"):
        assert markup not in prose, markup
    assert main(["--config", str(config), "ask", "How do I restart the gateway service?"]) == 0
    answer = capsys.readouterr().out
    assert "restart the gateway service" in answer
    assert "Tabs" not in answer.split("Sources:")[0]


def test_a_tag_over_several_lines_in_a_md_file_is_not_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, _ = _ingest(tmp_path, capsys)
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        [source] = index.search("ledger backup")
    finally:
        index.close()
    assert source.text == "Back up the ledger database before every upgrade."
    assert main(["--config", str(config), "ask", "What should I back up before upgrading?"]) == 0
    answer = capsys.readouterr().out
    assert "Back up the ledger database" in answer
    assert "cdn.example.com" not in answer and "src=" not in answer


def test_mdx_blocks_in_order_with_code_kept_as_written() -> None:
    assert _texts(INSTALL_MDX) == [
        "Install the daemon with apt, then restart the gateway service.",
        "Never run the migrator twice in a row.",
        "```jsx\nimport Tabs from '@theme/Tabs';\n<Tabs\n  groupId=\"os\">\n```",
        'Write `<Tabs groupId="os">` to group the tabs  by system.',
    ]


def test_front_matter_audience_of_an_mdx_page_is_read() -> None:
    page = "---\naudience: [staff]\n---\nimport X from 'x';\n\nPay rises in May.\n"
    document = read_markdown(page, "pay.mdx", mdx=True)
    assert document.audience == ("staff",)
    assert [block.text for block in document.blocks] == ["Pay rises in May."]


def test_an_indented_component_child_is_text_and_its_heading_a_heading() -> None:
    page = "<Steps>\n    ### Step one\n\n    Open the console.\n</Steps>\n"
    document = read_markdown(page, "steps.mdx", mdx=True)
    assert [(block.section, block.text) for block in document.blocks] == [
        ("Step one", "Open the console.")
    ]


@pytest.mark.parametrize(
    "page",
    [
        "if a < b and the\nresult > c then stop\n",  # "<" not followed by a letter
        "Compare x<y\nand y > z here\n",  # the "<" does not begin the line
        "<a\n\nb > c\n",  # a blank line ends what could have been a tag
        "<a\n" + "b\n" * 12 + "c>\n",  # not closed within the bound: text
    ],
)
def test_text_that_only_looks_like_an_open_tag_is_kept(page: str) -> None:
    kept = [block.text for block in read_markdown(page, "p.md").blocks]
    assert " ".join(" ".join(kept).split()) == " ".join(page.split())


def test_a_tag_over_several_lines_in_code_is_kept() -> None:
    page = 'Example:\n\n    <img\n      src="a.png">\n\n```html\n<img\n  src="b.png">\n```\n'
    assert _texts(page, mdx=False) == [
        "Example:",
        '<img\n      src="a.png">',
        '```html\n<img\n  src="b.png">\n```',
    ]


def test_an_adversarial_long_line_is_read_as_text() -> None:
    # _TAG and tag_lines are linear by construction (see the comments in markdown_markup.py):
    # every piece of the pattern stops at a character it cannot hold, and a multi-line tag is
    # tried over a bounded number of lines. A 40,000-character run of unclosed attributes,
    # quotes and braces, followed by lines that never close it, stays text.
    line = "<a " + 'b="<a {x ' * 4500
    page = line + "\nnext line\n" + '<a c="{' * 1000 + "\n"
    kept = " ".join(block.text for block in read_markdown(page, "p.mdx", mdx=True).blocks)
    assert kept.startswith("<a b=") and "next line" in kept
    assert len(line) >= 40_000


def test_the_reader_version_changed_so_md_files_are_read_again() -> None:
    # chunks stored by reader "6" hold the attributes of tags written over several lines
    assert READER_VERSION not in ("5", "6")
