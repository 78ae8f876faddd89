"""The canonical model: JSON round-trip, omitted empty fields, unsafe URL removal."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import ValidationError
from bot.models import Answer, Citation, Dropped, RecordAction, Source, is_safe_url

FULL = Source(
    id="doc#3",
    title="Guide [v2] | *new*",
    url="https://example.com/guide.pdf",
    filename="guide.pdf",
    path="/srv/files/guide.pdf",
    media_type="application/pdf",
    page=3,
    page_end=4,
    section="Setup > Linux",
    chunk=2,
    text="Install with pip.",
    citable=False,
    audience=("public", "staff"),
    kind="file",
    key="k1",
    label="Guide",
    columns={"version": "2"},
    action=RecordAction(label="Open", url="https://example.com/open"),
)


def test_source_json_round_trip_keeps_every_field() -> None:
    data = FULL.to_json()
    assert Source.from_json(json.loads(json.dumps(data))) == FULL
    assert data["audience"] == ["public", "staff"]
    assert data["action"] == {"label": "Open", "url": "https://example.com/open"}


def test_minimal_source_json_omits_empty_fields() -> None:
    assert Source("a").to_json() == {"id": "a", "audience": ["public"], "kind": "passage"}


def test_answer_round_trip() -> None:
    answer = Answer(
        text="Fact [^1].",
        citations=(
            Citation(
                n=1,
                source=FULL,
                source_number=4,
                quote="Install with pip.",
                deep_link="https://example.com/guide.pdf#page=3",
                columns=("version",),
                claim="Fact.",
                support=0.75,
            ),
        ),
        dropped=(Dropped(marker="[9]", reason="out_of_range", offset=12),),
        uncited_claims=("Another fact.",),
    )
    data = json.loads(json.dumps(answer.to_json()))
    assert Answer.from_json(data) == answer
    assert set(data) == {"text", "citations", "dropped", "uncited_claims"}


def test_citation_json_omits_null_fields() -> None:
    data = Citation(n=1, source=Source("a"), source_number=1).to_json()
    assert set(data) == {"n", "source", "source_number"}


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "//example.com/no-scheme",
        "/relative/path",
        "https://exa\nmple.com",
        "https://example.com/\x00",
        "http://",
        "",
    ],
)
def test_unsafe_urls_are_removed_with_a_warning(url: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.models"):
        source = Source("x", url=url)
    assert source.url is None
    assert Source.from_json({"id": "x", "url": url}).url is None
    if url:
        assert any("unsafe URL" in record.message for record in caplog.records)


@pytest.mark.parametrize(
    "url", ["https://example.com/a?b=1#c", "http://localhost:8000/", "mailto:help@example.com"]
)
def test_safe_urls_are_kept(url: str) -> None:
    assert Source("x", url=url).url == url
    assert is_safe_url(url)


def test_unsafe_action_url_is_removed() -> None:
    source = Source("r", kind="record", action=RecordAction("Buy", "javascript:buy()"))
    assert source.action is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"id": ""}, "non-empty"),
        ({"id": "a", "page": "3"}, "page must be an integer"),
        ({"id": "a", "page": True}, "page must be an integer"),
        ({"id": "a", "kind": "song"}, "kind must be one of"),
        ({"id": "a", "audience": [1]}, "audience must be a list of strings"),
        ({"id": "a", "nope": 1}, "unknown field(s): nope"),
        ({"title": "x"}, "missing field: id"),
    ],
)
def test_invalid_source_json_is_a_validation_error(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Source.from_json(data)


def test_invalid_answer_json_names_the_entry() -> None:
    data = {"text": "x", "citations": [{"n": 1, "source": {"id": "a"}}, {"n": 0, "source": {}}]}
    with pytest.raises(ValidationError, match=r"citations\[1\]"):
        Answer.from_json(data)
    with pytest.raises(ValidationError, match="dropped reason"):
        Dropped.from_json({"marker": "[1]", "reason": "bad", "offset": 0})
    # an object or a string where a list belongs is refused, even an empty one
    wrongs: tuple[object, ...] = ({}, "", 0)
    for wrong in wrongs:
        with pytest.raises(ValidationError, match="citations must be a list"):
            Answer.from_json({"text": "x", "citations": wrong})
    assert Answer.from_json({"text": "x", "citations": None}).citations == ()


urls = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda s, rest: f"{s}:{rest}",
        st.sampled_from(["http", "javascript", "data"]),
        st.text(max_size=20),
    ),
)


@given(
    st.text(min_size=1, max_size=20),
    urls,
    st.none() | st.integers(min_value=1, max_value=10_000),
    st.lists(st.text(max_size=8), min_size=1, max_size=3),
)
def test_source_round_trip_property(
    ident: str, url: str, page: int | None, audience: list[str]
) -> None:
    source = Source(ident, url=url, page=page, audience=tuple(audience))
    assert source.url is None or is_safe_url(source.url)
    assert Source.from_json(json.loads(json.dumps(source.to_json()))) == source


def test_public_sources_are_visible_to_every_viewer_and_groups_only_widen() -> None:
    guide = Source("guide")
    staff_only = Source("hr", audience=("staff",))
    assert guide.visible_to(frozenset({"staff"}))
    assert guide.visible_to(frozenset())
    assert staff_only.visible_to(frozenset({"staff"}))
    assert not staff_only.visible_to(frozenset({"public"}))
    assert not staff_only.visible_to(frozenset({"sales"}))
