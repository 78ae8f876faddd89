"""A post is answered by its questions: filler around one, or several in one post.

"How do I install citecast on Linux?" followed by "Any help appreciated, I am stuck on this
since yesterday." got the not-found reply (on Discourse: no reply at all) while the title alone
was answered: read as one question, the filler's five words outnumbered the question's three,
and no install sentence held half of the post's words. Three questions in one post diluted one
another the same way: only the first was answered.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_posts import Asked, joined_questions, post_questions, stands_alone
from bot.cli import main
from tests.assistant.handbook_index import ask, ingested

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

FROBNICATOR = """\
# Frobnicator

## Resetting the frobnicator

To reset the frobnicator, hold the reset button for ten seconds until the light blinks twice.

## Frobnicator logs

Frobnicator logs are kept for 30 days and then deleted automatically.
"""

SETTINGS = """\
# Settings

## zorblax

The zorblax setting controls how often the device polls the server, in seconds.

## Network

The proxy setting names the HTTP proxy the device uses.
"""

RESET = "To reset the frobnicator, hold the reset button"
LOGS = "Frobnicator logs are kept for 30 days"
ZORBLAX = "The zorblax setting controls how often"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds examples/ (its documents; no record table)."""
    base = tmp_path_factory.mktemp("post-questions-examples")
    path = base / "config.yaml"
    path.write_text(f"index:\n  path: {base / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(path), "ingest", str(EXAMPLES)]) == 0
    return path


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("post-questions")
    return ingested(base, {"frobnicator.md": FROBNICATOR, "settings.md": SETTINGS})


@pytest.mark.parametrize(
    "post",
    [
        "How do I install citecast on Linux?\n\n"
        "Any help appreciated, I am stuck on this since yesterday.",
        "Hi all,\n\nHow do I install citecast on Linux? Thanks in advance, I am stuck on this "
        "since yesterday and my boss wants it by Friday.",
        "How do I install citecast on Linux?\nAny help appreciated, I am stuck on this since "
        "yesterday.",
    ],
)
def test_filler_around_a_question_does_not_hide_its_answer(
    examples: Path, capsys: pytest.CaptureFixture[str], post: str
) -> None:
    alone = ask(examples, "How do I install citecast on Linux?", capsys)
    assert alone[0] != NOT_FOUND
    assert ask(examples, post, capsys) == alone


def test_filler_around_a_statement_reads_its_first_sentence(
    examples: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = (
        "I want to install citecast on Linux.\n\n"
        "Any help appreciated, I am stuck on this since yesterday."
    )
    text, sources = ask(examples, post, capsys)
    assert "pip install citecast" in text
    assert "getting-started.md" in sources


@pytest.mark.parametrize(
    "post",
    [
        "how much does the gold plan cost?",
        "how much does the gold plan cost?\n\nAny help appreciated, I am stuck since yesterday.",
    ],
)
def test_a_subject_nothing_holds_is_still_not_found(
    examples: Path, capsys: pytest.CaptureFixture[str], post: str
) -> None:
    assert ask(examples, post, capsys) == (NOT_FOUND, "")


def test_each_question_of_a_post_is_judged_on_its_own(
    examples: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = "How much does the gold plan cost? How do I install citecast on Linux?"
    assert ask(examples, post, capsys) == ask(
        examples, "How do I install citecast on Linux?", capsys
    )


def test_every_question_of_a_post_is_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = (
        "How do I reset the frobnicator and how long are frobnicator logs kept? "
        "What does the zorblax setting control?"
    )
    for question, fact in [
        ("How do I reset the frobnicator?", RESET),
        ("How long are frobnicator logs kept?", LOGS),
        ("What does the zorblax setting control?", ZORBLAX),
    ]:
        assert ask(handbook, question, capsys)[0].startswith(fact)
    text, sources = ask(handbook, post, capsys)
    assert RESET in text and LOGS in text and ZORBLAX in text
    # each question's answer is a paragraph of its own
    assert f"\n\n{ZORBLAX}" in text
    assert "frobnicator.md" in sources and "settings.md" in sources


@pytest.mark.parametrize(
    "post",
    [
        "How do I reset the frobnicator and what is the price of the platinum plan?",
        "How do I reset the frobnicator and where is the walrus manual for the kitchen printer?",
    ],
)
def test_a_joined_question_nothing_answers_does_not_hide_the_other(
    handbook: Path, capsys: pytest.CaptureFixture[str], post: str
) -> None:
    # read as one, the sentence found nothing; its second question is still not answered
    assert ask(handbook, post, capsys) == ask(handbook, "How do I reset the frobnicator?", capsys)


def test_questions_that_lean_on_one_another_are_answered_together(
    examples: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "How do I set it up?" alone asks about nothing: the post is read as one question
    text, sources = ask(examples, "Does citecast support Slack? How do I set it up?", capsys)
    assert "Put the bot token and the signing secret in the environment" in text
    assert "How do I connect citecast to Slack?" in sources
    assert "How do I connect citecast to Discord?" not in sources


def test_a_post_none_of_whose_questions_is_answered_is_not_found(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = "What does the quuxle setting control? How long are wombat logs kept?"
    assert ask(handbook, post, capsys) == (NOT_FOUND, "")


@pytest.mark.parametrize(
    ("post", "questions"),
    [
        ("How do I install it?", [Asked("How do I install it?", "")]),
        (
            "Install on Linux\n\nHow do I do it? I am stuck. Does it need root?",
            [
                Asked("How do I do it?", "Install on Linux"),
                Asked("Does it need root?", "Install on Linux How do I do it? I am stuck."),
            ],
        ),
        # no question mark: the first sentence; mail wraps a sentence over lines
        (
            "I want to install it\non Linux. I am stuck.",
            [Asked("I want to install it\non Linux.", "")],
        ),
        ('Is the setting "on"?) Thanks.', [Asked('Is the setting "on"?)', "")]),
        ("如何安装？谢谢。", [Asked("如何安装？", "")]),
        ("   ", []),
    ],
)
def test_post_questions(post: str, questions: list[Asked]) -> None:
    assert post_questions(post) == questions


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "How do I reset it, and how long are logs kept?",
            ["How do I reset it?", "how long are logs kept?"],
        ),
        ("What is X and what is Y", ["What is X", "what is Y"]),
        ("Does it support Slack and Discord?", ["Does it support Slack and Discord?"]),
    ],
)
def test_joined_questions(question: str, parts: list[str]) -> None:
    assert joined_questions(question) == parts


@pytest.mark.parametrize(
    ("question", "alone"),
    [
        ("What does the zorblax setting control?", True),
        ("How long are frobnicator logs kept?", True),
        ("How do I set it up?", False),
        ("And what support comes with it?", False),
        ("And Discord?", False),
        ("Does that work?", False),
        ("Why?", False),
    ],
)
def test_stands_alone(question: str, alone: bool) -> None:
    assert stands_alone(question) is alone
