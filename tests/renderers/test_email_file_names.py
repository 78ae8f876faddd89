"""An email names each attached file by one cleaned string, in its part and in its entry.

A file named ``=?utf-8?q?evil?=.pdf`` was listed under that name, but mail clients decode the
encoded word in the attachment's ``filename`` and show ``evil.pdf``; a name with a line break
was listed twice, spelled two ways ("report Bcc.pdf (attached: reportBcc.pdf)").
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.email_file_names import email_file_name
from renderers.spaces import one_line

TRICKY = [
    "=?utf-8?q?",
    "?=",
    "=",
    "?",
    '"',
    "<",
    ">",
    "\r\n",
    "\n",
    "\u2028",
    "\x85",
    "\u202e",
    "\x00",
    " ",
    ".",
]
names = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(min_size=1, max_size=4)), max_size=12
).map("".join) | st.text(max_size=260)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("=?utf-8?q?evil?=.pdf", "=_utf-8?q?evil?=.pdf"),
        ("x =?iso-8859-1?q?caf=E9?= y.pdf", "x =_iso-8859-1?q?caf=E9?= y.pdf"),
        ("==??.pdf", "==_?.pdf"),
        ("=\x00?b?q?x?=.pdf", "=_b?q?x?=.pdf"),  # an encoded word the cleaner would have made
        ("report\r\nBcc: evil@attacker.example.pdf", "report Bcc: evil@attacker.example.pdf"),
        ("a\u2028b  c.pdf", "a b c.pdf"),
        ("notes \u2028.", "notes"),
        ("../../etc/passwd.pdf", "passwd.pdf"),
        ("\u2029", "attachment"),
        # a reader takes quotes or angle brackets off a whole value: Python's parser shows
        # '"x.pdf"' as 'x.pdf', '""' as ''
        ('"x.pdf"', "x.pdf"),
        ('""', "attachment"),
        ("<x.pdf>", "x.pdf"),
        ('"a" b.pdf', '"a" b.pdf'),
    ],
)
def test_a_name_is_cleaned_to_what_a_client_shows(name: str, expected: str) -> None:
    assert email_file_name(name) == expected


@given(names)
def test_a_cleaned_name_is_final(name: str) -> None:
    cleaned = email_file_name(name)
    assert email_file_name(cleaned) == cleaned  # the connector cleans it again when it attaches
    assert "=?" not in cleaned and one_line(cleaned) == cleaned
    assert 0 < len(cleaned) <= 200 and all(" " <= ch != "\x7f" for ch in cleaned)


def file_source(sid: str, filename: str, title: str | None = None) -> Source:
    return Source(
        id=sid, title=title, path=f"/kb/{sid}.pdf", filename=filename,
        media_type="application/pdf", kind="file",
    )  # fmt: skip


def rendered(*sources: Source) -> tuple[list[str], list[str]]:
    """The text part's entry lines and the payload's attachment names."""
    citations = tuple(Citation(n, s, n) for n, s in enumerate(sources, 1))
    text = " ".join(f"Fact [^{n}]." for n in range(1, len(sources) + 1))
    payload = render("email", Answer(text=text, citations=citations))
    lines = payload["text"].split("\nSources\n", 1)[1].strip().split("\n")
    return lines, [entry["filename"] for entry in payload["attachments"]]


def test_an_encoded_word_name_is_listed_as_the_file_is_attached() -> None:
    lines, attached = rendered(file_source("e", "=?utf-8?q?evil?=.pdf"))
    assert attached == ["=_utf-8?q?evil?=.pdf"]
    assert lines == ["[1] =_utf-8?q?evil?=.pdf (attached)"]


def test_a_name_with_a_line_break_is_named_once() -> None:
    lines, attached = rendered(file_source("r", "report\r\nBcc: evil@attacker.example.pdf"))
    assert attached == ["report Bcc: evil@attacker.example.pdf"]
    assert lines == ["[1] report Bcc: evil@attacker.example.pdf (attached)"]


def test_names_that_clean_to_one_travel_apart() -> None:
    lines, attached = rendered(
        file_source("a", "a\u2028b.pdf"),
        file_source("b", "a b.pdf"),
        file_source("c", "Guide.pdf", title="Admin guide"),
        file_source("d", "x" * 300 + "1.pdf"),
        file_source("e", "x" * 300 + "2.pdf"),
    )
    assert attached == [
        "a b.pdf", "a b (2).pdf", "Guide.pdf", "x" * 196 + ".pdf", "x" * 192 + " (2).pdf"
    ]  # fmt: skip
    assert lines == [
        "[1] a b.pdf (attached)",
        "[2] a b.pdf (attached: a b (2).pdf)",
        "[3] Admin guide (attached: Guide.pdf)",
        f"[4] {'x' * 196}.pdf (attached)",
        f"[5] {'x' * 196}.pdf (attached: {'x' * 192} (2).pdf)",
    ]
    assert all(email_file_name(name) == name for name in attached)
