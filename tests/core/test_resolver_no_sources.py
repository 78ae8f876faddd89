"""``ResolvePolicy.model_cites``: citations a model told to cite invented, with no source to cite.

A model instructed to cite with ``[n]`` markers that answers without searching (or after a
search that found nothing) still writes them: with the registry empty, DESIGN §5 would keep its
bare ``[1]`` as text, and ``(Source 1)``, ``<sup>1</sup>`` and its "Sources:" list with it.
For a model's answer every number form is a citation, dropped when it names no source.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve


def model_cites(strip_model_source_lists: bool = True) -> ResolvePolicy:
    """The policy the assistant resolves a model's answer with."""
    return ResolvePolicy(model_cites=True, strip_model_source_lists=strip_model_source_lists)


# the QA scenario's answer, as the fake model wrote it with no source registered
INVENTED = (
    "Bracket [1]. Footnote[^1]. Tag<citation>1</citation>. Word [cite: 1]. "
    "Source paren (Source 1). Sup <sup>1</sup>. Lenticular 【1】. Dagger 【1:0†source】. "
    "Unknown [99]. Zero [0]. Placeholder [n]. Range [1-1]. Year [2023].\n\n"
    "Sources:\n- [1] guide\n- [1] faq"
)


def guide() -> SourceRegistry:
    """A registry with one source: [1] "Install guide"."""
    registry = SourceRegistry(["public"], secret=b"no-sources-test!")
    registry.register(Source("a", title="Install guide", url="https://docs.test/install"))
    return registry


def everywhere(raw: str, registry: SourceRegistry | None, policy: ResolvePolicy) -> Answer:
    """``resolve()`` of ``raw``, checked against the stream in several splits."""
    answer = resolve(raw, registry or SourceRegistry(), policy)
    for size in (1, 2, 3, 7, max(len(raw), 1)):
        for coalesce in (0, 16):
            stream = StreamResolver(registry or SourceRegistry(), policy, coalesce=coalesce)
            shown: list[str] = []
            for at in range(0, len(raw), size):
                shown += [
                    e.text for e in stream.feed(raw[at : at + size]) if isinstance(e, TextDelta)
                ]
            events, streamed = stream.finish()
            shown += [e.text for e in events if isinstance(e, TextDelta)]
            assert streamed == answer, (size, coalesce)
            assert "".join(shown) == answer.text
    return answer


def test_a_model_answer_with_no_sources_drops_every_invented_citation() -> None:
    answer = everywhere(INVENTED, None, model_cites())
    assert answer.text == (
        "Bracket. Footnote. Tag. Word. Source paren. Sup. Lenticular. Dagger. Unknown. "
        "Zero [0]. Placeholder. Range. Year [2023]."
    )
    assert answer.citations == ()
    assert [(d.marker, d.reason) for d in answer.dropped] == [
        ("[1]", "out_of_range"),
        ("[^1]", "out_of_range"),
        ("<citation>1</citation>", "out_of_range"),
        ("[cite: 1]", "out_of_range"),
        ("(Source 1)", "out_of_range"),
        ("<sup>1</sup>", "out_of_range"),
        ("【1】", "out_of_range"),
        ("【1:0†source】", "out_of_range"),
        ("[99]", "out_of_range"),
        ("[n]", "placeholder"),
        ("[1-1]", "out_of_range"),
    ]
    for dropped in answer.dropped:
        assert INVENTED[dropped.offset :].startswith(dropped.marker)


def test_text_that_never_cited_keeps_its_brackets_with_no_sources() -> None:
    # citecast resolve and the extractive answerer: DESIGN §5 as written
    answer = everywhere(INVENTED, None, ResolvePolicy())
    assert answer.text == (
        "Bracket [1]. Footnote. Tag. Word. Source paren (Source 1). Sup <sup>1</sup>. "
        "Lenticular. Dagger. Unknown [99]. Zero [0]. Placeholder [n]. Range [1-1]. "
        "Year [2023].\n\nSources:\n- [1] guide\n- [1] faq"
    )
    assert everywhere("See [1] and [2].", None, ResolvePolicy()).text == "See [1] and [2]."


@pytest.mark.parametrize(
    "raw",
    [
        "In [2023] it changed.",
        "Index a[0] and [0] and [0, 1].",
        "Run `x[1]` or\n\n```\nitems[1] (Source 1)\n```",
        "Escaped \\[1\\] stays.",
        "Area 3 m<sup>2</sup>, power x<sup>2</sup>, (x+1)<sup>2</sup>.",
        "Page (source 3 of 5) and Source: 3 and [1,000].",
        "Math $a[1]$ here.",
        "- [ ] task\n- [x] done",
        "A [link](https://else.test) and [text].",
    ],
)
def test_a_model_answer_keeps_what_is_no_citation(raw: str) -> None:
    answer = everywhere(raw, None, model_cites())
    assert answer.text == raw
    assert answer.dropped == ()


def test_with_sources_a_model_answer_drops_number_forms_naming_none() -> None:
    # (Source 9) and <sup>9</sup> are a model's invented citations however many sources exist
    raw = "Install [1]. Paren (Source 9). Sup <sup>9</sup>. Known (Source 1) <sup>1</sup>. [#9]."
    answer = everywhere(raw, guide(), model_cites())
    assert answer.text == "Install [^1]. Paren. Sup. Known [^1]. [#9]."
    assert [(d.marker, d.reason) for d in answer.dropped] == [
        ("(Source 9)", "out_of_range"),
        ("<sup>9</sup>", "out_of_range"),
    ]
    # without model_cites they stay the writer's text, as before
    plain = everywhere(raw, guide(), ResolvePolicy())
    assert plain.text == "Install [^1]. Paren (Source 9). Sup <sup>9</sup>. Known [^1]. [#9]."


def test_a_source_list_of_invented_entries_is_removed() -> None:
    raw = "Install with pip [1].\n\nSources:\n- [1] Install guide\n- [7] Blog post\n"
    answer = everywhere(raw, guide(), model_cites())
    assert answer.text == "Install with pip [^1]."
    assert everywhere(raw, guide(), ResolvePolicy()).text == (
        "Install with pip [^1].\n\nSources:\n- [^1] Install guide\n- Blog post"
    )
    one_line = everywhere("Install with pip.\n\nSources: [3], [4]", None, model_cites())
    assert one_line.text == "Install with pip."


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        # a link the registry lacks, a title only, an ordered list: the writer's, as before
        (
            "Install it.\n\nSources:\n- [1] https://else.test/guide",
            "Install it.\n\nSources:\n- https://else.test/guide",
        ),
        ("Install it.\n\nReferences:\n- RFC 5322\n- RFC 6531", None),
        ("Install it.\n\nReferences:\n1. RFC 5322\n2. RFC 6531", None),
    ],
)
def test_a_source_list_the_model_may_mean_stays(raw: str, text: str | None) -> None:
    assert everywhere(raw, None, model_cites()).text == (text or raw)


def test_an_answer_that_is_only_an_invented_list_is_not_emptied() -> None:
    answer = everywhere("Sources:\n- [1] guide\n- [2] faq", None, model_cites())
    assert answer.text == "Sources:\n- guide\n- faq"
    assert [d.reason for d in answer.dropped] == ["out_of_range", "out_of_range"]


def test_strip_model_source_lists_off_keeps_the_list_and_drops_its_markers() -> None:
    answer = everywhere("Install.\n\nSources:\n- [1] guide", None, model_cites(False))
    assert answer.text == "Install.\n\nSources:\n- guide"
