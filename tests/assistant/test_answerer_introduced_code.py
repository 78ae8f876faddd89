"""A quoted sentence that introduces a code block with a colon brings the block along.

"write this unit file exactly as shown:" quoted alone pointed at nothing; the block under it is
what the person asked for.
"""

from __future__ import annotations

from pathlib import Path

from bot.assistant.assistant import Assistant
from bot.assistant.extractive_faq import read_sentences
from bot.assistant.extractive_sentences import paragraph_sentences, paragraphs_with_code
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.markdown import parse

UNIT = "```ini\n[Service]\nExecStart=/usr/bin/frobnicator --serve [1]\nRestart=always\n```"
GUIDE = f"""# Frobnicator service

## Running under systemd

To run the frobnicator service under systemd, write this unit file exactly as shown:

{UNIT}

Then enable the frobnicator unit with systemctl.

## Logs

The frobnicator service writes its logs to the journal. For example:

~~~
journalctl -u frobnicator
~~~
"""


def test_only_a_sentence_ending_in_a_colon_brings_the_block_under_it() -> None:
    read = paragraphs_with_code(GUIDE)
    # each paragraph knows the block right under it ("For example:" is a stub, left out) ...
    assert [code for _, code in read if code] == [UNIT, "~~~\njournalctl -u frobnicator\n~~~"]
    # ... and only a sentence that introduces it with a colon brings it
    assert [(r.text, r.code) for r in read_sentences(GUIDE) if r.code] == [
        (
            "To run the frobnicator service under systemd, write this unit file exactly as shown:",
            UNIT,
        )
    ]
    # the sentences themselves are read as before: code is never one
    assert [s for s, _ in read] == paragraph_sentences(GUIDE)
    assert not any("ExecStart" in s for p in paragraph_sentences(GUIDE) for s in p)


async def test_the_answer_quotes_the_block_its_sentence_introduces(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "frob.md").write_text(GUIDE, encoding="utf-8")
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "index.db")}, "grounding": {"policy": "off"}}
    )
    ingest([tmp_path / "docs"], settings.index)
    assistant = Assistant(settings, KnowledgeIndex(settings.index.path))
    answer = await assistant.answer(
        "How do I run the frobnicator service under systemd?", frozenset({"public"})
    )
    assert "exactly as shown [^1]:\n\n" + UNIT + "\n\n" in answer.text
    assert answer.text.endswith("Then enable the frobnicator unit with systemctl [^1].")
    # one citation: the "[1]" inside the block is code, never a marker
    assert [c.n for c in answer.citations] == [1]
    assert [t["type"] for t in parse(answer.text) if t["type"] != "blank_line"] == [
        "paragraph",
        "block_code",
        "paragraph",
    ]
