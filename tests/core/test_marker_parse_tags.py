"""The marker families that open with no square bracket, read from their own module
(bot.marker_parse_tags): tags, CJK brackets and private-use markers, each within its bound."""

from __future__ import annotations

from bot.marker_parse_tags import MAX_PRIVATE, MAX_TAG, parse_angle, parse_cjk, parse_private
from bot.marker_types import NEED, STRAY, Hit, Marker
from bot.markers import find_markers


def test_a_citation_tag_with_a_quote() -> None:
    text = "x <citation>2 | the quote</citation> y"
    found = parse_angle(text, 2, True)
    assert found == Hit(36, Marker("tag", text[2:36], 2, (2,), quote="the quote"))


def test_a_placeholder_in_a_tag_is_read_with_the_bracket_placeholders() -> None:
    text = "<citation>source</citation>"
    found = parse_angle(text, 0, True)
    assert found == Hit(len(text), Marker("tag", text, 0, placeholder=True))


def test_an_unclosed_tag_waits_only_up_to_its_bound() -> None:
    assert parse_angle("<citation>1", 0, False) is NEED
    assert parse_angle("<citation>1", 0, True) is None
    assert parse_angle("<citation>" + "1" * MAX_TAG, 0, False) is None


def test_a_cit_tag_names_a_file_id() -> None:
    text = "<CIT docs/guide.md />"
    found = parse_angle(text, 0, True)
    assert found == Hit(len(text), Marker("file_id", text, 0, ids=("docs/guide.md",)))


def test_cjk_brackets_with_a_dagger() -> None:
    text = "【4:0†source】"
    assert parse_cjk(text, 0, True) == Hit(len(text), Marker("word", text, 0, (4,)))
    assert parse_cjk("【4", 0, False) is NEED


def test_private_use_markers_and_a_stray_one() -> None:
    text = "\ue200cite\ue202doc-1\ue202doc-2\ue201"
    found = parse_private(text, 0, True)
    assert found == Hit(len(text), Marker("private", text, 0, ids=("doc-1", "doc-2")))
    assert parse_private("\ue201", 0, True) == Hit(1, STRAY)
    assert parse_private("\ue200cite" + "x" * MAX_PRIVATE, 0, False) == Hit(1, STRAY)


def test_the_scanner_reads_every_family_of_the_module() -> None:
    text = "A <citation>1</citation> b 【2】 c \ue200cite\ue202s3\ue201."
    markers = find_markers(text)
    assert [(m.family, m.numbers, m.ids) for m in markers] == [
        ("tag", (1,), ()),
        ("word", (2,), ()),
        ("private", (), ("s3",)),
    ]
