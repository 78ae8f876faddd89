"""The built-in answerer does not answer what its sentences only seem to answer.

"Does citecast run on Windows?" was answered by "citecast runs as one process …" (only "run"
and the product's name), "How do I configure SAML single sign-on?" by the sentences of the
"Configuration" section (only its heading's "configure"), and "What support comes with the
Enterprise plan?" by the plan's record and then a FAQ entry whose heading asks where a cited
sentence "comes from".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from tests.assistant.handbook_index import ask, ingested

OPERATIONS = """\
# Operations handbook

## Running Beacon in production

This handbook is for operators who run Beacon for a team. Beacon runs as one process started
with `beacon serve`, on Linux or macOS. Run the process under a supervisor such as systemd.

## Install

Install Beacon with `pip install beacon` inside a virtual environment. The development extras
add pytest, hypothesis and ruff. Python 3.12 or newer is required.

## Channels

Beacon supports a web chat, Slack and email. Each channel has its own section in the config
file, and a channel without one is off.

## Configuration

All settings live in `config.yaml`. Every key has a sensible default, so the file may be
empty.

## Storage

The knowledge index is a single SQLite file.

## Web chat

### How do I see where a cited sentence comes from?

Hover the superscript number after the sentence to see the quoted passage.
"""

PLANS = """\
sku,name,support
BC-TEAM,Beacon Team,email within 2 business days
BC-ENT,Beacon Enterprise,24/7 with a named engineer
"""


@pytest.fixture
def handbook(tmp_path: Path) -> Path:
    """A config whose index holds an operations handbook, with a table of plans."""
    (tmp_path / "plans.csv").write_text(PLANS, encoding="utf-8")
    records = (
        "  records:\n"
        "    - name: plans\n"
        f"      csv: {tmp_path / 'plans.csv'}\n"
        "      id_column: sku\n"
        '      label_template: "{name} ({sku})"\n'
        "      columns: [support]\n"
        "      description: Plans (what support each plan includes)\n"
    )
    return ingested(tmp_path, {"operations.md": OPERATIONS}, records=records)


@pytest.mark.parametrize(
    "question",
    [
        "Does Beacon run on Windows?",  # nothing names Windows: it cannot be confirmed
        "Hi, is a Slack channel supported on FreeBSD?",
        # only the "Configuration" heading holds a word of it ("single" is elsewhere)
        "How do I configure SAML single sign-on?",
    ],
)
def test_a_question_its_sentences_only_seem_to_answer_is_not_found(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    assert ask(handbook, question, capsys)[0] == NOT_FOUND


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("Does Beacon run on Linux?", "Beacon runs as one process"),
        ("Is it OK to run Beacon under systemd?", "Run the process under a supervisor"),
        # a how-to is answered with the steps that hold, wherever it names
        ("How do I install Beacon on a Raspberry Pi?", "Install Beacon with `pip install"),
        ("How do I configure Beacon?", "All settings live in `config.yaml`"),
    ],
)
def test_questions_the_handbook_answers_are_still_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, start: str
) -> None:
    assert start in ask(handbook, question, capsys)[0]


def test_a_heading_sharing_only_the_questions_verb_does_not_follow_a_record(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = ask(handbook, "What support comes with the Enterprise plan?", capsys)[0]
    assert answer == ("Beacon Enterprise (BC-ENT): support: 24/7 with a named engineer [1].")
