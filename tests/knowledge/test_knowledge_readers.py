"""Readers: heading paths (fenced code ignored), front matter, HTML structure, PDF paragraphs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.knowledge.document import Unreadable
from bot.knowledge.html_reader import read_html
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.pdf_reader import paragraphs
from bot.knowledge.readers import read_document

GUIDE = """\
---
title: Setup guide
audience: [staff, admins]
url: https://docs.example.com/setup
---
Intro before any heading.

# Setup

Top level text.

## Linux

Install the package.

```sh
# Not a heading
## Also not a heading
```

### Troubleshooting

If it fails, read the log.

## macOS
Use Homebrew.

Windows notes
-------------

Use WSL.
"""


def test_markdown_heading_paths_ignore_headings_inside_fenced_code() -> None:
    doc = read_markdown(GUIDE, "guide.md")
    by_text = {block.text.splitlines()[0]: block for block in doc.blocks}
    assert by_text["Intro before any heading."].section is None
    assert by_text["Top level text."].section == "Setup"
    assert by_text["Install the package."].section == "Setup > Linux"
    code = by_text["```sh"]
    assert code.kind == "code" and code.section == "Setup > Linux"
    assert "## Also not a heading" in code.text
    assert by_text["If it fails, read the log."].section == "Setup > Linux > Troubleshooting"
    assert by_text["Use Homebrew."].section == "Setup > macOS"
    assert by_text["Use WSL."].section == "Setup > Windows notes"


def test_markdown_front_matter_gives_title_audience_and_url() -> None:
    doc = read_markdown(GUIDE, "guide.md")
    assert doc.title == "Setup guide"
    assert doc.audience == ("staff", "admins")
    assert doc.url == "https://docs.example.com/setup"
    assert all("audience:" not in block.text for block in doc.blocks)


def test_markdown_title_falls_back_to_first_heading_then_file_name() -> None:
    assert read_markdown("text\n\n## **Deep** `title`\n\nmore", "a.md").title == "Deep title"
    assert read_markdown("just text", "notes.md").title == "notes.md"


def test_markdown_bad_front_matter_makes_the_file_unreadable() -> None:
    # It may have held `audience:`; indexing it as text would publish a private file.
    with pytest.raises(Unreadable, match="front matter is not valid YAML"):
        read_markdown("---\n: : [unclosed\n---\nBody.", "x.md")


def test_markdown_unclosed_front_matter_is_kept_as_text() -> None:
    doc = read_markdown("---\nNot front matter.\n\nBody.", "x.md")
    assert doc.audience is None
    assert any("Body." in block.text for block in doc.blocks)


HTML = """<!doctype html><html><head><title>Security model</title>
<meta name="citecast:audience" content="staff, ops">
<link rel="canonical" href="https://example.com/security">
<style>p { color: red }</style><script>var secret = 1;</script></head>
<body><nav>Home</nav><h1>Security</h1><p>Intro   text
spread over lines.</p>
<h2>Audiences</h2><p>Groups see sources.</p><ul><li>One</li><li>Two &amp; three</li></ul>
<h3>Deciding</h3><pre>keep   spacing
here</pre><h2>Links</h2><div>Only <b>https</b> links.</div></body></html>"""


def test_html_blocks_sections_meta_and_hidden_content() -> None:
    doc = read_html(HTML, "security.html")
    assert doc.title == "Security model"
    assert doc.url == "https://example.com/security"
    assert doc.audience == ("staff", "ops")
    pairs = [(block.text, block.section) for block in doc.blocks]
    assert ("Intro text spread over lines.", "Security") in pairs
    assert ("Groups see sources.", "Security > Audiences") in pairs
    assert ("Two & three", "Security > Audiences") in pairs
    assert ("keep   spacing\nhere", "Security > Audiences > Deciding") in pairs
    assert ("Only https links.", "Security > Links") in pairs
    assert all("secret" not in text and "color" not in text for text, _ in pairs)


def test_pdf_paragraphs_are_rebuilt_from_lines() -> None:
    page = (
        "2. Backups\n"
        "Back up the store every night. It holds the turns and the outbox and the\n"
        "feedback of every user.\n"
        "The index needs no backup.\n"
    )
    assert paragraphs(page) == [
        ("2. Backups", True),
        (
            "Back up the store every night. It holds the turns and the outbox and the "
            "feedback of every user.",
            False,
        ),
        ("The index needs no backup.", False),
    ]


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.md", b"", "empty file"),
        ("blank.txt", b"  \n\n ", "empty file"),
        ("latin.md", "caf\u00e9".encode("latin-1"), "not UTF-8 text"),
        ("binary.txt", b"abc\x00def" * 10, "binary content"),
        ("broken.pdf", b"%PDF-1.4\nnot really a pdf", "damaged PDF"),
        ("data.xlsx", b"PK\x03\x04", "unsupported file type (.xlsx)"),
        ("only-headings.md", b"# A\n\n## B\n", "no text"),
    ],
)
def test_unusable_files_are_unreadable_with_a_reason(name: str, data: bytes, reason: str) -> None:
    with pytest.raises(Unreadable) as caught:
        read_document(Path(name), data)
    assert str(caught.value).startswith(reason)
