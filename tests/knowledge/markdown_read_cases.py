"""Seeded Markdown and MDX pages mixing every construct the Markdown reader treats specially,
and a digest of how the reader reads one (for the golden comparison of reads before and after
the reader was made linear: ``golden_markdown_reads.json``)."""

from __future__ import annotations

import hashlib
import json
import random

from bot.knowledge.document import Document

# Lines the reader looks at twice: comments open and closed across lines, reference labels
# across lines, tags over several lines, hidden elements, fences, headings, admonitions,
# containers, MDX statements and expressions, tables, front matter.
PIECES = (
    "word and more words",
    "text <!--",
    "-->",
    "a --> b",
    "<!-- c -->",
    "<!--",
    "[ref]: https://example.com/a",
    "[ref",
    "x]: y",
    "[^1]: a note",
    "see [ref] and [a][ref]",
    "[]: z",
    "[^x",
    "]",
    "<div",
    '  class="a">',
    "<Tabs",
    ' groupId="os">',
    "</Tabs>",
    "<script>",
    "var a;",
    "</script>",
    "<style>",
    "p { color: red }",
    "</style>",
    "```",
    "~~~",
    "    indented",
    "\tcode",
    "# Head",
    "## Sub",
    "===",
    "---",
    "***",
    "- item",
    "* item",
    '!!! note "T"',
    "    body",
    ":::tip[Hi]",
    ":::",
    "import X from 'y'",
    "export const a = 1",
    "{",
    "}",
    "{/* c */}",
    "{props.v} is",
    "Version {v} out",
    "",
    "",
    "",
    "<br>",
    "`<!--` code",
    "a <b>bold</b>",
    "|a|b|",
    "|---|---|",
    "|1|2|",
    "  [lab",
    "el]: https://example.com/b",
)


def pages(count: int = 120, seed: int = 2026) -> list[str]:
    """``count`` pages of 5 to 200 lines drawn from :data:`PIECES`, some with front matter."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(count):
        # a first line of text: a "---" there would open front matter
        lines = ["Intro.", *(rng.choice(PIECES) for _ in range(rng.randint(5, 200)))]
        if rng.random() < 0.2:
            lines[:0] = ["---", "title: Front", "audience: [public]", "---"]
        out.append("\n".join(lines) + "\n")
    return out


def read_digest(document: Document) -> str:
    """A digest of all a read gives: title, blocks (text, section, page, kind), audience,
    URL and warnings."""
    read = {
        "title": document.title,
        "blocks": [[b.text, b.section, b.page, b.kind] for b in document.blocks],
        "audience": document.audience,
        "url": document.url,
        "warnings": list(document.warnings),
    }
    return hashlib.sha256(json.dumps(read).encode()).hexdigest()
