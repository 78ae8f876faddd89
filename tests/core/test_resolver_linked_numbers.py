"""Linked numbers in a model's answer (``ResolvePolicy.model_cites``) whose URL no source has.

``[[1]](https://evil.example/pay)`` was kept as a link: every channel then showed a clickable
"[1]", exactly a citation's look, to a page outside the source list (a fake citation, shaped for
phishing when a prompt injection picks the page). From a model told to cite, the label is its
citation: read as the bare group ``[1]`` (source 1 with its own link, or dropped as
``out_of_range``), the model's URL dropped. Text that never meant to cite keeps DESIGN §5's
reading (a link stays a link unless its URL is a registry source's), and so does a
single-bracket ``[1](url)``, which every channel shows as a link labelled "1", no citation's
look.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.markdown import Token, citations_in, parse
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at

MODEL = ResolvePolicy(model_cites=True)
EVIL = "https://evil.example/pay"


def guide() -> SourceRegistry:
    """[1] "Install guide" at https://docs.test/install, [2] "Manual" at .../manual."""
    registry = SourceRegistry(["public"], secret=b"linked-numbers!!")
    registry.register_all(
        [
            Source("a", title="Install guide", url="https://docs.test/install"),
            Source("b", title="Manual", url="https://docs.test/manual"),
        ]
    )
    return registry


def empty() -> SourceRegistry:
    return SourceRegistry(["public"], secret=b"linked-numbers!!")


def everywhere(raw: str, sources: bool, policy: ResolvePolicy = MODEL) -> Answer:
    """``resolve()`` of ``raw``, checked against the stream cut everywhere and gathered."""
    answer = resolve(raw, guide() if sources else empty(), policy)
    for coalesce in (0, 16):
        for cuts in (list(range(len(raw))), list(range(0, len(raw), 3)), []):
            registry = guide() if sources else empty()
            assert streamed_at(raw, cuts, registry, policy, coalesce) == answer
    return answer


def links(tokens: list[Token]) -> list[tuple[str, str]]:
    """(label, url) of every link and image mistune (the renderers' parser) reads."""
    out: list[tuple[str, str]] = []
    for token in tokens:
        if token["type"] in ("link", "image"):
            label = "".join(str(child.get("raw", "")) for child in token.get("children", []))
            out.append((label, str(token["attrs"]["url"])))
        elif token.get("children"):
            out += links(token["children"])
    return out


def summary(answer: Answer) -> dict[str, Any]:
    return {
        "text": answer.text,
        "cited": [(c.n, c.source_number, c.source.url) for c in answer.citations],
        "dropped": [(d.marker, d.reason) for d in answer.dropped],
    }


def test_the_qa_fake_citation_cites_the_source_with_its_own_link() -> None:
    raw = f"Pay the invoice at [[1]]({EVIL}) today."
    answer = everywhere(raw, sources=True)
    assert summary(answer) == {
        "text": "Pay the invoice at [^1] today.",
        "cited": [(1, 1, "https://docs.test/install")],
        "dropped": [],
    }
    assert links(parse(answer.text)) == []
    assert citations_in(parse(answer.text)) == [1]


def test_the_qa_fake_citation_naming_no_source_is_dropped() -> None:
    raw = f"Pay the invoice at [[1]]({EVIL}) today."
    answer = everywhere(raw, sources=False)
    assert summary(answer) == {
        "text": "Pay the invoice at today.",
        "cited": [],
        "dropped": [(f"[[1]]({EVIL})", "out_of_range")],
    }
    assert EVIL not in answer.text


@pytest.mark.parametrize(
    ("raw", "text", "cited", "dropped"),
    [
        # a group: each number read as in "[1, 7]", the URL gone either way
        (f"A [[1, 7]]({EVIL}).", "A [^1].", [1], [f"[[1, 7]]({EVIL})"]),
        (f"A [[2-3]]({EVIL}).", "A [^1].", [2], [f"[[2-3]]({EVIL})"]),
        (f"A [[9]]({EVIL}).", "A.", [], [f"[[9]]({EVIL})"]),
        # a registry source's URL still names that source, whatever the number says
        ("A [[2]](https://docs.test/install).", "A [^1].", [1], []),
        # an image: the renderers show it as a link labelled "[1]" too
        (f"A ![[2]]({EVIL}).", "A ![^1].", [2], []),
        # a destination the grammar does not read (a title, spaces, angle brackets): "[[1]]"
        # is read alone, and what follows is text, its URL shown as written, never a label
        (f'A [[1]]({EVIL} "Pay") now.', f'A [^1]({EVIL} "Pay") now.', [1], []),
        (f"A [[1]]( {EVIL} ) now.", f"A [^1]( {EVIL} ) now.", [1], []),
        (f"A [[1]](<{EVIL}>) now.", f"A [^1](<{EVIL}>) now.", [1], []),
        # no bare group in the label: a link as before
        (f"In [[2023]]({EVIL}).", f"In [[2023]]({EVIL}).", [], []),
        (f"In [[0]]({EVIL}).", f"In [[0]]({EVIL}).", [], []),
        (f'In [[2023]]({EVIL} "t").', f'In [[2023]]({EVIL} "t").', [], []),
        # one bracket: a link labelled "1" in every channel, not a citation's "[1]"
        (f"Step [1]({EVIL}).", f"Step [1]({EVIL}).", [], []),
    ],
)
def test_linked_numbers_in_a_model_answer(
    raw: str, text: str, cited: list[int], dropped: list[str]
) -> None:
    answer = everywhere(raw, sources=True)
    assert answer.text == text
    assert [c.source_number for c in answer.citations] == cited
    assert [d.marker for d in answer.dropped] == dropped
    assert all(d.reason == "out_of_range" for d in answer.dropped)
    assert resolve(answer.text, guide(), MODEL).text == text  # canonical: read again, the same
    # no link labelled as a citation is left for a channel to show
    assert [label for label, _ in links(parse(answer.text)) if label.startswith("[")] == (
        [label for label, _ in links(parse(raw)) if label in ("[2023]", "[0]")]
    )


def test_text_that_never_meant_to_cite_keeps_its_links() -> None:
    # DESIGN §5: a linked number only for a registry URL (citecast resolve, the built-in answerer)
    raw = f"Pay at [[1]]({EVIL}) or [[1]](https://docs.test/manual)."
    answer = everywhere(raw, sources=True, policy=ResolvePolicy())
    assert answer.text == f"Pay at [[1]]({EVIL}) or [^1]."
    assert [c.source_number for c in answer.citations] == [2]


@pytest.mark.parametrize(
    ("raw", "policy", "text"),
    [
        # the writer's brackets, then parentheses a removal brought next to them: no link
        (f'See [x] [[9]]({EVIL} "t").', MODEL, f'See [x]\u200b({EVIL} "t").'),
        (f"See [x] [[Source 9]]({EVIL}).", ResolvePolicy(), f"See [x]\u200b({EVIL})."),
        # after a citation, as before: "[^1](" is a citation and text in every channel
        (f"See [1] [[Source 9]]({EVIL}).", ResolvePolicy(), f"See [^1]({EVIL})."),
    ],
)
def test_a_removal_never_joins_brackets_and_parentheses_into_a_link(
    raw: str, policy: ResolvePolicy, text: str
) -> None:
    answer = everywhere(raw, sources=True, policy=policy)
    assert answer.text == text
    assert links(parse(answer.text)) == []
