"""A quoted sentence keeps its own end, and its citation stays with it.

A sentence that ends inside quotes, brackets or emphasis (``click "Save."``) or with more than
one mark (``...``, ``?!``) is quoted as written, with the marker right after it. Written
``"Save." [1].`` instead, the marker began a sentence of its own (".") and grounding checked
that instead of the quoted sentence.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.cited_lines import with_marker
from bot.assistant.extractive_sentences import sentences_of
from bot.claims import claims
from bot.config import Settings
from bot.knowledge import ingest

PUBLIC = frozenset({"public"})

GUIDE = """\
# Saving drafts

To keep a draft, press the button labelled "Save." Drafts you keep stay for thirty days.

# Publishing

A published draft can be withdrawn within ten minutes (the undo window.)
"""


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        ('Press the button labelled "Save."', 'Press the button labelled "Save."[1]'),
        ("“Quoted sentence.”", "“Quoted sentence.”[1]"),
        ("It is withdrawn (see the guide.)", "It is withdrawn (see the guide.)[1]"),
        ("It is **important.**", "It is **important.**[1]"),
        ("Wait for it...", "Wait for it...[1]"),
        ("Is it?!", "Is it?![1]"),
        # one mark of its own: the marker goes before it, as always
        ("Done!", "Done [1]!"),
        ("Use **bold**.", "Use **bold** [1]."),
        ("It works (see the guide)", "It works (see the guide) [1]."),
    ],
)
def test_a_sentence_keeps_an_end_written_inside_quotes_or_of_several_marks(
    sentence: str, written: str
) -> None:
    assert with_marker(sentence, 1) == written


@pytest.mark.parametrize(
    ("paragraph", "first"),
    [
        (
            'Press the button labelled "Save." Then close the editor.',
            'Press the button labelled "Save."',
        ),
        (
            "It is withdrawn (see the guide.) After that it stays.",
            "It is withdrawn (see the guide.)",
        ),
        ("It is **important.** Read it twice before you start.", "It is **important.**"),
    ],
)
def test_a_sentence_ending_inside_quotes_is_not_run_into_the_next(
    paragraph: str, first: str
) -> None:
    # grounding (bot.claims) reads these as two sentences, so the answer must cite both
    assert sentences_of(paragraph) == [first, paragraph.removeprefix(first).strip()]


@pytest.fixture
def assistant(tmp_path: Path) -> Assistant:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "drafts.md").write_text(GUIDE, encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([docs], settings.index)
    return Assistant.from_settings(settings)


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("How do I keep a draft?", 'To keep a draft, press the button labelled "Save."'),
        ("Can a published draft be withdrawn?", "A published draft can be withdrawn"),
    ],
)
async def test_the_citation_of_a_quoted_sentence_is_checked_against_that_sentence(
    assistant: Assistant, question: str, sentence: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    assert answer.text.startswith(sentence)
    [citation] = answer.citations
    assert citation.claim is not None and citation.claim.startswith(sentence.rstrip('."'))
    assert citation.support is not None and citation.support >= 0.9
    assert ".[^1]." not in answer.text and ". [^1]." not in answer.text
    assert all(claim.numbers for claim in claims(answer.text))  # no claim left uncited
