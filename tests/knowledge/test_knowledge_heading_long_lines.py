"""A Markdown heading is cleaned in one pass over its text, however long and however odd: the
patterns of :func:`bot.knowledge.document.clean_heading` never read a line again from each
of its characters (a line of "[a](" repeated, or 40,000 spaces in a row, took seconds)."""

from __future__ import annotations

from bot.knowledge.document import _CLOSING_HASHES, _LINK, clean_heading


def test_a_link_target_never_reaches_past_the_next_bracket() -> None:
    # what bounds the work: a try at one "[" reads no further than the next "["
    assert _LINK.match("[a](b [c](d)") is None
    assert _LINK.sub(r"\1", "[a](b [c](d)") == "[a](b c"


def test_closing_hashes_are_tried_only_where_a_run_of_spaces_starts() -> None:
    assert _CLOSING_HASHES.match("a    ##", 2) is None
    assert _CLOSING_HASHES.sub("", "Setup    ##  ") == "Setup"


def test_an_adversarial_heading_of_40000_characters_is_cleaned_right() -> None:
    unclosed = "[a](" * 10_000
    assert clean_heading(f"{unclosed}[Docs](https://example.org/docs) ##") == f"{unclosed}Docs"
    assert clean_heading("[" * 40_000 + "x") == "[" * 40_000 + "x"
    assert clean_heading("![a](b" * 7_000 + ")") == "![a](b" * 6_999 + "a"


def test_a_heading_with_a_long_run_of_spaces_is_cleaned_right() -> None:
    assert clean_heading("Setup" + " " * 40_000 + "on *Linux* ##") == "Setup on Linux"
    assert clean_heading("Setup" + " " * 40_000 + "x") == "Setup x"
