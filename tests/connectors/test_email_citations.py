"""Citations in real replies: the REAL registry, resolver and email renderer behind the
connector (ScriptedAnswerer), replies captured by an aiosmtpd server and parsed back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import cast

import aiosmtplib
import pytest

from bot.connectors.email import EmailConnector
from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.html_nesting import HtmlCheck, nested
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import BOT, USER, email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for


@pytest.fixture
def capture() -> Iterator[CaptureServer]:
    server = CaptureServer(CaptureHandler())
    server.start()
    yield server
    server.stop()


async def ask(
    tmp_path: Path,
    port: int,
    answerer: ScriptedAnswerer,
    *,
    sender: str = USER,
    signer: FileSigner | None = None,
    **email: object,
) -> EmailConnector:
    svc = services(tmp_path, answerer, email_settings(port, **email))
    svc.signer = signer
    connector = EmailConnector(svc)
    await connector.start()
    try:
        await aiosmtplib.send(
            inbound_mail(sender=sender), sender=sender, recipients=[BOT],
            hostname="127.0.0.1", port=connector.listen_port,
        )  # fmt: skip
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    return connector


def bodies(msg: EmailMessage) -> tuple[str, str]:
    alternative = msg if msg.get_content_type() == "multipart/alternative" else None
    if alternative is None:
        alternative = cast(EmailMessage, next(msg.iter_parts()))
    parts = [cast(EmailMessage, p) for p in alternative.iter_parts()]
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    return parts[0].get_content(), parts[1].get_content()


def checked(html: str) -> HtmlCheck:
    check = nested(html)
    assert len(html.encode("utf-8")) < 100_000
    return check


async def test_sixty_citations_in_a_long_answer_all_arrive_in_both_parts(
    tmp_path: Path, capture: CaptureServer
) -> None:
    sources = [
        Source(id=f"s{i}", title=f"Chapter {i} <b>&</b>", url=f"https://docs.example.org/c/{i}")
        for i in range(1, 61)
    ]
    sentences = [
        f"Point {i} is explained at some length so that the answer grows long [{i}]."
        + " More detail follows here to pad the paragraph out." * 1
        for i in range(1, 61)
    ]
    paragraphs = [" ".join(sentences[i : i + 5]) for i in range(0, 60, 5)]
    raw = "\n\n".join(paragraphs)
    raw += "\n\n" + "Closing words without citations. " * ((7000 - len(raw)) // 33 + 1)
    assert len(raw) >= 7000
    answerer = ScriptedAnswerer(sources, raw)
    await ask(tmp_path, capture.port, answerer)
    msg = capture.handler.mails[0].message()
    text, html = bodies(msg)
    check = checked(html)
    for i in range(1, 61):
        url = f"https://docs.example.org/c/{i}"
        assert f"[{i}]" in text and url in text
        assert f"[{i}]" in html and url in check.hrefs
    assert "<b>&</b>" not in html  # titles are escaped
    assert "Chapter 60" in text


async def test_forbidden_source_is_dropped_for_a_public_sender(
    tmp_path: Path, capture: CaptureServer
) -> None:
    public = Source(id="pub", title="Public guide", url="https://docs.example.org/guide")
    private = Source(
        id="private-id", title="Salary bands", url="https://intranet.example.com/salaries",
        audience=("staff",),
    )  # fmt: skip
    raw = "The guide covers it [1]. Salaries are confidential <CIT private-id />."
    answerer = ScriptedAnswerer([public, private], raw)
    await ask(tmp_path, capture.port, answerer, sender="x@outside.org")
    text, html = bodies(capture.handler.mails[0].message())
    for part in (text, html):
        assert "Salary bands" not in part and "intranet.example.com" not in part
        assert "CIT" not in part and "private-id" not in part
        assert "Public guide" in part
    assert answerer.calls[0][1] == frozenset({"public"})


async def test_staff_domain_sees_the_private_source(tmp_path: Path, capture: CaptureServer) -> None:
    private = Source(
        id="private-id", title="Salary bands", url="https://intranet.example.com/salaries",
        audience=("staff",),
    )  # fmt: skip
    answerer = ScriptedAnswerer([private], "Bands are reviewed yearly <CIT private-id />.")
    await ask(
        tmp_path, capture.port, answerer, sender="boss@example.com",
        audience_by_domain={"example.com": ["public", "staff"]},
    )  # fmt: skip
    text, html = bodies(capture.handler.mails[0].message())
    assert "https://intranet.example.com/salaries" in text
    assert 'href="https://intranet.example.com/salaries"' in html
    assert re.search(r"reviewed yearly[ \xa0]?\[1\]", text)


async def test_cited_files_are_attached_byte_identical(
    tmp_path: Path, capture: CaptureServer
) -> None:
    data = bytes(range(256)) * 300
    path = tmp_path / "runbook.pdf"
    path.write_bytes(data)
    csv = tmp_path / "prices.csv"
    csv.write_bytes(b"plan,price\r\npro,10\r\n")
    sources = [
        Source(id="rb", title="Runbook", path=str(path), filename="runbook.pdf",
               media_type="application/pdf", kind="file", page=2),
        Source(id="pr", title="Prices", path=str(csv), filename="prices.csv",
               media_type="text/csv", kind="file"),
    ]  # fmt: skip
    answerer = ScriptedAnswerer(sources, "Failover is on page two [1]. Pro costs 10 [2].")
    await ask(tmp_path, capture.port, answerer)
    msg = capture.handler.mails[0].message()
    assert msg.get_content_type() == "multipart/mixed"
    attachments = {a.get_filename(): a for a in msg.iter_attachments()}
    assert set(attachments) == {"runbook.pdf", "prices.csv"}
    assert attachments["runbook.pdf"].get_payload(decode=True) == data
    assert attachments["prices.csv"].get_payload(decode=True) == b"plan,price\r\npro,10\r\n"
    text, html = bodies(msg)
    for part in (text, html):
        assert "runbook.pdf" in part and "[1]" in part and "[2]" in part


async def test_signed_link_when_the_capability_limit_is_lower(
    tmp_path: Path, capture: CaptureServer
) -> None:
    path = tmp_path / "huge.pdf"
    path.write_bytes(b"%PDF" + bytes(5000))
    source = Source(
        id="huge", title="Huge manual", path=str(path), filename="huge.pdf",
        media_type="application/pdf", kind="file",
    )  # fmt: skip
    signer = FileSigner(b"s" * 32, "https://bot.example.org", 3600, roots=[tmp_path])
    answerer = ScriptedAnswerer([source], "It is in the huge manual [1].")
    settings = email_settings(capture.port)
    settings = settings.model_copy(update={"capabilities": {"email": {"max_file_bytes": 1000}}})
    svc = services(tmp_path, answerer, settings)
    svc.signer = signer
    connector = EmailConnector(svc)
    await connector.start()
    try:
        await connector.handle_message(inbound_mail())
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    msg = capture.handler.mails[0].message()
    assert list(msg.iter_attachments()) == []
    text, html = bodies(msg)
    assert "https://bot.example.org/files/" in text
    assert 'href="https://bot.example.org/files/' in html


def pdf(tmp_path: Path, name: str, size: int) -> str:
    path = tmp_path / name
    path.write_bytes(b"%PDF" + bytes(size - 4))
    return str(path)


async def test_files_over_the_attachment_budget_get_a_signed_link(
    tmp_path: Path, capture: CaptureServer
) -> None:
    a, b, c = pdf(tmp_path, "a.pdf", 600), pdf(tmp_path, "b.pdf", 600), pdf(tmp_path, "c.pdf", 300)
    sources = [
        Source(id="a1", title="Guide A", path=a, filename="a.pdf", kind="file", page=1),
        Source(id="b", title="Guide B", path=b, filename="b.pdf", kind="file"),
        Source(id="a5", title="Guide A", path=a, filename="a.pdf", kind="file", page=5),
        Source(id="c", title="Guide C", path=c, filename="c.pdf", kind="file"),
    ]
    signer = FileSigner(b"s" * 32, "https://bot.example.org", 3600, roots=[tmp_path])
    raw = "Start with A [1]. B explains more [2]. A again [3]. C ends it [4]."
    # counted as base64 on the wire: 822 + 412 bytes fit 1300, a third file of 822 does not
    await ask(tmp_path, capture.port, ScriptedAnswerer(sources, raw), signer=signer,
              max_attachment_bytes=1300)  # fmt: skip
    msg = capture.handler.mails[0].message()
    # a.pdf counts once for its two passages, so c.pdf still fits after b.pdf did not.
    assert sorted(str(f.get_filename()) for f in msg.iter_attachments()) == ["a.pdf", "c.pdf"]
    text, html = bodies(msg)
    entries = text.split("Sources", 1)[1]
    for n, name in ((1, "a.pdf"), (3, "a.pdf"), (4, "c.pdf")):
        assert re.search(rf"\[{n}\] Guide \w \(attached: {name}\)", entries)
    assert "attached: b.pdf" not in text and "attached: b.pdf" not in html
    assert re.search(
        r"\[2\] Guide B \(download: b\.pdf\)\s+https://bot\.example\.org/files/", entries
    )
    assert html.count('href="https://bot.example.org/files/') >= 1


async def test_a_file_over_the_budget_without_a_signer_is_named_not_promised(
    tmp_path: Path, capture: CaptureServer
) -> None:
    huge = pdf(tmp_path, "huge.pdf", 5000)
    source = Source(id="h", title="Huge manual", path=huge, filename="huge.pdf", kind="file")
    answerer = ScriptedAnswerer([source], "It is in the huge manual [1].")
    await ask(tmp_path, capture.port, answerer, max_attachment_bytes=1000)
    msg = capture.handler.mails[0].message()
    assert list(msg.iter_attachments()) == []
    text, html = bodies(msg)
    for part in (text, html):
        assert "huge.pdf" in part and "attached" not in part and "/files/" not in part


def attached_notes(part: str) -> list[str]:
    """Every file name a reference says is attached ("(attached: name)"), in order."""
    return re.findall(r"\(attached: ([^)<]+)\)", part)


async def test_one_file_cited_under_two_names_is_named_as_attached_everywhere(
    tmp_path: Path, capture: CaptureServer
) -> None:
    manual = pdf(tmp_path, "manual.pdf", 700)
    other = pdf(tmp_path, "prices.pdf", 300)
    sources = [
        Source(id="install", title="Install guide", path=manual, filename="install.pdf",
               kind="file", page=2),
        Source(id="ops", title="Ops appendix", path=manual, filename="appendix.pdf",
               kind="file", page=9),
        Source(id="prices", title="Prices", path=other, filename="prices.pdf", kind="file"),
    ]  # fmt: skip
    raw = "Install it first [1]. Operate it as the appendix says [2]. Prices vary [3]."
    await ask(tmp_path, capture.port, ScriptedAnswerer(sources, raw))
    msg = capture.handler.mails[0].message()
    sent = sorted(str(a.get_filename()) for a in msg.iter_attachments())
    # the shared file travels once, so both of its references must name that one attachment
    assert len(sent) == 2 and "prices.pdf" in sent
    text, html = bodies(msg)
    for part in (text, html):
        notes = attached_notes(part)
        assert len(notes) == 3
        assert set(notes) == set(sent), part
