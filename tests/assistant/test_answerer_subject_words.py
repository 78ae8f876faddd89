"""A question about a lower-case word nothing holds is not answered about its other words.

"how much does the gold plan cost?" listed every plan, "What is the file content about
llamas?" got the Discord set-up steps and "What is the rotation code in section
zebraunicorn?" another section's code: only a capitalised name ("Gold") got the not-found
reply. Inflected and stemmed words ("installing", "downloads", "instal") still find their
passages, and a verb no document writes ("returns") is no subject.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_subjects import subject_words
from tests.assistant.handbook_index import ask, ingested

PLANS = """\
code,name,price,seats
P1,Starter plan,10 USD,5
P2,Growth plan,40 USD,50
P3,Scale plan,90 USD,500
"""

WIKI = "\n".join(
    f"# Item QX{n:05d}\n\n"
    f"The rotation code for item QX{n:05d} in section {section} is {2600 + n}.\n"
    for n, section in enumerate(["api", "billing", "api", "search", "billing"], start=7)
)

GUIDE = """\
# Install

Installing the agent takes one command: run the installer with `--yes`.

## Downloads

Downloads of the installer are on the releases page, one per platform.

## Discord

Create a bot, enable the message content intent and invite it to your server.
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds a templated wiki and an install guide, with a plans table."""
    base = tmp_path_factory.mktemp("subject-words")
    (base / "plans.csv").write_text(PLANS, encoding="utf-8")
    records = (
        "  records:\n"
        "    - name: plans\n"
        f"      csv: {base / 'plans.csv'}\n"
        "      id_column: code\n"
        "      label_column: name\n"
        "      columns: [price, seats]\n"
        "      description: Plans (what each plan costs and its seats)\n"
    )
    return ingested(base, {"wiki.md": WIKI, "guide.md": GUIDE}, records=records)


@pytest.mark.parametrize(
    "question",
    [
        "how much does the gold plan cost?",
        "How many seats does the penguin plan have?",
        "What is the file content about llamas?",
        "What is the rotation code in section zebraunicorn?",
        "what is the rotation code in section zebraunicorn?",
        "Is there a plan for llamas?",
    ],
)
def test_a_lower_case_subject_nothing_holds_is_not_found(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    assert ask(handbook, question, capsys) == (NOT_FOUND, "")


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("How much does the growth plan cost?", "Growth plan: price: 40 USD"),
        ("What is the rotation code in section search?", "The rotation code for item QX00010"),
        ("What is the command for installing the agent?", "Installing the agent takes one"),
        ("Where are the downloads of the installer?", "Downloads of the installer are"),
        ("What is the command to instal the agent?", "Installing the agent takes one"),
    ],
)
def test_subjects_the_documents_hold_are_still_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, start: str
) -> None:
    assert ask(handbook, question, capsys)[0].startswith(start)


@pytest.mark.parametrize(
    ("question", "subjects"),
    [
        ("how much does the gold plan cost?", ["gold"]),
        # "cost" is the verb of a question asked with "does"; "per seat" names a unit
        ("How much does the Business plan cost per seat?", ["business"]),
        ("What is the file content about llamas?", ["llamas"]),
        # a verb outside a noun phrase ("returns") is no subject
        ("What happens when Slack returns 429?", []),
        ("Does citecast run on windows?", ["windows"]),
        # a how-to and a statement ask no fact
        ("How do I feed the llamas?", []),
        ("The llamas are hungry.", []),
    ],
)
def test_subject_words(question: str, subjects: list[str]) -> None:
    assert subject_words(question) == subjects
