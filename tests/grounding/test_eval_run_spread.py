"""``citecast eval --runs N``: the spread between runs of each metric, not of recall alone."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from bot.evaluation.dataset import parse_case
from bot.evaluation.report import print_table, write_html
from bot.evaluation.runner import CaseResult, run_case
from bot.models import Answer, Citation, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy
from bot.support import LexicalScorer

RETRIES = Source(id="ops#1", text="Failed sends are retried up to 5 times with backoff.")
THEME = Source(id="web#2", text="The chat widget has a dark theme and a light theme.")


async def _result() -> CaseResult:
    """One question answered twice: first citing the right source, then the wrong one too."""
    answers = iter(
        [
            Answer(
                "Failed sends are retried up to 5 times [^1].",
                (Citation(1, RETRIES, 1),),
            ),
            Answer(
                "Failed sends are retried up to 5 times [^1][^2].",
                (Citation(1, RETRIES, 1), Citation(2, THEME, 2)),
            ),
        ]
    )

    async def ask(question: str, audience: frozenset[str]) -> tuple[Answer, SourceRegistry]:
        registry = SourceRegistry(audience)
        registry.register_all([RETRIES, THEME])
        return next(answers), registry

    case = parse_case({"id": "retries", "question": "How often are sends retried?"})
    return await run_case(
        case, runs=2, threshold=0.35, scorer=LexicalScorer, policy=ResolvePolicy(), ask=ask
    )


async def test_the_table_gives_the_spread_of_every_metric() -> None:
    # precision fell from 100% to 50% between the runs; only the recall spread (0%) was shown
    result = await _result()
    console = Console(width=200, record=True)
    with console.capture() as capture:
        print_table([result], console, runs=2)
    assert (
        "largest spread between runs of a question: recall 0.0%, precision 50.0%, "
        "in source 50.0%, cited 0.0%"
    ) in capture.get()


async def test_the_html_report_gives_the_spread_too(tmp_path: Path) -> None:
    write_html([await _result()], tmp_path / "report.html", 0.35)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Largest spread between runs of a question: recall 0.0%, precision 50.0%" in html


async def test_a_single_run_shows_no_spread(tmp_path: Path) -> None:
    case = parse_case(
        {
            "id": "one",
            "answer": "Failed sends are retried up to 5 times [1].",
            "sources": [{"id": "ops#1", "text": RETRIES.text}],
        }
    )
    result = await run_case(
        case, runs=1, threshold=0.35, scorer=LexicalScorer, policy=ResolvePolicy(), ask=None
    )
    console = Console(width=200)
    with console.capture() as capture:
        print_table([result], console, runs=1)
    assert "spread" not in capture.get()
    write_html([result], tmp_path / "report.html", 0.35)
    assert "spread" not in (tmp_path / "report.html").read_text(encoding="utf-8").lower()
