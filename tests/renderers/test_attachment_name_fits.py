"""A file's name is cut to 200 characters in its stem, keeping its extension, and a line break in
it is a space, as in a title.

``attachment_name`` cut ``"x" * 300 + ".pdf"`` to 200 x's (no longer a PDF to the reader's
system), could leave a space or a dot at the cut, and joined the words around a CR/LF
("report\\r\\nBcc" -> "reportBcc") where the title shows a space. A second file of that name
was numbered past the limit (``stem (2).pdf`` of 204 characters), which the connector's own
cleaning then cut, number and all.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.grapheme_cuts import is_grapheme_boundary
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.attachable import MAX_NAME_CHARS, attachment_name, numbered_name
from renderers.spaces import one_line

FLAG = "\U0001f1eb\U0001f1f7"  # two regional indicators, one flag
E_ACUTE = "e\u0301"  # "é" as a letter and its combining accent

TRICKY = ["\r\n", "\n", "\t", "\u2028", "\x85", "\x00", " ", ".", "\u00a0", FLAG, E_ACUTE, ".pdf"]
pieced = st.lists(st.one_of(st.sampled_from(TRICKY), st.text(min_size=1, max_size=4)), max_size=12)
# names just over the limit, something to cut in two at the cut
long_names = st.builds(
    lambda n, middle, ext: "x" * n + middle + ext,
    st.integers(180, 220),
    st.sampled_from(["", " ", ".", "  y", FLAG, E_ACUTE, " " + FLAG]),
    st.sampled_from(["", ".pdf", ".markdown", ".x" + "y" * 20, ". Final version"]),
)
names = pieced.map("".join) | st.text(max_size=260) | long_names


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x" * 300 + ".pdf", "x" * 196 + ".pdf"),
        ("x" * 195 + " " + "y" * 100 + ".pdf", "x" * 195 + ".pdf"),  # no space at the cut
        ("x" * 195 + "." + "y" * 100 + ".pdf", "x" * 195 + ".pdf"),  # nor a dot
        ("x" * 195 + FLAG + "y" * 100 + ".pdf", "x" * 195 + ".pdf"),  # nor half a flag
        ("x" * 195 + E_ACUTE + "y" * 100 + ".pdf", "x" * 195 + ".pdf"),  # nor a bare e
        ("x" * 194 + " " + FLAG + "y" * 9 + ".pdf", "x" * 194 + ".pdf"),
        ("x" * 300 + ".markdown", "x" * 191 + ".markdown"),
        # no extension to keep: an ending too long, or words after a full stop
        ("x" * 300 + "." + "y" * 30, "x" * 200),
        ("x" * 190 + ". Final version of the minutes", "x" * 190 + ". Final ve"),
        ("report\r\nBcc.pdf", "report Bcc.pdf"),
        ("report\n\nBcc.pdf", "report Bcc.pdf"),
        ("a\tb.pdf", "a b.pdf"),
        ("a\u2028b  c.pdf", "a b c.pdf"),
        ("notes \u2028.", "notes"),
        (". a", "a"),
        ("kb/guide.pdf", "guide.pdf"),
    ],
)
def test_a_name_keeps_its_extension_and_its_words(name: str, expected: str) -> None:
    assert attachment_name(name) == expected


@given(names)
def test_a_cleaned_name_is_final_and_fits(name: str) -> None:
    cleaned = attachment_name(name)
    assert attachment_name(cleaned) == cleaned
    assert 0 < len(cleaned) <= MAX_NAME_CHARS and one_line(cleaned) == cleaned
    assert cleaned.strip(" .\u00a0") == cleaned and all(" " <= ch != "\x7f" for ch in cleaned)
    whole = name.rsplit("/", 1)[-1]
    if len(whole) > MAX_NAME_CHARS and whole.endswith(".pdf") and "\\" not in whole:
        assert cleaned.endswith(".pdf")


@given(names, st.integers(2, 120))
def test_a_numbered_name_fits_and_keeps_its_number(name: str, k: int) -> None:
    numbered = numbered_name(attachment_name(name), k)
    assert attachment_name(numbered) == numbered and len(numbered) <= MAX_NAME_CHARS
    assert f" ({k})" in numbered
    stem = numbered.partition(f" ({k})")[0]
    assert is_grapheme_boundary(stem + f" ({k})", len(stem))


def file_source(sid: str, filename: str) -> Source:
    return Source(
        id=sid, path=f"/kb/{sid}.pdf", filename=filename, media_type="application/pdf",
        kind="file",
    )  # fmt: skip


def attached(channel: str, *sources: Source) -> list[str]:
    citations = tuple(Citation(n, s, n) for n, s in enumerate(sources, 1))
    text = " ".join(f"Fact [^{n}]." for n in range(1, len(sources) + 1))
    payload = render(channel, Answer(text=text, citations=citations))
    key = {"discourse": "uploads", "email": "attachments"}.get(channel, "files")
    return [str(entry["filename"]) for entry in payload[key]]


@pytest.mark.parametrize("channel", ["slack", "discord", "discourse", "email"])
def test_two_long_names_travel_apart_within_the_limit(channel: str) -> None:
    names = attached(
        channel, file_source("a", "x" * 300 + "1.pdf"), file_source("b", "x" * 300 + "2.pdf")
    )
    assert names == ["x" * 196 + ".pdf", "x" * 192 + " (2).pdf"]


@pytest.mark.parametrize("channel", ["slack", "discord", "discourse", "email"])
def test_a_line_break_in_a_name_is_a_space_on_every_channel(channel: str) -> None:
    assert attached(channel, file_source("r", "report\r\nBcc.pdf")) == ["report Bcc.pdf"]
