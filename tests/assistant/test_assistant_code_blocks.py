"""Code from any reader reaches the index fenced, so the built-in answerer never quotes it."""

from __future__ import annotations

from pathlib import Path

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.chunking import chunk_blocks
from bot.knowledge.document import Block

API_PAGE = """<html><head><title>API reference</title></head><body>
<h1>API reference</h1>
<h2>Listing items</h2>
<p>Send the API key in the Authorization header as a bearer token.</p>
<pre>curl -H "Authorization: Bearer KEY" https://api.example.com/v1/items
# List items. Returns 200 with a JSON array of items.</pre>
</body></html>"""


def test_html_code_blocks_are_fenced_in_chunks() -> None:
    blocks = [Block("Run this:"), Block("echo ```\nls", kind="code")]
    [chunk] = chunk_blocks(blocks, 1200)
    assert chunk.text == "Run this:\n\n````\necho ```\nls\n````"
    fenced = "```sh\nls\n```"
    [markdown] = chunk_blocks([Block(fenced, kind="code")], 1200)
    assert markdown.text == fenced  # already fenced by the Markdown reader: left alone


async def test_the_answerer_does_not_quote_code_from_an_html_page(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.html").write_text(API_PAGE, encoding="utf-8")
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "index.db")}, "grounding": {"policy": "off"}}
    )
    ingest([tmp_path / "docs"], settings.index)
    assistant = Assistant(settings, KnowledgeIndex(settings.index.path))
    answer = await assistant.answer("How do I list items as a JSON array?", frozenset({"public"}))
    assert "curl" not in answer.text and "Returns 200" not in answer.text
