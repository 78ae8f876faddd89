"""The JSON form of ``Citation.occurrences``: round trip, omitted when empty, validated."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import ValidationError
from bot.models import Answer, Citation, Occurrence, Source

SOURCE = Source(id="guide#1", title="Guide", url="https://docs.example.org/guide.html")

occurrences = st.builds(
    Occurrence,
    quote=st.none() | st.text(max_size=20),
    deep_link=st.none() | st.text(max_size=20),
    support=st.none() | st.floats(min_value=0, max_value=1),
)


@given(
    st.none() | st.text(max_size=20),
    st.lists(occurrences, max_size=4),
)
def test_a_citation_round_trips_with_its_occurrences(
    quote: str | None, marks: list[Occurrence]
) -> None:
    citation = Citation(1, SOURCE, 1, quote=quote, occurrences=tuple(marks))
    data = json.loads(json.dumps(citation.to_json()))
    assert Citation.from_json(data) == citation
    assert ("occurrences" in data) == bool(citation.occurrences)


def test_the_json_form_omits_empty_fields_of_an_occurrence() -> None:
    citation = Citation(
        1, SOURCE, 1, quote="a", occurrences=(Occurrence("a", support=0.5), Occurrence())
    )
    assert citation.to_json()["occurrences"] == [{"quote": "a", "support": 0.5}, {}]


def test_a_citation_without_occurrences_keeps_its_json_form() -> None:
    assert set(Citation(1, SOURCE, 1, quote="a").to_json()) == {
        "n",
        "source",
        "source_number",
        "quote",
    }


def test_unknown_occurrence_keys_are_ignored_as_a_citations_are() -> None:
    data = {"n": 1, "source": {"id": "s"}, "quote": "a", "occurrences": [{"quote": "b", "x": 1}]}
    assert Citation.from_json(data).occurrences == (Occurrence("b"),)


@pytest.mark.parametrize(
    ("occurrences", "message"),
    [
        ({"quote": "a"}, "occurrences must be a list"),
        ("a", "occurrences must be a list"),
        (["a"], r"occurrences\[0\]: an occurrence must be a JSON object"),
        ([{}, {"quote": 3}], r"occurrences\[1\]: quote must be a string"),
        ([{"deep_link": ["x"]}], r"occurrences\[0\]: deep_link must be a string"),
        ([{"support": 1.5}], "occurrence support must be a number from 0 to 1"),
        ([{"support": True}], "occurrence support must be a number from 0 to 1"),
        ([{"support": "0.5"}], "occurrence support must be a number from 0 to 1"),
    ],
)
def test_invalid_occurrences_name_the_entry(occurrences: object, message: str) -> None:
    data = {
        "text": "A [^1].",
        "citations": [{"n": 1, "source": {"id": "s"}, "quote": "a", "occurrences": occurrences}],
    }
    with pytest.raises(ValidationError, match=r"citations\[0\]: .*" + message):
        Answer.from_json(data)
