"""The reply MIME message: structure, threading headers, attachments, subject rules."""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage
from pathlib import Path
from random import Random
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_compose import (
    compose_reply,
    new_message_id,
    references_for,
    reply_subject,
    thread_key_of,
)
from bot.connectors.email_parse import parse_mail
from bot.models import Answer, Citation, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from renderers import render
from renderers.base import RenderContext
from tests.fakes.email_world import BOT, USER, inbound_mail


def parsed(text: str) -> EmailMessage:
    return email.message_from_string(text, policy=email.policy.default)


def parts(msg: EmailMessage) -> list[EmailMessage]:
    return [cast(EmailMessage, part) for part in msg.iter_parts()]


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Installing", "Re: Installing"),
        ("Re: Installing", "Re: Installing"),
        ("RE: Re: re:Installing", "Re: Installing"),
        ("AW: Re[2]: Installing", "Re: Installing"),
        ("", ""),
        ("  Re:  spaced   out ", "Re: spaced out"),
    ],
)
def test_reply_subject_never_doubles_the_prefix(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


@given(st.text(max_size=80))
def test_reply_subject_is_idempotent(subject: str) -> None:
    once = reply_subject(subject)
    assert reply_subject(once) == once
    assert once == "" or once.startswith("Re: ")
    assert not once[4:].lower().startswith("re:")


def test_message_id_carries_the_thread_key() -> None:
    message_id = new_message_id("ab12" * 6, "docs.example.org")
    assert thread_key_of(message_id) == "ab12" * 6
    assert thread_key_of("<something@else>") is None
    assert message_id != new_message_id("ab12" * 6, "docs.example.org")


def test_references_keep_the_root_and_trim_the_middle() -> None:
    refs = " ".join(f"<r{i}@x>" for i in range(40))
    mail = parse_mail(inbound_mail(message_id="<new@x>", headers={"References": refs}))
    out = references_for(mail)
    assert len(out) == 20
    assert out[0] == "<r0@x>" and out[-1] == "<new@x>" and out[-2] == "<r39@x>"


def answer_with_file(tmp_path: Path) -> tuple[Answer, bytes]:
    data = bytes(range(256)) * 40
    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(data)
    web = Source(id="s1", title="Install guide", url="https://docs.example.org/install")
    file = Source(
        id="s2", title="Admin manual", path=str(pdf), filename="manual.pdf",
        media_type="application/pdf", kind="file", page=3,
    )  # fmt: skip
    answer = Answer(
        text="Install it with pip[^1]. The admin manual covers upgrades[^2].",
        citations=(Citation(1, web, 1), Citation(2, file, 2)),
    )
    return answer, data


def test_reply_structure_threading_and_attachments(tmp_path: Path) -> None:
    answer, data = answer_with_file(tmp_path)
    payload = render("email", answer, RenderContext(subject="Re: Installing on Linux"))
    mail = parse_mail(
        inbound_mail(message_id="<q2@example.com>", headers={"References": "<q1@example.com>"})
    )
    out = compose_reply(
        payload, mail, from_address=BOT, from_name="Docs bot",
        message_id="<cc-abc.1@docs.example.org>", max_attachment_bytes=10_000_000,
    )  # fmt: skip
    assert out.recipients == (USER,) and out.sender == BOT
    assert out.message.isascii()
    msg = parsed(out.message)
    assert msg.get_content_type() == "multipart/mixed"
    alternative, attachment = parts(msg)
    assert alternative.get_content_type() == "multipart/alternative"
    kinds = [part.get_content_type() for part in parts(alternative)]
    assert kinds == ["text/plain", "text/html"]
    assert attachment.get_filename() == "manual.pdf"
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_payload(decode=True) == data
    assert msg["Subject"] == "Re: Installing on Linux"
    assert msg["In-Reply-To"] == "<q2@example.com>"
    assert msg["References"] == "<q1@example.com> <q2@example.com>"
    assert msg["Message-ID"] == "<cc-abc.1@docs.example.org>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["From"] == f"Docs bot <{BOT}>"
    assert msg["To"] == f"Ann Example <{USER}>"
    text, html = (part.get_content() for part in parts(alternative))
    assert "[1]" in text and "[2]" in text and "https://docs.example.org/install" in text
    assert 'href="https://docs.example.org/install"' in html


def test_no_attachment_means_plain_alternative(tmp_path: Path) -> None:
    payload = {"subject": "Re: x", "text": "Just text.\n", "html": "<p>Just text.</p>"}
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.2@docs.example.org>", max_attachment_bytes=0,
    )  # fmt: skip
    msg = parsed(out.message)
    assert msg.get_content_type() == "multipart/alternative"


def test_missing_oversized_and_hostile_attachments_are_skipped(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 2000)
    ok = tmp_path / "ok.txt"
    ok.write_bytes(b"line one\r\nline two\n")
    payload = {
        "subject": "Re: x",
        "text": "t",
        "html": "<p>t</p>",
        "attachments": [
            {"n": 1, "path": str(tmp_path / "missing.pdf"), "filename": "missing.pdf"},
            {"n": 2, "path": str(big), "filename": "big.bin", "media_type": None},
            {
                "n": 3,
                "path": str(ok),
                "filename": "../../etc/ok\r\n.txt",
                "media_type": "text/plain",
            },
        ],
        "headers": {"Bcc": "evil@example.com", "X-Citecast": "1\r\nBcc: evil@example.com"},
    }
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.2@docs.example.org>", max_attachment_bytes=1000,
    )  # fmt: skip
    msg = parsed(out.message)
    attachments = list(msg.iter_attachments())
    # the line break is a space, as in a title (the reference names it so too)
    assert [a.get_filename() for a in attachments] == ["ok .txt"]
    assert attachments[0].get_payload(decode=True) == b"line one\r\nline two\n"
    assert msg["Bcc"] is None
    assert msg["X-Citecast"] == "1 Bcc: evil@example.com"


_TITLE = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30
)


@given(titles=st.lists(_TITLE, min_size=1, max_size=25), order=st.randoms(use_true_random=False))
def test_every_citation_arrives_in_both_parts(titles: list[str], order: Random) -> None:
    sources = [
        Source(id=f"s{i}", title=title, url=f"https://docs.example.org/p/{i}")
        for i, title in enumerate(titles, start=1)
    ]
    numbers = list(range(1, len(sources) + 1))
    order.shuffle(numbers)
    raw = " ".join(f"Claim number {n} holds [{n}]." for n in numbers)
    registry = SourceRegistry(frozenset({"public"}))
    registry.register_all(sources)
    answer = resolve(raw, registry)
    payload = render("email", answer, RenderContext(subject="Re: q"))
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.2@docs.example.org>", max_attachment_bytes=0,
    )  # fmt: skip
    assert out.message.isascii()
    text, html = (p.get_content() for p in parts(parsed(out.message)))
    assert len(html.encode()) < 100_000
    assert len(answer.citations) == len(sources)
    for citation in answer.citations:
        url = citation.source.url
        assert url is not None
        assert f"[{citation.n}]" in text and url in text
        assert f"[{citation.n}]" in html and f'href="{url}"' in html


def test_a_non_ascii_subject_and_file_name_follow_the_mime_rules(tmp_path: Path) -> None:
    # the whole message was written at 998 columns, so an encoded subject word grew to 124
    # characters (RFC 2047 allows 75) and the file name had no Content-Type "name"
    subject = "Re: Frage zur Installation unter Linux – Größe der Datenbank, Übersetzungen 日本語"
    path = tmp_path / "Ünïcödé handbook.pdf"
    path.write_bytes(b"%PDF-1.4 x")
    attachment = {"path": str(path), "filename": path.name, "media_type": "application/pdf"}
    payload = {"subject": subject, "text": "Text.\n", "html": "<p>Text.</p>"}
    payload["attachments"] = [attachment]  # type: ignore[assignment]
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.3@docs.example.org>", max_attachment_bytes=10_000,
    )  # fmt: skip
    words = re.findall(r"=\?[^?]+\?[bqBQ]\?[^?]*\?=", out.message)
    assert words and all(len(word) <= 75 for word in words)
    assert all(len(line) <= 78 for line in out.message.splitlines())
    msg = parsed(out.message)
    assert msg["Subject"] == subject
    (_, sent) = parts(msg)
    assert sent.get_filename() == path.name
    assert sent.get_param("name") is not None
