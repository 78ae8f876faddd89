"""A code span is part of the claim: its text must appear in the passage.

``Run `sudo rm -rf /var/lib/citecast` [1].`` was checked as the claim "Run", which any passage
that says "run" backed fully.
"""

from __future__ import annotations

from bot.claims import claims
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from bot.support import HARD_CHECK_CAP, LexicalScorer, best_support
from bot.text_terms import code_phrases

INSTALL = Source(
    id="install#2",
    title="Installation guide",
    url="https://docs.example.org/install.html",
    text=(
        "Run `citecast ingest docs/` to build the search index.\n"
        "Then start the server with `citecast   serve`."
    ),
)


def _support(text: str) -> float | None:
    answer = Answer(text=text, citations=(Citation(n=1, source=INSTALL, source_number=1),))
    return verify(answer).citations[0].support


def test_a_claim_keeps_its_code_spans() -> None:
    (claim,) = claims("Run `sudo rm -rf /var/lib/citecast` [^1].")
    assert claim.text == "Run `sudo rm -rf /var/lib/citecast`"
    (listed,) = claims("- Use `a  *b*  [^2]` and *then* go on [^1]")
    assert listed.text == "Use `a *b* [^2]` and then go on"
    assert listed.numbers == (1,)


def test_a_command_the_passage_does_not_hold_is_unsupported() -> None:
    support = _support("Run `sudo rm -rf /var/lib/citecast` [^1].")
    assert support is not None and support <= HARD_CHECK_CAP


def test_a_command_the_passage_holds_is_supported() -> None:
    assert _support("Run `citecast ingest docs/` to build the search index [^1].") == 1.0
    # a passage's whitespace inside the span does not matter
    assert _support("Start the server with `citecast serve` [^1].") == 1.0


def test_code_phrases_are_normalised() -> None:
    assert code_phrases("Set `Index.Path`, then ``a `b`  c`` and ` `") == [
        "index.path",
        "a `b` c",
    ]


def test_the_scorer_caps_a_missing_code_span() -> None:
    scorer = LexicalScorer([INSTALL.text or ""])
    text = INSTALL.text or ""
    assert best_support(scorer, text, "Run `citecast ingest web/`").score <= HARD_CHECK_CAP
    assert best_support(scorer, text, "Run `citecast ingest docs/`").score == 1.0
