"""Passage sentences end at sentence ends and block starts, not at a Markdown soft wrap."""

from __future__ import annotations

from urllib.parse import unquote

from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import passage_sentences

GUIDE = """### Index settings

`index.path` sets where the SQLite search index is stored. `index.chunk_chars` sets the size of a
passage (1,200 characters by default); smaller passages give more precise citations, larger ones
more context.

- Reindex after changing it
  with `citecast ingest`.
- Nothing else changes.

| key | default |
|---|---|
| `index.path` | `.citecast/index.db` |
Text after the table
wraps too.

```sh
citecast ingest
docs/
```"""


def test_soft_wraps_join_and_blocks_split() -> None:
    assert passage_sentences(GUIDE) == (
        "### Index settings",
        "`index.path` sets where the SQLite search index is stored.",
        "`index.chunk_chars` sets the size of a passage (1,200 characters by default); smaller "
        "passages give more precise citations, larger ones more context.",
        "- Reindex after changing it with `citecast ingest`.",
        "- Nothing else changes.",
        "| key | default |",
        "|---|---|",
        "| `index.path` | `.citecast/index.db` |",
        "Text after the table wraps too.",
        "```sh",
        "citecast ingest",
        "docs/",
        "```",
    )


def test_a_quote_over_a_soft_wrap_links_text_the_page_shows() -> None:
    source = Source(
        id="admin#3",
        title="Administration",
        url="https://docs.example.org/admin.md",
        media_type="text/markdown",
        text=GUIDE,
    )
    answer = Answer(
        "Smaller passages give more precise citations, larger ones more context [^1].",
        (Citation(n=1, source=source, source_number=1),),
    )
    (citation,) = verify(answer).citations
    assert citation.quote is not None and "larger ones more context" in citation.quote
    assert citation.deep_link is not None
    fragment = unquote(citation.deep_link.split("#:~:text=", 1)[1])
    # what a browser shows of the paragraph: a soft line break is a space
    page = " ".join(GUIDE.replace("`", "").split())
    for part in fragment.split(","):
        assert part in page
