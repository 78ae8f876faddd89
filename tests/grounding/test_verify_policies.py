"""verify(): scores, quotes and deep links on citations, and the annotate/drop/off policies."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from bot.claims import mask_code
from bot.config import GroundingSettings
from bot.grounding import GroundingPolicy, passage_of, uncited_claims, verify
from bot.markdown import citations_in, parse
from bot.models import Answer, Citation, Dropped, Source
from tests.grounding.cited_answers import Evidence, cited_answer

RETRY = Source(
    id="admin#6",
    title="Administration guide",
    url="https://docs.example.org/admin.html",
    text=(
        "The retry policy decides what citecast does when a channel fails. When a platform "
        "answers 429, citecast waits for the Retry-After header. Server errors are retried with "
        "exponential backoff, up to 5 attempts."
    ),
)
SOCKET = Source(
    id="faq#3",
    title="Integration FAQ",
    url="https://docs.example.org/faq.html",
    text="Socket Mode opens an outgoing WebSocket to Slack, so no public URL is needed.",
)
FILE_ONLY = Source(id="deck.pdf", title="Slides", filename="deck.pdf", kind="file")


def test_annotate_scores_quotes_and_links() -> None:
    answer = cited_answer(
        "Server errors are retried with exponential backoff, up to 5 attempts [^1]. "
        "Socket Mode needs a public URL with a certificate [^2].",
        RETRY,
        SOCKET,
    )
    checked = verify(answer, Evidence(RETRY, SOCKET))
    good, weak = checked.citations
    assert good.support is not None and good.support >= 0.8
    assert good.quote == "Server errors are retried with exponential backoff, up to 5 attempts."
    assert good.claim == "Server errors are retried with exponential backoff, up to 5 attempts"
    assert good.deep_link is not None and "#:~:text=" in good.deep_link
    assert weak.support is not None and weak.support < good.support
    assert checked.text == answer.text  # annotate never edits the text


def test_drop_removes_weak_citations_and_renumbers() -> None:
    answer = cited_answer(
        "Discord embeds have a colour bar [^1]. Retries use exponential backoff, up to 5 "
        "attempts [^2]. Again [^1].",
        SOCKET,
        RETRY,
    )
    checked = verify(answer, Evidence(SOCKET, RETRY), GroundingPolicy(mode="drop", threshold=0.5))
    assert checked.text == (
        "Discord embeds have a colour bar. Retries use exponential backoff, up to 5 attempts [^1]."
        " Again."
    )
    assert [(c.n, c.source.id) for c in checked.citations] == [(1, "admin#6")]
    assert [d.reason for d in checked.dropped] == ["unsupported", "unsupported"]
    assert all(isinstance(d, Dropped) and d.marker == "[^1]" for d in checked.dropped)


def test_off_returns_the_answer_untouched() -> None:
    answer = cited_answer("Anything at all [^1].", SOCKET)
    assert verify(answer, Evidence(SOCKET), GroundingPolicy(mode="off")) is answer


def test_source_without_text_is_left_unchecked() -> None:
    answer = cited_answer("The slides explain the architecture [^1].", FILE_ONLY)
    (citation,) = verify(answer).citations
    assert citation.support is None


def test_a_wrong_number_is_weak_even_with_every_word_matching() -> None:
    answer = cited_answer(
        "Server errors are retried with exponential backoff, up to 9 attempts [^1].", RETRY
    )
    (citation,) = verify(answer, Evidence(RETRY)).citations
    assert citation.support is not None and citation.support <= 0.15


def test_records_are_checked_against_their_columns() -> None:
    team = Source(
        id="products#team",
        kind="record",
        label="citecast Team",
        columns={"price_usd": "19", "seats": "up to 50"},
    )
    assert passage_of(team) == "citecast Team: price usd 19; seats up to 50"
    (good,) = verify(
        cited_answer("Team: the price is 19 USD for up to 50 seats [^1].", team)
    ).citations
    (bad,) = verify(cited_answer("The Team plan costs 29 USD [^1].", team)).citations
    assert good.support is not None and bad.support is not None
    assert good.support > 0.35 > bad.support


def test_uncited_factual_sentences_are_flagged() -> None:
    answer = cited_answer(
        "Here is what I found:\n\nRun make serve to start the chat on port 8000. "
        "Retries use exponential backoff [^1]. Is that clear?",
        RETRY,
    )
    checked = verify(answer, Evidence(RETRY))
    assert checked.uncited_claims == ("Run make serve to start the chat on port 8000.",)
    assert uncited_claims("I could not find anything relevant in the knowledge base.") == []


@given(
    st.lists(st.sampled_from(["Retries back off", "up to 5 attempts", "colour", " ", "\n\n", "."]))
)
def test_drop_keeps_the_answer_contract(words: list[str]) -> None:
    text = " ".join(w + (f" [^{i % 2 + 1}]" if i % 3 == 0 else "") for i, w in enumerate(words))
    answer = cited_answer(text, RETRY, SOCKET)
    present = {int(n) for n in re.findall(r"\[\^(\d+)\]", text)}
    answer = Answer(text=text, citations=tuple(c for c in answer.citations if c.n in present))
    # Only well-formed resolver output (numbers 1..k by first appearance) is a valid input.
    first_seen = list(dict.fromkeys(int(n) for n in re.findall(r"\[\^(\d+)\]", text)))
    assume(first_seen == list(range(1, len(first_seen) + 1)))
    assume(mask_code(text).count("[^") == text.count("[^"))  # the resolver never cites in code
    checked = verify(answer, Evidence(RETRY, SOCKET), GroundingPolicy(mode="drop", threshold=0.6))
    numbers = list(dict.fromkeys(int(n) for n in re.findall(r"\[\^(\d+)\]", checked.text)))
    assert numbers == [c.n for c in checked.citations]
    assert [c.n for c in checked.citations] == list(range(1, len(checked.citations) + 1))


def test_policy_from_settings_loads_the_configured_scorer() -> None:
    settings = GroundingSettings(backend="tests.grounding.plugin_scorer:make_scorer", threshold=0.6)
    policy = GroundingPolicy.from_settings(settings)
    (citation,) = verify(cited_answer("Anything at all [^1].", SOCKET), None, policy).citations
    assert citation.support == 0.5  # the plug-in's score, not the lexical one


class _StrayScorer:
    """A plug-in that answers outside 0..1 (an unnormalised model score, or NaN)."""

    def __init__(self, score: float) -> None:
        self.score = score

    def entails(self, premise: str, hypothesis: str) -> float:
        return self.score


@pytest.mark.parametrize(("score", "stored"), [(3.5, 1.0), (-2.0, 0.0), (float("nan"), 0.0)])
def test_support_from_a_stray_scorer_is_kept_in_0_to_1(score: float, stored: float) -> None:
    policy = GroundingPolicy(scorer=lambda evidence: _StrayScorer(score))
    checked = verify(cited_answer("Anything at all [^1].", SOCKET), None, policy)
    assert checked.citations[0].support == stored
    # what the store keeps must load again (Answer.from_json refuses support outside 0..1)
    assert Answer.from_json(checked.to_json()) == checked


PYTHON = Source(id="a", title="Install", text="Python 3.11 or newer is required to run it.")
MOON = Source(id="b", title="Bananas", text="Bananas are a yellow tropical fruit.")
PORTS = Source(id="c", title="Ports", text="The server listens on port 8080 by default.")


def _cited_sources(answer: Answer) -> list[str]:
    by_n = {c.n: c.source.id for c in answer.citations}
    return [by_n[n] for n in citations_in(parse(answer.text))]


@pytest.mark.parametrize(
    "first",
    [
        # a nested list item is indented four spaces: prose, not indented code
        "Setup:\n\n- Requirements:\n    - Python 3.11 or newer is required to run it [^1].",
        # a lone backtick, then a longer run: no code span swallows the marker
        "Markdown's backtick (`) marks code; Python 3.11 or newer is required to run it [^1], "
        "as in ``code``.",
    ],
)
def test_dropping_a_claim_never_moves_a_number_onto_another_source(first: str) -> None:
    text = (
        f"{first}\n- The moon is made of green cheese and rocks [^2].\n"
        "- The server listens on port 8080 by default [^3]."
    )
    answer = cited_answer(text, PYTHON, MOON, PORTS)
    checked = verify(answer, Evidence(PYTHON, MOON, PORTS), GroundingPolicy(mode="drop"))
    assert _cited_sources(checked) == ["a", "c"]
    assert [c.source.id for c in checked.citations] == ["a", "c"]
    assert [d.reason for d in checked.dropped] == ["unsupported"]


LINES = [
    "Python 3.11 or newer is required to run it [^1].",
    "The moon is made of green cheese and rocks [^2].",
    "The server listens on port 8080 by default [^3].",
    "    - Python 3.11 or newer is required to run it [^1].",
    "A lone ` tick: Python 3.11 or newer is required to run it [^1], as in ``x``.",
    "", "- item", "    - nested", "    indented", "\tTabbed", "```", "~~~", "1. step",
    "A lone ` backtick", "``double``", "> quote",
]  # fmt: skip


@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=14))
@example(  # the parser joins the lone backticks of two lines into one code span
    [
        "The moon is made of green cheese and rocks [^2].",
        "- item",
        "A lone ` tick: Python 3.11 or newer is required to run it [^1], as in ``x``.",
        "A lone ` tick: Python 3.11 or newer is required to run it [^1], as in ``x``.",
        "",
        "    - Python 3.11 or newer is required to run it [^1].",
    ]
)
def test_drop_keeps_every_remaining_number_on_its_own_source(lines: list[str]) -> None:
    text = "\n".join(lines)
    sources = {1: PYTHON, 2: MOON, 3: PORTS}
    order = list(dict.fromkeys(citations_in(parse(text))))
    renumber = {old: new for new, old in enumerate(order, 1)}
    text = re.sub(r"\[\^(\d)\]", lambda m: f"[^{renumber.get(int(m[1]), int(m[1]))}]", text)
    answer = Answer(
        text=text,
        citations=tuple(Citation(renumber[o], sources[o], renumber[o]) for o in order),
    )
    before = _cited_sources(answer)
    checked = verify(answer, Evidence(PYTHON, MOON, PORTS), GroundingPolicy(mode="drop"))
    after = _cited_sources(checked)
    assert after == [s for s in before if s != "b"] or (after == before and not checked.dropped)


_INVENTED_LINK = "https://docs.example.org/admin.html#:~:text=words%20the%20page%20lacks"


@pytest.mark.parametrize(
    "text",
    [
        "It does [^1].",  # no content word: no better quote either
        # the best quote's fragment is too long to use (one 1,000-letter word)
        "Backoff " + "x" * 1000 + " [^1].",
    ],
)
def test_a_quote_the_passage_lacks_never_keeps_its_deep_link(text: str) -> None:
    source = replace(RETRY, text=(RETRY.text or "") + " Backoff " + "x" * 1000 + ".")
    answer = Answer(
        text=text,
        citations=(
            Citation(
                n=1,
                source=source,
                source_number=1,
                quote="words the page lacks",
                deep_link=_INVENTED_LINK,
            ),
        ),
    )
    (citation,) = verify(answer, Evidence(source)).citations
    assert citation.quote != "words the page lacks"
    assert citation.deep_link is None  # the plain URL, not a highlight of words not there
