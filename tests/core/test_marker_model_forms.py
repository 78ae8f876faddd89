"""Markers real models write, read as citations and never shown raw (markerfix).

A link's text cut by a stream before its ``]``, Claude's ``<cite index="2-1:2">`` sentence runs,
``<cite>1</cite>``, an inline HTML comment around a marker, parenthesised source words repeated
per number (``(Source 1, Source 3)``, ``（来源 3）``) and quotation marks around a
``<citation>`` quote. Each is checked one-shot and streamed in many splits.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Source
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, resolve
from tests.core.resolver_splits import streamed_at

L = "\u003c"  # "<": the tags spelled out, so no tool between the file and its reader eats them
MODEL = ResolvePolicy(model_cites=True)


def registry() -> SourceRegistry:
    """1 Install guide, 2 FAQ, 3 Pricing, (Salaries hidden), 4 a record, 5 handbook.md."""
    found = SourceRegistry(("public",), secret=b"markerfix-tests!")
    found.register_all(
        [
            Source(id="install", title="Install guide", url="https://docs.example.com/install"),
            Source(id="faq", title="FAQ", url="https://docs.example.com/faq"),
            Source(id="pricing", title="Pricing", url="https://docs.example.com/pricing.pdf"),
            Source(id="salaries", title="Salaries", audience=("hr",)),
            Source(id="products/CC-TEAM", title="CC Team", kind="record", key="products/CC-TEAM"),
            Source(id="handbook.md", title="Handbook", filename="handbook.md"),
        ]
    )
    return found


def resolved(raw: str, policy: ResolvePolicy = MODEL) -> Answer:
    """``raw`` resolved once, checked to resolve the same streamed in pieces of 1 to 7."""
    answer = resolve(raw, registry(), policy)
    for size in (1, 2, 3, 5, 7):
        cuts = list(range(size, len(raw), size))
        for coalesce in (0, 16):
            assert streamed_at(raw, cuts, registry(), policy, coalesce) == answer, (size, coalesce)
    return answer


def cited(answer: Answer) -> list[str]:
    return [c.source.id for c in answer.citations]


LINK = "See the [install guide](https://docs.example.com/install[1]) first [1]."


@pytest.mark.parametrize(
    "cut", [len("See the ["), len("See the [inst"), len("See the [install guide")]
)
def test_a_stream_cut_inside_a_link_label_keeps_the_link_as_one_shot_does(cut: int) -> None:
    expected = resolve(LINK, registry(), MODEL)
    assert (
        expected.text == "See the [install guide](https://docs.example.com/install[1]) first [^1]."
    )
    assert streamed_at(LINK, [cut], registry(), MODEL) == expected


def test_a_long_unclosed_bracket_gives_up_in_a_stream_as_one_shot_does() -> None:
    raw = "a [" + "word " * 20 + "](https://x.test/[1]) [1]"
    # past 64 characters the "[" is text: the destination's "[1]" is a marker, streamed too
    assert resolved(raw).text == "a [" + "word " * 20 + "](https://x.test/ [^1]) [^1]"


@pytest.mark.parametrize(
    ("raw", "text", "ids"),
    [
        (
            f'Install {L}cite index="1-1">with pip{L}/cite> and '
            f'{L}cite index="2-1:2">retry{L}/cite>.',
            "Install with pip[^1] and retry[^2].",
            ["install", "faq"],
        ),
        (
            f'Plans {L}cite index="3-2:4">cost 49 EUR{L}/cite>.',
            "Plans cost 49 EUR[^1].",
            ["pricing"],
        ),
        (
            f'Plans {L}cite index="1-1,3-2:4">cost{L}/cite>.',
            "Plans cost[^1][^2].",
            ["install", "pricing"],
        ),
    ],
)
def test_claude_sentence_runs_cite_the_document_before_the_dash(
    raw: str, text: str, ids: list[str]
) -> None:
    answer = resolved(raw)
    assert (answer.text, cited(answer)) == (text, ids)


def test_a_cite_tag_holding_source_numbers_is_a_marker_for_a_model_told_to_cite() -> None:
    answer = resolved(f"Install with pip {L}cite>1{L}/cite> and retry {L}cite>2, 3{L}/cite>.")
    assert answer.text == "Install with pip [^1] and retry [^2][^3]."
    assert cited(answer) == ["install", "faq", "pricing"]


@pytest.mark.parametrize(
    ("raw", "policy"),
    [
        (f"Read {L}cite>Install guide{L}/cite> first.", MODEL),  # HTML's title of a work
        (f"Read {L}cite>1{L}/cite> first.", ResolvePolicy()),  # no model told to cite
        (f"In {L}cite>2024{L}/cite> first.", MODEL),  # no registry number's form
    ],
)
def test_other_cite_tags_stay_text(raw: str, policy: ResolvePolicy) -> None:
    answer = resolved(raw, policy)
    assert (answer.text, cited(answer)) == (raw, [])


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("Install with pip <!-- source: [2] --> [1].", "Install with pip [^1]."),
        ("Install with pip<!-- [2] --> [1].", "Install with pip [^1]."),
        ("<!-- from [2] -->\nInstall [1].", "Install [^1]."),
    ],
)
def test_an_inline_html_comment_is_removed_and_nothing_in_it_is_read(raw: str, text: str) -> None:
    answer = resolved(raw)
    assert (answer.text, cited(answer)) == (text, ["install"])


def test_a_comment_over_a_line_break_stays_text_as_before() -> None:
    answer = resolved("Install <!-- a\nnote --> [1].")
    assert answer.text == "Install <!-- a\nnote --> [^1]."


@pytest.mark.parametrize(
    ("raw", "text", "ids"),
    [
        (
            "Retries [2]. Install with pip (Source 1, Source 3).",
            "Retries [^1]. Install with pip [^2][^3].",
            ["faq", "install", "pricing"],
        ),
        ("Retries (source 1; source 2).", "Retries [^1][^2].", ["install", "faq"]),
        (
            "Retries (Source 2, 3, Source 1).",
            "Retries [^1][^2][^3].",
            ["faq", "pricing", "install"],
        ),
        ("安装用 pip（来源 3）。", "安装用 pip[^1]。", ["pricing"]),
        ("安装（出典：1、2）。", "安装[^1][^2]。", ["install", "faq"]),
    ],
)
def test_source_words_in_parentheses_before_each_number_are_read(
    raw: str, text: str, ids: list[str]
) -> None:
    answer = resolved(raw)
    assert (answer.text, cited(answer)) == (text, ids)


@pytest.mark.parametrize(
    "raw",
    ["(Source 1 and Source 3)", "(see Source 1, Source 3)", "（来源 十）", "（注 1）"],
)
def test_other_parenthesised_words_stay_text(raw: str) -> None:
    assert resolved(raw).text == raw


def test_source_words_before_unknown_numbers_stay_text_without_a_model_told_to_cite() -> None:
    raw = "Retries (Source 1, Source 9) and（来源 9）."
    assert resolved(raw, ResolvePolicy()).text == raw


@pytest.mark.parametrize(
    ("quote", "words"),
    [
        ('"Python 3.11 or newer is required."', "Python 3.11 or newer is required."),
        ("“Python 3.11 or newer is required.”", "Python 3.11 or newer is required."),
        ('"Python 3.11 or newer..."', "Python 3.11 or newer"),
        ("‘Python 3.11 or newer…’", "Python 3.11 or newer"),
        ("Python 3.11 or newer", "Python 3.11 or newer"),
    ],
)
def test_a_tag_quote_loses_its_quotation_marks_and_ellipsis(quote: str, words: str) -> None:
    answer = resolved(f"Install {L}citation>1 | {quote}{L}/citation>.")
    assert answer.citations[0].quote == words
    assert answer.citations[0].deep_link is not None
    assert "%22" not in answer.citations[0].deep_link


@pytest.mark.parametrize(
    ("raw", "text", "ids"),
    [
        (
            "Retries happen five times [2]. Team costs 49 EUR³.",
            "Retries happen five times [^1]. Team costs 49 EUR[^2].",
            ["faq", "pricing"],
        ),
        ("Install with pip.¹˒²", "Install with pip.[^1][^2]", ["install", "faq"]),
        ("Install guide⁽¹⁾ first.", "Install guide[^1] first.", ["install"]),
        ("Plans¹⁻³, then.", "Plans[^1][^2][^3], then.", ["install", "faq", "pricing"]),
    ],
)
def test_superscript_registry_numbers_after_a_word_or_punctuation_are_markers(
    raw: str, text: str, ids: list[str]
) -> None:
    answer = resolved(raw)
    assert (answer.text, cited(answer)) == (text, ids)


@pytest.mark.parametrize(
    ("raw", "policy"),
    [
        ("Area 5 m² and 10³ and x² and (x+1)² and 3 km².", MODEL),  # units and powers
        ("Team costs 49 EUR⁹.", MODEL),  # no source numbered 9
        ("Team costs 49 EUR³.", ResolvePolicy()),  # no model told to cite
        ("Model¹²³⁴ and 49 EUR ³.", MODEL),  # four digits; after a space
    ],
)
def test_other_superscripts_stay_text(raw: str, policy: ResolvePolicy) -> None:
    answer = resolved(raw, policy)
    assert (answer.text, cited(answer)) == (raw, [])
