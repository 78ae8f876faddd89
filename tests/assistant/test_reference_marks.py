"""A document's own reference marks are left out of quoted prose; indexing, code, labels and
years stay as written (the rule of bot.reference_marks)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.knowledge.document import code_spans
from bot.reference_marks import without_reference_marks


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The gasket must be replaced yearly [1].", "The gasket must be replaced yearly."),
        ("Checked by two people [1, 3], then logged.", "Checked by two people, then logged."),
        ("Valves rust fast [2-4]; in salt air [12].", "Valves rust fast; in salt air."),
        ("Rated for 6 bar at most [1][2].", "Rated for 6 bar at most."),
        # Wikipedia and Word put the mark after the punctuation, with no space
        (
            "Filters are changed every March.[2] Pumps are not.",
            "Filters are changed every March. Pumps are not.",
        ),
        ("The city,[1] the river\u201d[2] and more.", "The city, the river\u201d and more."),
    ],
)
def test_a_reference_mark_after_prose_is_left_out(text: str, expected: str) -> None:
    assert without_reference_marks(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Read arr[1] before x2[3] and f(x)[0].",  # glued to a name: indexing
        'The value d["k"][1] is a list.',
        "Set x = [1] or pass f([1]) to it.",  # after an operator or an opening bracket
        "The nested list [[1], [2]] has two items.",
        "Run `make [1] all` once.",  # code spans are never touched
        "Costs rose in [2023] sharply.",  # a year, not a reference number
        "See [1](https://example.com) and [1]abc.",  # a link, a word
        "[1] Smith, J. Gasket wear. 2003.",  # a label opening the text
    ],
)
def test_indexing_code_labels_and_years_stay(text: str) -> None:
    assert without_reference_marks(text) == text


def test_a_label_opening_a_joined_line_stays_but_a_mark_ending_one_goes() -> None:
    lines = ["Sources of the figures above [5].", "[1] Smith, J. Gasket wear."]
    joined = " ".join(lines)
    assert without_reference_marks(joined, (0, len(lines[0]) + 1)) == (
        "Sources of the figures above. [1] Smith, J. Gasket wear."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As shown in [3], the seal holds.", "As shown in reference 3, the seal holds."),
        ("Details are given (see [1, 4]).", "Details are given (see references 1, 4)."),
        (
            "Compare cf. [2] and see [5]\u2013[7].",
            "Compare cf. reference 2 and see references 5\u20137.",
        ),
        ("Tested to the limits of ref. [4].", "Tested to the limits of ref. 4."),
        ("Described in references [1, 2].", "Described in references 1, 2."),
    ],
)
def test_a_mark_the_sentence_names_becomes_a_word(text: str, expected: str) -> None:
    # dropped, "as shown in." would break the quoted sentence
    assert without_reference_marks(text) == expected


@given(st.text(alphabet="`\\[]1, .a=", max_size=30))
@example("`a [1] b` a [1].")
def test_code_spans_come_out_as_they_went_in(text: str) -> None:
    def code(of: str) -> list[str]:
        return [piece for is_code, piece in code_spans(of) if is_code]

    assert code(without_reference_marks(text)) == code(text)


@pytest.mark.parametrize(
    "sentence",
    [
        "Press [1] to continue.",
        "Set the retry count to [3].",
        "Upgrade to version [2] before March.",
        "Valid levels are [1-5].",
        "Returns HTTP status [404] on failure.",
        "It is rated for 6 bar [1][2] at most.",
        "Choose option [2].",
    ],
)
def test_a_bracketed_value_in_prose_is_quoted_as_written(sentence: str) -> None:
    # (the security review of the first rule): a mark followed by a word is part of its
    # sentence, and one after a word that takes a value is that value; dropping either, or
    # writing "reference 3", misquoted the document under its own citation
    assert without_reference_marks(sentence) == sentence
