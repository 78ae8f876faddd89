"""A model's source list naming a source by the heading it was shown beside ``[cite: N]``, or a
document by a title several of its passages share, is read (bot.listed_names).

The registry is a turn's tool results as the registryqa pass found them: 1 the administration
guide's Retry policy, 2 Getting started's Next steps, 3 the guide's Outbox (two passages of one
file); a model told to cite. Each case is resolved at once and streamed in several splits (one
character at a time included), which must give the same Answer.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.listed_items import read_item
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from bot.source_mentions import is_model_source_list
from tests.core.resolver_splits import resolved_alike, streamed_at

MODEL = ResolvePolicy(model_cites=True)
GUIDE = "citecast administration guide"
ADMIN = "examples/administration.md"


def passages() -> list[Source]:
    """The three passages the tools returned, in the order they were shown."""
    return [
        Source(
            id=f"{ADMIN}#6",
            title=GUIDE,
            path=ADMIN,
            section="Administration guide > Delivery and retries > Retry policy",
            chunk=6,
        ),
        Source(
            id="examples/getting-started.md#8",
            title="Getting started",
            path="examples/getting-started.md",
            section="Getting started > Next steps",
            chunk=8,
        ),
        Source(
            id=f"{ADMIN}#7",
            title=GUIDE,
            path=ADMIN,
            section="Administration guide > Delivery and retries > Outbox",
            chunk=7,
        ),
    ]


def registry() -> SourceRegistry:
    found = SourceRegistry(("public",), secret=b"listed-headings!")
    found.format_passages(passages())
    return found


def shown() -> dict[int, str]:
    """The heading the model saw beside each ``[cite: N]``, as the tool result printed it."""
    text = SourceRegistry(("public",), secret=b"x").format_passages(passages())
    return {int(n): head for n, head in re.findall(r"^\[cite: (\d+)\] (.*)$", text, re.M)}


RETRY, OUTBOX = shown()[1], shown()[3]


def everywhere(raw: str, policy: ResolvePolicy = MODEL) -> Answer:
    """``resolve(raw)``, checked to equal every stream of it."""
    return resolved_alike(raw, registry, policy)


def cited(answer: Answer) -> list[str]:
    return [c.source.id for c in answer.citations]


def test_the_headings_are_the_ones_the_tool_result_printed() -> None:
    assert shown() == {
        1: f"{GUIDE} — Administration guide > Delivery and retries > Retry policy",
        2: "Getting started — Getting started > Next steps",
        3: f"{GUIDE} — Administration guide > Delivery and retries > Outbox",
    }


CASES = [
    # the registryqa case: the model numbers its own list, copying the headings it was shown
    (
        f"Retries back off [1]. The outbox keeps replies [2].\n\nSources:\n1. {RETRY}\n2. {OUTBOX}",
        "Retries back off [^1]. The outbox keeps replies [^2].",
        [f"{ADMIN}#6", f"{ADMIN}#7"],
    ),
    # ...as footnote definitions, or a bracket label naming another passage by its heading
    (
        f"Retries back off[^1]. The outbox keeps replies[^2].\n\n[^1]: {RETRY}\n[^2]: {OUTBOX}",
        "Retries back off[^1]. The outbox keeps replies[^2].",
        [f"{ADMIN}#6", f"{ADMIN}#7"],
    ),
    (
        f"The outbox keeps replies [1].\n\nSources:\n- [1] {OUTBOX}",
        "The outbox keeps replies [^1].",
        [f"{ADMIN}#7"],
    ),
    # a title two passages of one file share names that file: the list goes, nothing re-points
    (
        f"Retries back off [1]. Next steps [2].\n\nSources:\n- {GUIDE}\n- Getting started",
        "Retries back off [^1]. Next steps [^2].",
        [f"{ADMIN}#6", "examples/getting-started.md#8"],
    ),
    (
        f"Retries back off [1]. Next steps [2].\n\nSources:\n1. {GUIDE}\n2. Getting started",
        "Retries back off [^1]. Next steps [^2].",
        [f"{ADMIN}#6", "examples/getting-started.md#8"],
    ),
    (
        f"Next steps: read the guide [2].\n\n[^2]: {GUIDE}",
        "Next steps: read the guide [^1].",
        ["examples/getting-started.md#8"],
    ),
    (
        f"The outbox keeps replies [3].\n\nSources:\n2. {GUIDE}",
        "The outbox keeps replies [^1].",
        [f"{ADMIN}#7"],
    ),
    # a recap by registry number keeps every citation (bot.listed_items.numbers_own_notes)
    (
        f"The outbox keeps replies [3]. Retries back off [1].\n\nSources:\n1. {OUTBOX}\n2. {RETRY}",
        "The outbox keeps replies [^1]. Retries back off [^2].",
        [f"{ADMIN}#7", f"{ADMIN}#6"],
    ),
    (
        f"Retries back off [1]. The outbox keeps replies [3].\n\nSources:\n1. {RETRY}\n2. {OUTBOX}",
        "Retries back off [^1]. The outbox keeps replies [^2].",
        [f"{ADMIN}#6", f"{ADMIN}#7"],
    ),
    # a heading names the passage it was printed beside, whatever words follow it
    (
        f"The outbox keeps replies [1].\n\n[^1]: {OUTBOX} (retrying sends)",
        "The outbox keeps replies [^1].",
        [f"{ADMIN}#7"],
    ),
]


@pytest.mark.parametrize(("raw", "text", "sources"), CASES)
def test_a_list_naming_sources_by_shown_heading_or_shared_title_is_read(
    raw: str, text: str, sources: list[str]
) -> None:
    answer = everywhere(raw)
    assert (answer.text, cited(answer)) == (text, sources)


def test_an_item_names_by_heading_first_and_a_shared_title_names_its_document() -> None:
    found = registry()
    assert read_item(found, f"2. {OUTBOX}").named == 3
    assert read_item(found, f"1. {OUTBOX}").relabels() == (1, 3)
    shared = read_item(found, f"- {GUIDE}")
    assert (shared.named, shared.document, shared.cites(found)) == (None, (1, 3), None)
    assert read_item(found, f"- {GUIDE} — Retry policy").document == (1, 3)  # no shown heading
    assert read_item(found, f"[^3]: {GUIDE}").named == 3  # the label's own document
    assert is_model_source_list(found, [f"- {GUIDE}", "- Getting started"])


def test_a_title_shared_by_two_documents_names_neither() -> None:
    found = SourceRegistry(("public",), secret=b"listed-headings!")
    found.format_passages(
        [
            Source("slack.md#1", title="FAQ", path="slack.md", section="Slack", chunk=1),
            Source("discord.md#1", title="FAQ", path="discord.md", section="Discord", chunk=1),
        ]
    )
    assert read_item(found, "- FAQ").document == ()
    assert not is_model_source_list(found, ["- FAQ"])
    assert read_item(found, "- FAQ — Discord").named == 2
    raw = "Slack needs chat:write [1].\n\nSources:\n- FAQ"
    assert "Sources:" in resolve(raw, found, MODEL).text


def test_a_page_label_names_only_its_own_page() -> None:
    found = SourceRegistry(("public",), secret=b"listed-headings!")
    found.format_passages(
        [
            Source("ops.pdf#1", title="Handbook", path="ops.pdf", page=3, chunk=1),
            Source("ops.pdf#2", title="Handbook", path="ops.pdf", page=30, chunk=2),
        ]
    )
    assert read_item(found, "1. Handbook — p. 30").named == 2
    assert read_item(found, "1. Handbook — p. 3").named == 1
    assert read_item(found, "- Handbook — p. 34").document == (1, 2)


def test_the_registryqa_finding() -> None:
    # tests/core/test_registryqa_findings.py of the QA pass: sources without a path or URL
    found = SourceRegistry()
    retry = Source("a#6", title=GUIDE, section="Administration guide > Retry policy", chunk=6)
    start = Source("g#8", title="Getting started", section="Getting started > Next steps", chunk=8)
    outbox = Source("a#7", title=GUIDE, section="Administration guide > Outbox", chunk=7)
    found.format_passages([retry, start, outbox])
    raw = (
        "Retries back off [1]. The outbox keeps replies [2].\n\nSources:\n"
        f"1. {GUIDE} — Administration guide > Retry policy\n"
        f"2. {GUIDE} — Administration guide > Outbox\n"
    )
    answer = resolve(raw, found, MODEL)
    assert "Sources:" not in answer.text
    assert [c.source.id for c in answer.citations] == ["a#6", "a#7"]
    assert read_item(found, f"- {GUIDE}").document == (1, 3)  # one id stem: one document


FRAGMENTS = [
    "Fact",
    " ",
    "\n",
    "\n\n",
    ".",
    "[1]",
    "[2]",
    "[3]",
    "[^1]",
    "[^2]",
    "Sources:\n",
    f"1. {RETRY}\n",
    f"2. {OUTBOX}\n",
    f"- {GUIDE}\n",
    "- Getting started\n",
    f"- [1] {OUTBOX}\n",
    f"[^1]: {OUTBOX}\n",
    f"[^2]: {GUIDE}\n",
    "---\n",
]


@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=10),
    st.sampled_from([0, 1, 16, 128]),
    st.sampled_from([MODEL, ResolvePolicy()]),
)
@example(f"Fact [1]. Fact [2].\n\nSources:\n1. {RETRY}\n2. {OUTBOX}\n", [7, 30, 90], 0, MODEL)
@example(f"Fact[^2].\n\n[^2]: {GUIDE}\n", [5, 12], 1, ResolvePolicy())
def test_stream_equals_resolve_with_shown_headings_and_shared_titles(
    raw: str, split: list[int], coalesce: int, policy: ResolvePolicy
) -> None:
    expected = resolve(raw, registry(), policy)
    assert streamed_at(raw, split, registry(), policy, coalesce) == expected
    assert len({c.source_number for c in expected.citations}) == len(expected.citations)
