"""Mail at the size limit (``email.max_message_bytes``, 25 MB) reads as the same mail would
with small attachments, and parsing it holds less than twice its size (the stdlib parser held
six to eight times it: ~200 MB)."""

from __future__ import annotations

import base64
import tracemalloc

from bot.connectors.email_parse import InboundMail, parse_mail
from bot.connectors.email_skim import MIN_RUN
from tests.connectors.test_email_hostile_mail import nested_mime
from tests.connectors.test_email_skim import assert_read_alike
from tests.fakes.email_world import inbound_mail

LIMIT = 25 * 1024 * 1024
FILE = bytes(range(256)) * (LIMIT * 3 // 4 // 256)  # ~19 MB: 25 MB as base64 lines


def parsed_in_bounds(raw: bytes) -> InboundMail:
    """``parse_mail(raw)``, checking the memory it allocates stays under twice the mail's size
    (tracemalloc counts allocations: the same figure on every run)."""
    tracemalloc.start()
    try:
        mail = parse_mail(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(raw), f"{peak / len(raw):.1f} times the mail's size"
    return mail


def mime(*parts: bytes, ctype: bytes = b"multipart/mixed") -> bytes:
    head = (
        b"From: Ann <ann@example.com>\r\nTo: help@docs.example.org\r\nSubject: Retries\r\n"
        b"Message-ID: <big@example.com>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: %s; boundary="=b="\r\n\r\n' % ctype
    )
    return head + b"".join(b"--=b=\r\n" + part + b"\r\n" for part in parts) + b"--=b=--\r\n"


def attached(name: str, data: bytes) -> bytes:
    lines = [data[i : i + 57] for i in range(0, len(data), 57)]
    return (
        b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="%s"\r\n\r\n'
        % name.encode()
        + b"".join(base64.b64encode(line) + b"\r\n" for line in lines)
    )


TEXT = b"Content-Type: text/plain; charset=utf-8\r\n\r\nHow do I configure retries?\r\n\r\nAnn"
HTML = b"Content-Type: text/html\r\n\r\n<p>How do I configure <b>retries</b>?</p>"
INVITE = (
    b"Content-Type: text/calendar; method=REQUEST; charset=utf-8\r\n\r\n"
    b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR"
)


def test_one_large_attachment_reads_as_a_small_one_would() -> None:
    big = parsed_in_bounds(inbound_mail("How do I set retries?", attachment=FILE))
    assert big == parse_mail(inbound_mail("How do I set retries?", attachment=b"%PDF"))
    assert big.question == "How do I set retries?" and big.files


def test_several_attachments_and_html_read_as_small_ones_would() -> None:
    files = [attached(f"f{i}.bin", FILE[: len(FILE) // 8]) for i in range(8)]
    alternative = mime(TEXT, HTML, ctype=b"multipart/alternative").split(b"\r\n", 5)[5]
    raw = mime(b"Content-Type: multipart/alternative; " + alternative, *files)
    assert len(raw) > 20_000_000
    small = mime(b"Content-Type: multipart/alternative; " + alternative, attached("f", b"x"))
    assert parsed_in_bounds(raw) == parse_mail(small)


def test_a_calendar_invitation_or_a_report_is_known_behind_a_large_attachment() -> None:
    big = attached("agenda.pdf", FILE)
    assert parsed_in_bounds(mime(TEXT, big, INVITE)).calendar
    assert parsed_in_bounds(mime(TEXT, big, ctype=b"multipart/report")).report


def test_a_huge_text_body_is_read_as_far_as_it_ever_was() -> None:
    # only the first 2 MB of a text part were ever read: the same mail cut there reads alike
    line = b"lorem ipsum dolor sit amet, consectetur adipiscing elit sed do eiusmod\r\n"
    lines = LIMIT // len(line)
    head = b"How do I configure retries?\r\n\r\n"

    def mail(count: int) -> bytes:
        return mime(b"Content-Type: text/plain\r\n\r\n" + head + line * count, HTML)

    huge = parsed_in_bounds(mail(lines))
    assert huge == parse_mail(mail(2_000_000 // len(line) + 2))
    assert huge.question.startswith("How do I configure retries?\n\nlorem ipsum")


def test_hostile_mime_around_a_large_attachment_still_reads() -> None:
    # nested past the parser's recursion limit: headers only, as for a small one (not under
    # tracemalloc, which takes half a minute over the parser's thousands of frames)
    filler = (b"QUJD" * 19 + b"\r\n") * 200_000
    deep = nested_mime(5000).replace(b"hello?\r\n", b"hello?\r\n" + filler, 1)
    assert parse_mail(deep) == parse_mail(nested_mime(5000))
    file = attached("a.bin", FILE[:2_000_000])
    no_close = mime(TEXT, file).rsplit(b"--=b=--", 1)[0]
    no_boundary = mime(TEXT, file).replace(b'; boundary="=b="', b"", 1)
    for raw in (no_close, no_boundary):
        parsed_in_bounds(raw)
        assert_read_alike(raw, MIN_RUN)
    # inside the file: a bare CR that makes the rest of it a text part of its own (the first,
    # so read as text: its first 2 MB), an envelope "From ", a header-like line, a blank line
    lines = file.split(b"\r\n")
    lines[1000] += b"\r--=b="
    lines[20_000] += b"\r\nFrom here\r\nX-Not: a header\r\n"
    lines[30_000] += b"\r\n"
    assert_read_alike(mime(b"\r\n".join(lines), TEXT), MIN_RUN)
    assert_read_alike(mime(TEXT, b"\r\n".join(lines)), MIN_RUN)
