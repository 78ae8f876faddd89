"""Code that readers once stored as prose (a Markdown file's raw ``<pre>``, an HTML page's
inline ``<code>``) is stored as code, so the reference-mark rule (bot.reference_marks) keeps
its brackets on the way to the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.chunking import fenced
from bot.knowledge.html_code_span import code_span
from bot.knowledge.html_reader import read_html
from bot.knowledge.ingest_file import READER_VERSION
from bot.knowledge.markdown_reader import read_markdown
from bot.reference_marks import passage_without_reference_marks
from bot.registry import SourceRegistry

PRE_MARKDOWN = """\
# Lookups

Call it like this:

<pre>
result = lookup [1].

x = a &lt; b
</pre>

Then read the result [2].
"""


def test_a_raw_pre_block_in_markdown_is_code() -> None:
    blocks = read_markdown(PRE_MARKDOWN, "lookups.md").blocks
    assert [(block.text, block.kind, block.section) for block in blocks] == [
        ("Call it like this:", "text", "Lookups"),
        ("result = lookup [1].\n\nx = a < b", "code", "Lookups"),
        ("Then read the result [2].", "text", "Lookups"),
    ]
    shown = passage_without_reference_marks(fenced(blocks[1].text))
    assert "result = lookup [1]." in shown


def test_a_pre_block_with_markup_reads_as_the_browser_shows_it() -> None:
    text = 'Intro\n<PRE class="py"><code><b>key</b> = row[1]</code></pre> after [3].\nnext\n'
    blocks = read_markdown(text, "a.md").blocks
    assert [(block.text, block.kind) for block in blocks] == [
        ("Intro", "text"),
        ("key = row[1]", "code"),
        ("after [3].", "text"),
        ("next", "text"),
    ]


def test_an_unclosed_pre_block_runs_to_the_end_of_the_file() -> None:
    blocks = read_markdown("<pre>\nx = f [1].\n\n# not a heading\n", "a.md").blocks
    assert [(block.text, block.kind) for block in blocks] == [
        ("x = f [1].\n\n# not a heading", "code")
    ]


def test_a_pre_inside_indented_code_or_a_fence_stays_as_it_was() -> None:
    blocks = read_markdown("```html\n<pre>a [1].</pre>\n```\n\n    <pre>b</pre>\n", "a.md")
    # (the indented block is stored as its text, tags and all: not read as HTML)
    assert [(block.text, block.kind) for block in blocks.blocks] == [
        ("```html\n<pre>a [1].</pre>\n```", "code"),
        ("<pre>b</pre>", "text"),
    ]


def test_html_pre_text_is_code_up_to_a_block_inside_it_or_an_unclosed_end() -> None:
    blocks = read_html("<pre>a = f [1]<div>b [2]</div></pre><pre>c [3]", "a.html").blocks
    assert [(block.text, block.kind) for block in blocks] == [
        ("a = f [1]", "code"),
        ("b [2]", "code"),
        ("c [3]", "code"),
    ]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("<p>Set <code>retries: [3]</code>.</p>", "Set `retries: [3]`."),
        ("<p>Call <code>lookup [1]</code>.</p>", "Call `lookup [1]`."),
        ("<p>Run <code>a `b` c</code> now</p>", "Run ``a `b` c`` now"),
        ("<p>Type <code>`</code> here</p>", "Type `` ` `` here"),
        ("<p>Empty <code></code> code</p>", "Empty code"),
        ("<p><code>a<code>b</code></code> x</p>", "`ab` x"),
    ],
)
def test_inline_code_in_html_is_a_code_span(page: str, expected: str) -> None:
    [block] = read_html(page, "a.html").blocks
    assert block.text == expected


def test_html_code_keeps_its_marks_on_the_model_path() -> None:
    [block] = read_html("<p>Call <code>lookup [1]</code>.</p>", "a.html").blocks
    assert passage_without_reference_marks(block.text) == "Call `lookup [1]`."


def test_a_heading_and_a_pre_hold_no_code_span() -> None:
    page = "<h2>The <code>lookup</code> call</h2><pre>x = <code>f [1]</code></pre>"
    [block] = read_html(page, "a.html").blocks
    assert (block.text, block.kind, block.section) == ("x = f [1]", "code", "The lookup call")


def test_a_code_span_fence_outlasts_the_backticks_inside() -> None:
    assert code_span("a ``` b") == "````a ``` b````"
    assert code_span("plain") == "`plain`"


def test_the_reader_version_is_bumped() -> None:
    assert int(READER_VERSION) >= 21  # an index read by "20" holds this code as prose


def test_ingested_code_reaches_the_model_with_its_brackets(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "lookups.md").write_text(PRE_MARKDOWN, encoding="utf-8")
    (kb / "retries.html").write_text(
        "<html><body><h1>Retries</h1><p>The walrus client reads "
        "<code>lookup [1]</code>.</p></body></html>",
        encoding="utf-8",
    )
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([kb], settings.index)
    found = KnowledgeIndex(settings.index.path).search("lookup", limit=5)
    shown = SourceRegistry().format_passages(found)
    assert "result = lookup [1]." in shown
    assert "The walrus client reads `lookup [1]`." in shown
    assert "Then read the result." in shown  # prose marks still go
