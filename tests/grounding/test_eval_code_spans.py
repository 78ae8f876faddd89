"""citecast eval scores a sentence's code spans, as live grounding does."""

from __future__ import annotations

from bot.evaluation.metrics import answer_metrics
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import LexicalScorer

INSTALL = Source(
    id="getting-started.md#2",
    title="Getting started",
    url="https://docs.example.org/start",
    text=(
        "Install citecast with `pip install citecast` inside a virtual environment. citecast "
        "needs Python 3.11 or newer."
    ),
)


def test_a_wrong_command_is_not_in_source_in_eval_either() -> None:
    answer = Answer(
        "Install citecast with `pip install citecast-pro` inside a virtual environment [^1]. "
        "citecast needs Python 3.11 or newer [^1].",
        (Citation(n=1, source=INSTALL, source_number=1),),
    )
    live = verify(answer).citations[0].support
    assert live is not None and live < 0.35
    metrics = answer_metrics(answer, LexicalScorer([INSTALL.text or ""]), 0.35)
    assert metrics.claims_in_source == 0.5
    assert metrics.recall == 0.5
    first = metrics.statements[0]
    assert first.text == (
        "Install citecast with `pip install citecast-pro` inside a virtual environment."
    )
    assert not first.supported


def test_a_right_command_stays_in_source() -> None:
    answer = Answer(
        "Install citecast with `pip install citecast` inside a virtual environment [^1].",
        (Citation(n=1, source=INSTALL, source_number=1),),
    )
    metrics = answer_metrics(answer, LexicalScorer([INSTALL.text or ""]), 0.35)
    assert metrics.claims_in_source == 1.0
