"""verify() judges each marker against its own claim, not a source by its best claim.

A sentence the source backs and an invented one citing the same number used to share the best
score: both markers looked clean and ``policy: drop`` removed nothing.
"""

from __future__ import annotations

from bot.grounding import GroundingPolicy, verify
from bot.models import Answer, Citation, Dropped, Source

LINKS = Source(
    id="security#2",
    title="Security model",
    url="https://docs.example.org/security.html",
    text=(
        "Download links are signed with the server key. Download links expire after one hour "
        "by default; set files.link_ttl to change it."
    ),
)
SLACK = Source(
    id="faq#1",
    title="Integration FAQ",
    url="https://docs.example.org/faq.html",
    text="Socket Mode opens an outgoing WebSocket to Slack, so no public URL is needed.",
)
BACKED = "Download links expire after one hour by default"
INVENTED = "Any employee can download every file in the company drive without signing in"
TEXT = f"{BACKED} [^1]. {INVENTED} [^1]."


def _answer(text: str, *sources: Source) -> Answer:
    citations = (Citation(n=i, source=s, source_number=i) for i, s in enumerate(sources, 1))
    return Answer(text=text, citations=tuple(citations))


def test_annotate_scores_a_citation_by_its_weakest_occurrence() -> None:
    alone = verify(_answer(f"{INVENTED} [^1].", LINKS)).citations[0]
    (citation,) = verify(_answer(TEXT, LINKS)).citations
    assert citation.support is not None and alone.support is not None
    assert citation.support == alone.support < 0.35
    assert citation.claim == INVENTED
    # one quote per source: the sentence backing the supported occurrence
    assert citation.quote is not None and citation.quote.startswith("Download links expire")
    assert citation.deep_link is not None and "expire" in citation.deep_link


def test_drop_removes_only_the_unsupported_occurrence() -> None:
    answer = verify(_answer(TEXT, LINKS), policy=GroundingPolicy(mode="drop"))
    assert answer.text == f"{BACKED} [^1]. {INVENTED}."
    assert answer.dropped == (
        Dropped(marker="[^1]", reason="unsupported", offset=TEXT.rindex("[^1]")),
    )
    (citation,) = answer.citations
    assert citation.source == LINKS
    assert citation.support == 1.0
    assert citation.claim == BACKED


def test_drop_keeps_numbering_when_the_first_occurrence_goes() -> None:
    text = f"{INVENTED} [^1]. Socket Mode needs no public URL [^2]. {BACKED} [^1]."
    answer = verify(_answer(text, LINKS, SLACK), policy=GroundingPolicy(mode="drop"))
    # source 1's first marker goes, so the Slack source is now cited first
    assert answer.text == f"{INVENTED}. Socket Mode needs no public URL [^1]. {BACKED} [^2]."
    assert [(c.n, c.source.id) for c in answer.citations] == [(1, "faq#1"), (2, "security#2")]
    assert [d.offset for d in answer.dropped] == [text.index("[^1]")]


def test_drop_removes_a_citation_none_of_whose_occurrences_is_backed() -> None:
    text = f"{INVENTED} [^1]. Employees share every file freely with the public [^1]."
    answer = verify(_answer(text, LINKS), policy=GroundingPolicy(mode="drop"))
    assert answer.citations == ()
    assert "[^" not in answer.text
    assert [d.reason for d in answer.dropped] == ["unsupported", "unsupported"]
