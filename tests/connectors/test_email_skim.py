"""``email_skim``: setting long runs of body lines aside never changes what the stdlib parser
reads as structure (the same parts, headers and defects) nor the text bodies that are read."""

from __future__ import annotations

import email
import email.policy
from email.message import Message

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_bodies import bodies
from bot.connectors.email_skim import parse_skimmed, skim, skimmed

Shape = list[tuple[str, bool, list[tuple[str, str]], list[str], str | None]]


def shape(msg: Message) -> Shape:
    return [
        (
            part.get_content_type(),
            part.is_multipart(),
            [(key, str(value)) for key, value in part.items()],
            [type(defect).__name__ for defect in part.defects],
            part.get_unixfrom(),
        )
        for part in msg.walk()
    ]


def stdlib(raw: bytes) -> Message:
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def assert_read_alike(raw: bytes, min_run: int) -> None:
    mail = skim(raw, min_run)
    try:
        expected = stdlib(raw)
    except RecursionError:
        return
    got = parse_skimmed(mail, keep_bytes=2_000_001)
    assert shape(got) == shape(expected)
    assert bodies(got) == bodies(expected)


# Lines that are structure to the feedparser, or nearly so, and plain lines of every kind
_LINES = [
    b"--b1", b"--b1--", b"--b2", b"--b2--", b"--b1 \t", b"-- ", b"-x", b"", b" folded", b"\tfolded",
    b"From someone", b"From:x", b"Content-Type: multipart/mixed; boundary=b2",
    b"Content-Type: multipart/digest; boundary=b2", b"Content-Type: text/plain",
    b"Content-Type: text/html",
    b"Content-Type: application/pdf", b"Content-Type: message/rfc822",
    b"Content-Type: message/delivery-status", b"Content-Disposition: attachment",
    b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
    b"X: y", b":no name", b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=", b"plain words here",
    b"caf\xc3\xa9 \xe9", b"a\rb", b"a\r--b1", b"=E9t=C3=A9=", b"<p>Hello <b>there</b></p>",
    b"\x0cform feed", b"log 12:00:01 done", b"From",
]  # fmt: skip
_ENDINGS = [b"\r\n", b"\n", b"\r"]
_HEAD = (
    b"From: ann@example.com\r\nSubject: q\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: multipart/mixed; boundary=b1\r\n\r\n"
)


@given(
    st.lists(
        st.tuples(st.sampled_from(_LINES), st.sampled_from(_ENDINGS), st.integers(1, 4)),
        max_size=60,
    ),
    st.booleans(),
    st.integers(1, 40),
)
def test_skimming_keeps_the_structure_and_the_text_the_parser_reads(
    lines: list[tuple[bytes, bytes, int]], with_head: bool, min_run: int
) -> None:
    body = b"".join((line + ending) * repeat for line, ending, repeat in lines)
    assert_read_alike((_HEAD if with_head else b"") + body, min_run)


def test_a_blank_line_does_not_hide_the_structure_of_the_next() -> None:
    # the blank line's match took the line feed in front of " folded", which was set aside
    raw = _HEAD + b"--b1\rContent-Type: message/delivery-status\rQUJD\n\n folded\r\n"
    assert_read_alike(raw, 1)


def attachment_mail(text: bytes, size: int, *, eol: bytes = b"\r\n") -> bytes:
    """A question in text/plain and a base64 PDF of ``size`` bytes of lines, with ``eol``."""
    lines = [
        b"From: Ann <ann@example.com>", b"Subject: retries", b"Message-ID: <a@example.com>",
        b"MIME-Version: 1.0", b'Content-Type: multipart/mixed; boundary="==b=="', b"",
        b"preamble", b"--==b==", b"Content-Type: text/plain; charset=utf-8", b"", text,
        b"--==b==", b"Content-Type: application/pdf", b"Content-Transfer-Encoding: base64",
        b'Content-Disposition: attachment; filename="big.pdf"', b"",
    ]  # fmt: skip
    lines += [b"JVBERi0xLjcKJeLjz9MK" * 3 + b"QUJD"] * (size // 66)
    lines += [b"--==b==--", b"epilogue", b""]
    return eol.join(lines)


def test_every_attachment_line_is_set_aside_and_the_text_is_whole() -> None:
    raw = attachment_mail(b"How do I set retries?", 200_000)
    mail = skim(raw, 1024)
    assert len(mail.runs) == 1 and mail.runs[0][1] - mail.runs[0][0] > 195_000
    assert len(skimmed(mail)) < 1_000
    assert_read_alike(raw, 1024)
    assert_read_alike(attachment_mail(b"How do I set retries?", 200_000, eol=b"\n"), 1024)


def first_payload(msg: Message) -> str:
    part = msg.get_payload(0)
    assert isinstance(part, Message)
    payload = part.get_payload()
    assert isinstance(payload, str)
    return payload


def test_a_long_text_body_is_kept_as_far_as_it_is_read() -> None:
    # 3 MB of text lines in the question's part: its first 2 MB (and a line) are put back
    text = b"\r\n".join([b"How do I set retries", *[b"lorem ipsum dolor sit amet" * 3] * 40_000])
    raw = attachment_mail(text, 100_000)
    mail = skim(raw, 1024)
    got = parse_skimmed(mail, keep_bytes=2_000_001)
    expected = stdlib(raw)
    assert shape(got) == shape(expected)
    got_text, expected_text = (first_payload(msg) for msg in (got, expected))
    assert 2_000_001 <= len(got_text) < 2_001_000
    assert got_text == expected_text[: len(got_text)]
    assert len(skimmed(mail, {0}, 2_000_001)) < 2_002_000
