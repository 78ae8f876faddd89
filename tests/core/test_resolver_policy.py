"""ResolvePolicy switches, streaming events, and the details of the canonical text."""

from __future__ import annotations

import pytest

from bot.models import CitationAdded, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve


def registry() -> SourceRegistry:
    reg = SourceRegistry()
    reg.register_all(
        [
            Source("a", title="Alpha guide", url="https://a.test/"),
            Source("b", title="Beta"),
            Source("c", title="Gamma"),
            Source("w", kind="record", label="Widget Pro", columns={"price": "5"}),
            Source("x", kind="record", label="Widget", columns={"price": "2"}),
        ]
    )
    return reg


def test_max_citations_drops_extra_distinct_sources() -> None:
    answer = resolve(
        "A [1]. B [2]. C [3]. A again [1].", registry(), ResolvePolicy(max_citations=2)
    )
    assert answer.text == "A [^1]. B [^2]. C. A again [^1]."
    assert [d.reason for d in answer.dropped] == ["over_limit"]


def test_infer_from_mentions_cites_record_labels_once() -> None:
    policy = ResolvePolicy(infer_from_mentions=True)
    answer = resolve(
        "The Widget Pro costs 5. A Widget costs 2. Widget Pro again.", registry(), policy
    )
    assert answer.text == "The Widget Pro[^1] costs 5. A Widget[^2] costs 2. Widget Pro again."
    assert [c.source.id for c in answer.citations] == ["w", "x"]


def test_infer_from_mentions_skips_labels_already_cited() -> None:
    policy = ResolvePolicy(infer_from_mentions=True)
    answer = resolve("Widget Pro [4] is the best; Widget Pro rules.", registry(), policy)
    assert answer.text == "Widget Pro [^1] is the best; Widget Pro rules."


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("Call `Widget Pro` like this.", "Call `Widget Pro` like this."),
        ("```\nWidget Pro\n```\nThen Widget Pro.", "```\nWidget Pro\n```\nThen Widget Pro[^1]."),
        ("Intro:\n\n    Widget Pro\n\nok", "Intro:\n\n    Widget Pro\n\nok"),
        ("Costs $x Widget Pro$ here.", "Costs $x Widget Pro$ here."),
    ],
)
def test_infer_from_mentions_never_writes_into_code_or_math(raw: str, text: str) -> None:
    policy = ResolvePolicy(infer_from_mentions=True)
    assert resolve(raw, registry(), policy).text == text
    stream = StreamResolver(registry(), policy)
    for at in range(0, len(raw), 3):
        stream.feed(raw[at : at + 3])
    assert stream.finish()[1].text == text


def test_infer_from_mentions_is_off_by_default() -> None:
    assert resolve("Widget Pro costs 5.", registry()).citations == ()


def test_source_list_kept_when_policy_says_so() -> None:
    raw = "Answer [1].\n\nSources:\n- [1] Alpha guide"
    policy = ResolvePolicy(strip_model_source_lists=False)
    assert resolve(raw, registry(), policy).text == "Answer [^1].\n\nSources:\n- [^1] Alpha guide"
    assert resolve(raw, registry()).text == "Answer [^1]."


def test_source_list_naming_titles_and_urls_is_stripped() -> None:
    raw = "Answer [2] [1].\n\n## References\n\n* Beta\n* https://a.test/\n\n"
    assert resolve(raw, registry()).text == "Answer [^1][^2]."


def test_later_tag_fills_in_the_quote() -> None:
    answer = resolve("A [1]. B <citation>1 | exact words</citation>.", registry())
    assert answer.citations[0].quote == "exact words"
    assert answer.citations[0].deep_link == "https://a.test/#:~:text=exact%20words"


def test_removed_line_of_markers_does_not_leave_a_blank_line() -> None:
    assert resolve("First.\n[9]\nSecond [1].", registry()).text == "First.\nSecond [^1]."


def test_citation_at_line_start_before_colon_is_not_a_definition() -> None:
    # a definition line goes; the source it alone names is still cited
    assert resolve("[1]: is cited\n", registry()).text == "[^1]"
    assert resolve("<CIT a />: is cited", registry()).text == "[^1]\\: is cited"


def test_trailing_whitespace_is_trimmed() -> None:
    assert resolve("Done [1].  \n\n\n", registry()).text == "Done [^1]."


def test_stream_emits_citations_before_the_text_using_them() -> None:
    resolver = StreamResolver(registry())
    events = resolver.feed("Fact [1") + resolver.feed("]. More [2] ok")
    tail, answer = resolver.finish()
    events += tail
    kinds = [type(e).__name__ for e in events]
    first_text_with_citation = next(
        i for i, e in enumerate(events) if isinstance(e, TextDelta) and "[^1]" in e.text
    )
    added = [i for i, e in enumerate(events) if isinstance(e, CitationAdded)]
    assert added and added[0] < first_text_with_citation
    assert kinds.count("CitationAdded") == 2
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == answer.text


def test_stream_cannot_be_fed_after_finish() -> None:
    resolver = StreamResolver(registry())
    resolver.finish()
    with pytest.raises(ValueError, match="finish"):
        resolver.feed("x")


def test_citation_after_a_lone_backslash_is_not_escaped() -> None:
    assert resolve("a\\【2】", registry()).text == "a\\\\[^1]"  # escaped, nothing invisible
    assert resolve("a\\\\【2】", registry()).text == "a\\\\[^1]"


def test_removal_never_spells_a_new_fence_or_marker() -> None:
    assert resolve("【9】```[1]```", registry()).text == "\u200b```[1]```"
    assert resolve("<[9]CIT a />", registry()).text == "<\u200bCIT a />"
