"""``citecast ask`` keeps the weak-support ``?``: a citation its source only weakly supports is
``[n?]`` in the terminal, as Slack, Discord, email and the web show it (found in a QA pass: Slack
and the web showed ``[2?]``, ``ask`` printed ``[2]``)."""

from __future__ import annotations

from bot.commands.ask import plain_text
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext


def answer_with_supports(*supports: float | None) -> Answer:
    citations = tuple(
        Citation(
            n=n,
            source=Source(id=f"doc-{n}", title=f"Guide {n}", url=f"https://docs.example.com/{n}"),
            source_number=n,
            support=support,
        )
        for n, support in enumerate(supports, 1)
    )
    text = " ".join(f"Claim {n}.[^{n}]" for n in range(1, len(supports) + 1))
    return Answer(text=text + " Both.[^1][^2]", citations=citations)


def test_a_weakly_supported_citation_keeps_its_question_mark() -> None:
    answer = answer_with_supports(0.9, 0.1, None)
    text, _, sources = plain_text(answer).partition("\n\nSources:\n")
    assert text == "Claim 1.[1] Claim 2.[2?] Claim 3.[3] Both.[1][2?]"
    assert sources.splitlines()[1].startswith("[2] Guide 2")  # the list names the source


def test_the_terminal_and_slack_agree_on_which_citations_are_weak() -> None:
    answer = answer_with_supports(0.34, 0.35)
    slack = str(render("slack", answer, RenderContext()))
    assert "[1?]" in slack and "[2?]" not in slack
    assert plain_text(answer).startswith("Claim 1.[1?] Claim 2.[2] Both.[1?][2]")
