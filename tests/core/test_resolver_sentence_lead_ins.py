"""A sentence of lead-in words whose markers are all removed goes whole (bot.resolver_text).

``Fact. See also [7] and [12].`` with both numbers invented reads ``Fact.``, not ``Fact. See
also.``: a sentence that holds only a lead-in ("See also", "Sources:", "Cf.", "Vgl.", "For
more, see") and removed markers joined by separators goes with the space before it and its
full stop. The words stay when a citation survives, and when the writer's own words are in the
sentence. ``or`` separates markers as ``and`` does (``Fact [1] or [12].`` reads ``Fact
[^1].``). Every case is checked with ``resolve()`` and the stream fed in several splits.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.resolver import resolve
from tests.core.resolver_splits import resolved_everywhere, two_sources

GONE = [
    ("Fact. See also [7] and [12].", "Fact."),
    ("Fact. See [7].", "Fact."),
    ("Fact. See [7]. More.", "Fact. More."),
    ("Fact. Sources: [7], [9].", "Fact."),
    ("Fact. Source: [7]", "Fact."),
    ("Fact. Cf. [7]; [8].", "Fact."),
    ("Fakt. Vgl. [7].", "Fakt."),
    ("Fait. Voir [7] or [9].", "Fait."),
    ("Fact. For more, see [7].", "Fact."),
    ("Fact. For more details, see [9].", "Fact."),
    ("Fact. More details in [7].", "Fact."),
    ("Fact. see also [7].", "Fact."),
    ("Fact.  See   also [7].", "Fact."),
    ("Fact. See also<CIT nope />.", "Fact."),
    ("Fact! See [7]? More.", "Fact! More."),
    ("Fact. See also [7], [8]", "Fact."),
    ("Fact. See also [7] and", "Fact."),
    # at the start of the answer or of a line: the line goes as a line of removed markers does
    ("See also [7] and [12].", ""),
    ("See also [7] and [12]. Fact.", "Fact."),
    ("Fact.\nSee also [7].\nMore.", "Fact.\nMore."),
    ("Fact. See also [7]\nMore.", "Fact.\nMore."),
    ("- a\n- See also [7].\n- b", "- a\n- b"),
    ("- See [7], [9]\n- b", "- b"),
    ("1. See [7].\n2. Run.", "1. Run."),
    ("> See [7].", ""),
    ("Fact. See\n[9]. More.", "Fact. More."),
    ("Fact. Sources: [7],\n[9].", "Fact."),
    ("Fact. See [7],\nMore.", "Fact.\nMore."),
    # a setext underline of a line that held only such a sentence: as for a removed line
    ("Fact.\n\nSee [7]\n===\n\ntext", "Fact.\n\n\ntext"),
    ("See [7]\n===\n\ntext", "\ntext"),
    # at the end of the answer, with nothing after the markers
    ("a\n- See [7]", "a"),
    ("a\n> See [7]", "a"),
    ("- x\n- See [7] and", "- x"),
]

KEPT = [
    # a citation survives: the words stay with it
    ("Fact. See also [1] and [12].", "Fact. See also [^1]."),
    ("Fact. See also [12] and [1].", "Fact. See also [^1]."),
    ("Fact. See [12] or [1].", "Fact. See [^1]."),
    ("Fact. Sources: [7], [9], [1].", "Fact. Sources: [^1]."),
    ("Fact. See [1].", "Fact. See [^1]."),
    # other words in the sentence are the writer's
    ("Fact. See also the guide [12].", "Fact. See also the guide."),
    ("Fact. See also [7] and more.", "Fact. See also and more."),
    ("Fact. Per [7], the limit is 5.", "Fact. Per, the limit is 5."),
    ("Via [7] and [9], you can install.", "Via, you can install."),
    ("Fact. Compare [7]: it is big.", "Fact. Compare: it is big."),
    ("Fact. See [7] and\nmore.", "Fact. See and\nmore."),
    ("Fact. See\n[9] for details.", "Fact. See for details."),
    ("Fact. Sources: [7],\n[1].", "Fact. Sources: [^1]."),
    ("Fact. For example [7].", "Fact. For example."),
    ("Fact. Seeing [7] is fun.", "Fact. Seeing is fun."),
    ("A [1]. B [2]. C [9].", "A [^1]. B [^2]. C."),
    ("Fact. Se [7].", "Fact. Se."),
    # not at a sentence's start: a clause, kept
    ("Fact, see [7].", "Fact, see."),
    ("Fact.See [7].", "Fact.See."),
    ("    See [9].", "    See [9]."),
]

SEPARATORS = [
    ("Fact [1] and [12].", "Fact [^1]."),
    ("Fact [1] or [12].", "Fact [^1]."),
    ("Fact [12] or [1].", "Fact [^1]."),
    ("Fact [1] or [2].", "Fact [^1] or [^2]."),
    ("Fact [12] or more.", "Fact or more."),
    ("Fact [1] or more.", "Fact [^1] or more."),
    ("Fact [1], [12] or [13].", "Fact [^1]."),
    ("Fact [12] order.", "Fact order."),
]


# pieces of answers with lead-in sentences, for stream == resolve() whatever the combination
PIECES = [
    "Fact", ". ", ".", "! ", "See also ", "See ", "see ", "Sources: ", "For more, see ", "Se",
    "[7]", "[1]", "[12]", "<CIT nope />", "<sup>[9]</sup>", "<sup>[2]</sup>",
    " and ", " or ", ", ", " ", "\n", "\n\n", "- ", "1. ", "> ", "## ", "===\n",
    "More", " the guide",
]  # fmt: skip


@pytest.mark.parametrize(("raw", "text"), GONE)
def test_a_sentence_of_lead_in_words_and_removed_markers_goes_whole(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), KEPT)
def test_lead_in_words_stay_with_a_citation_or_other_words(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


@pytest.mark.parametrize(("raw", "text"), SEPARATORS)
def test_or_separates_markers_as_and_does(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text


def test_the_removed_markers_of_the_sentence_are_reported() -> None:
    answer = resolve("Fact. See also [7] and [12].", two_sources())
    assert [(d.marker, d.reason) for d in answer.dropped] == [
        ("[7]", "out_of_range"),
        ("[12]", "out_of_range"),
    ]


@given(st.lists(st.sampled_from(PIECES), max_size=16).map("".join))
def test_stream_and_resolve_agree_around_lead_in_sentences(raw: str) -> None:
    text = resolved_everywhere(raw)
    assert "[12]" not in text and "[7]" not in text
