"""Upload placeholders replaced exactly: ``citecast-upload://1`` is not ``citecast-upload://10``."""

from __future__ import annotations

import pytest

from bot.connectors.discourse_placeholders import occurs, substitute

TWO = (
    "[^1]: A: [a.md|attachment](citecast-upload://1)\n"
    "[^10]: B: [b.md|attachment](citecast-upload://10)"
)
TENTH = "[^10]: B: [b.md|attachment](citecast-upload://10)"


@pytest.mark.parametrize(
    ("url", "first"),
    [
        (None, "[^1]: A: a.md"),
        ("upload://u5r7.md", "[^1]: A: [a.md|attachment](upload://u5r7.md)"),
        ("https://citecast.example/files/a", "[^1]: A: [a.md](https://citecast.example/files/a)"),
    ],
    ids=["name", "upload", "signed-link"],
)
def test_the_first_placeholder_leaves_the_tenth_alone(url: str | None, first: str) -> None:
    assert substitute(TWO, "citecast-upload://1", "a.md", url) == f"{first}\n{TENTH}"


def test_each_placeholder_gets_its_own_file() -> None:
    raw = substitute(TWO, "citecast-upload://1", "a.md", "upload://one.md")
    raw = substitute(raw, "citecast-upload://10", "b.md", "upload://ten.md")
    assert raw == (
        "[^1]: A: [a.md|attachment](upload://one.md)\n[^10]: B: [b.md|attachment](upload://ten.md)"
    )


def test_a_placeholder_counts_only_where_no_digit_follows() -> None:
    assert not occurs(TENTH, "citecast-upload://1")
    assert occurs(TENTH, "citecast-upload://10")
    assert occurs("[x](citecast-upload://2)", "citecast-upload://2")
    assert not occurs("[x](citecast-upload://23)", "citecast-upload://2")


def test_a_placeholder_outside_a_link_is_replaced_exactly() -> None:
    raw = "see citecast-upload://1 and citecast-upload://12"
    replaced = substitute(raw, "citecast-upload://1", "a.md", "https://x.example/a")
    assert replaced == "see [a.md](https://x.example/a) and citecast-upload://12"


def test_a_name_with_escaped_brackets_keeps_one_link() -> None:
    # md_text escapes a title's and a file name's brackets; the link is still found whole, and
    # the title's "\[" before it is not taken for the link's start
    raw = "[^1]: FAQ \\[beta\\]: [faq \\[beta\\].md|attachment](citecast-upload://1)"
    uploaded = substitute(raw, "citecast-upload://1", "faq [beta].md", "upload://f.md")
    assert uploaded == "[^1]: FAQ \\[beta\\]: [faq \\[beta\\].md|attachment](upload://f.md)"
    named = substitute(raw, "citecast-upload://1", "faq [beta].md", None)
    assert named == "[^1]: FAQ \\[beta\\]: faq \\[beta\\].md"
    signed = substitute(raw, "citecast-upload://1", "faq [beta].md", "https://x.example/f")
    assert signed == "[^1]: FAQ \\[beta\\]: [faq \\[beta\\].md](https://x.example/f)"
