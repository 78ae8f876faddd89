"""Record-key markers in the forms models write besides ``[[source key="…" columns="…"]]``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, StreamResolver, resolve
from tests.core.test_resolver_properties import KEY as PROPERTY_KEY
from tests.core.test_resolver_properties import make_registry, stream_split

SECRET = b"record-key-marker"


def _registry() -> SourceRegistry:
    registry = SourceRegistry(secret=SECRET)
    registry.register_all(
        [
            Source("docs/a", title="Guide"),
            Source(
                "products/CC-TEAM",
                kind="record",
                label="citecast Team (CC-TEAM)",
                columns={"price_usd": "19", "seats": "up to 50"},
            ),
        ]
    )
    return registry


KEY = _registry().key_for(2)


def _streamed(raw: str) -> Answer:
    """``raw`` fed to a StreamResolver one character at a time."""
    resolver = StreamResolver(_registry(), coalesce=0)
    text = ""
    for char in raw:
        text += "".join(e.text for e in resolver.feed(char) if isinstance(e, TextDelta))
    events, answer = resolver.finish()
    text += "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == answer.text
    return answer


@pytest.mark.parametrize(
    ("raw", "columns"),
    [
        (f'Team costs $19 [[source: key="{KEY}"]].', ()),
        (f'Team costs $19 [[source:key="{KEY}" columns="price_usd"]].', ("price_usd",)),
        (f'Team costs $19 [[Source : key={KEY}, columns="seats"]].', ("seats",)),
        (f'Team costs $19 [[source keys="{KEY}"]].', ()),
        (f'Team costs $19 [[source key="{KEY}" column="price_usd"]].', ("price_usd",)),
        (f'Team costs $19 [[source column="seats" key="{KEY}"]].', ("seats",)),
    ],
)
def test_colon_and_singular_plural_attribute_forms_cite_the_record(
    raw: str, columns: tuple[str, ...]
) -> None:
    for answer in (resolve(raw, _registry()), _streamed(raw)):
        assert answer.text == "Team costs $19 [^1]."
        [citation] = answer.citations
        assert citation.source.id == "products/CC-TEAM"
        assert citation.columns == columns
        assert answer.dropped == ()


def test_a_colon_form_naming_no_source_is_dropped_not_shown() -> None:
    raw = 'Team costs $19 [[source: key="00000000"]].'
    for answer in (resolve(raw, _registry()), _streamed(raw)):
        assert answer.text == "Team costs $19."
        assert [d.reason for d in answer.dropped] == ["invalid_token"]


@pytest.mark.parametrize(
    "raw",
    ["See [[source: the guide]] here.", "A [[source:]] b.", "Key [[source: keyboard]] c."],
)
def test_a_colon_without_key_or_columns_stays_what_it_was(raw: str) -> None:
    before = resolve(raw.replace(":", ""), _registry())
    answer = resolve(raw, _registry())
    assert _streamed(raw).text == answer.text
    assert answer.citations == before.citations == ()


# the new head and attribute forms among text, other markers and partial heads
_PIECES = [
    "Fact",
    " ",
    "\n",
    ".",
    "[1]",
    "]]",
    "[[",
    ":",
    "[[source:",
    "[[source: ",
    f'[[source: key="{PROPERTY_KEY}"]]',
    f"[[source:key={PROPERTY_KEY} column='price']]",
    f'[[Source : keys="{PROPERTY_KEY}", columns="price"]]',
    '[[source: key="nope"]]',
    "[[source: the guide]]",
    "key=",
    "column=",
    '"',
    "`",
]


@given(
    st.lists(st.sampled_from(_PIECES), max_size=30).map("".join),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    st.sampled_from([0, 1, 16, COALESCE]),
)
def test_the_new_forms_stream_as_they_resolve(raw: str, cuts: list[int], coalesce: int) -> None:
    # (not check_answer: "[[" around a marker leaves "[[^1]]", as it did before these forms)
    expected = resolve(raw, make_registry())
    assert stream_split(raw, cuts, coalesce=coalesce) == expected
    assert stream_split(raw, list(range(len(raw))), coalesce=coalesce) == expected
    assert {c.source.id for c in expected.citations} <= {"doc-a", "rec-1"}
