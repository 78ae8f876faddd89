"""A FAQ whose questions are plain lines, bold lines or HTML summaries is answered by the answers.

The built-in answerer quoted the document's own question back ("Can I bring my dog to work
[1]?"): that line holds every word of the user's question, while the answer on the next line
holds one. A question line is never quoted now, and the sentences after it hold its words as a
heading's. ``citecast eval`` could not notice (a question cites the right passage), so these ask
through ``citecast ask`` on documents written here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_faq import read_sentences
from tests.assistant.handbook_index import ask, ingested

PLAIN = """\
Frequently asked questions

Where is the lost and found?
The lost and found box is at the reception desk in building A.

Can I bring my dog to work?
Dogs are allowed in the office on Fridays, but never in the warehouse.

Who do I call in an emergency?
Call the site security line on extension 999 at any time.
"""

BOLD = """\
# IT FAQ

**How do I reset my VPN token?**
Open the self-service portal and choose "Reset token"; the new token arrives by SMS.

**Can I install my own software?**
Only software from the company catalogue may be installed on work laptops.
"""

SUMMARIES = """\
<!doctype html><html><head><title>Customer help</title></head><body><main>
<h1>Customer help</h1>
<details><summary>Can I change the delivery address?</summary><p>Yes, until the parcel leaves the
depot; use the tracking page.</p></details>
<details><summary>Do you deliver on Saturdays?</summary><p>Saturday delivery is available in
Zone A for a 12 EUR surcharge.</p></details>
<dl><dt>Insurance</dt><dd>Every shipment is insured up to 500 EUR.</dd></dl>
</main></body></html>
"""


@pytest.fixture(scope="module")
def faqs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds a plain-text FAQ, a Markdown one and an HTML one."""
    base = tmp_path_factory.mktemp("faq-lines")
    return ingested(base, {"faq.txt": PLAIN, "it-faq.md": BOLD, "help.html": SUMMARIES})


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "Can I bring my dog to work?",
            "Dogs are allowed in the office on Fridays, but never in the warehouse [1].",
        ),
        (
            "Who do I call in an emergency?",
            "Call the site security line on extension 999 at any time [1].",
        ),
        (
            "Where is the lost and found?",
            "The lost and found box is at the reception desk in building A [1].",
        ),
        (
            "How do I reset my VPN token?",
            'Open the self-service portal and choose "Reset token"; the new token arrives by'
            " SMS [1].",
        ),
        (
            "Do you deliver on Saturdays?",
            "Saturday delivery is available in Zone A for a 12 EUR surcharge [1].",
        ),
        (
            "Can I change the delivery address?",
            "Yes, until the parcel leaves the depot; use the tracking page [1].",
        ),
    ],
)
def test_a_faq_question_line_is_answered_by_the_lines_after_it(
    faqs: Path, capsys: pytest.CaptureFixture[str], question: str, answer: str
) -> None:
    assert ask(faqs, question, capsys)[0] == answer


def test_an_answer_ends_with_its_paragraph(faqs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the summary's answer is the paragraph after it, not the insurance note after that
    text = ask(faqs, "Do you deliver on Saturdays?", capsys)[0]
    assert "insured" not in text


def test_sentences_after_a_question_line_hold_its_words() -> None:
    text = (
        "Intro line for the page.\n\n"
        "**Can I park here?** Is it free of charge?\n"
        "Yes, in the staff car park. It costs nothing.\n\n"
        "What does it cost?\n\nIt costs 5 EUR.\n\nA note of its own."
    )
    read = [(r.text, r.asks, r.question) for r in read_sentences(text)]
    assert read == [
        ("Intro line for the page.", False, ""),
        ("**Can I park here?**", True, ""),
        ("Is it free of charge?", True, ""),
        ("Yes, in the staff car park.", False, "**Can I park here?** Is it free of charge?"),
        ("It costs nothing.", False, "**Can I park here?** Is it free of charge?"),
        ("What does it cost?", True, ""),
        ("It costs 5 EUR.", False, "What does it cost?"),
        ("A note of its own.", False, ""),
    ]


def test_a_sentence_that_quotes_a_question_asks_none() -> None:
    read = read_sentences('Try asking "What is Beacon?" in the chat. It answers at once.')
    assert [r.asks for r in read] == [False, False]
    assert not any(r.question for r in read)
