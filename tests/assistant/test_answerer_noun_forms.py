"""A question that names an act by its noun ("approval", "deletion") is answered by the sentence
that uses the verb ("approved", "deleted"), which the search already finds; the noun still does
not stand for a word of another sense ("production" for "product")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge.terms import stem

NOT_FOUND = "I could not find anything"


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty docs/ folder in a working directory of its own, no config file set."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    return tmp_path / "docs"


def _ask(docs: Path, text: str, question: str, capsys: pytest.CaptureFixture[str]) -> str:
    (docs / "doc.md").write_text(text, encoding="utf-8")
    assert main(["ingest", "docs"]) == 0
    capsys.readouterr()
    assert main(["ask", question]) == 0
    return capsys.readouterr().out


LEAVE = "# Leave\n\nHoliday requests must be approved by a manager two weeks in advance.\n"


def test_a_question_in_a_noun_form_finds_the_sentence_search_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA's case: "approval" in the question, "approved" in the document."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.md").write_text(
        "# Leave\n\nHoliday requests must be approved by a manager two weeks in advance.\n"
    )
    assert main(["ingest", "docs"]) == 0
    capsys.readouterr()
    assert main(["ask", "Do I need approval for holidays?"]) == 0
    assert "approved by a manager" in capsys.readouterr().out


def test_two_words_one_of_them_a_noun_of_the_verb_are_answered(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _ask(docs, LEAVE, "holiday approval", capsys)
    assert "approved by a manager" in out and NOT_FOUND not in out


@pytest.mark.parametrize(
    ("text", "question", "quoted"),
    [
        (
            "# Accounts\n\nAn administrator deletes an inactive account after ninety days.\n",
            "When does account deletion happen?",
            "deletes an inactive account",
        ),
        (
            "# Setup\n\nTo configure the gateway, edit gateway.toml and restart the service.\n",
            "Where is the gateway configuration?",
            "edit gateway.toml",
        ),
        (
            "# Setup\n\nInstall the agent on every build machine before the first release.\n",
            "Which machines need the agent installation?",
            "every build machine",
        ),
        (
            "# Travel\n\nWe reimburse train tickets within five working days of the trip.\n",
            "How long does train ticket reimbursement take?",
            "five working days",
        ),
    ],
)
def test_a_noun_of_a_verb_meets_the_verb(
    docs: Path, capsys: pytest.CaptureFixture[str], text: str, question: str, quoted: str
) -> None:
    out = _ask(docs, text, question, capsys)
    assert quoted in out and NOT_FOUND not in out


def test_a_noun_of_another_sense_does_not_stand_for_the_word_it_ends_like(
    docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Porter reads "production" as "product", so the search finds the passage; it says nothing
    # of what production does
    text = "# Catalogue\n\nEvery product has a barcode printed on its box.\n"
    out = _ask(docs, text, "Does production print the barcode?", capsys)
    assert NOT_FOUND in out and "barcode printed" not in out


@pytest.mark.parametrize(
    ("noun", "verb"),
    [
        ("approval", "approved"),
        ("approvals", "approving"),
        ("configuration", "configured"),
        ("installation", "installs"),
        ("deletion", "deleted"),
        ("management", "managing"),
        ("requirements", "required"),
        ("validation", "validates"),
        ("creation", "created"),
        ("renewal", "renewed"),
        ("documentation", "documents"),
    ],
)
def test_the_noun_of_a_verb_shares_its_stem(noun: str, verb: str) -> None:
    assert stem(noun) == stem(verb)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("production", "product"),
        ("exception", "except"),
        ("department", "depart"),
        ("edition", "edit"),
        ("addition", "add"),
        ("station", "state"),
        ("option", "opt"),
        ("question", "quest"),
        ("mission", "miss"),
        ("legal", "leg"),
        ("general", "generate"),
        ("internal", "intern"),
        ("signal", "sign"),
        ("payment", "pay"),
        ("statement", "state"),
        ("comment", "come"),
        ("format", "form"),
    ],
)
def test_nouns_of_another_word_keep_their_own_stem(one: str, other: str) -> None:
    assert stem(one) != stem(other)
