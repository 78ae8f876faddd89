"""What a reply says is attached is exactly what it carries, whatever the budget and the count.

``max_files`` (10) and ``max_attachment_bytes`` each leave files out; the files one left out
must not take the places the other freed (``email_files``), and a file the renderer called
attached that cannot travel after all is an ERROR (``email_compose``).
"""

from __future__ import annotations

import email
import email.policy
import logging
import re
from pathlib import Path

import pytest

from bot.connectors.email_compose import compose_reply
from bot.connectors.email_parse import parse_mail
from bot.models import Answer, Citation, Source
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


def cited_files(tmp: Path, count: int, size: int) -> Answer:
    """An answer citing ``count`` files of ``size`` bytes each, none with a public link."""
    citations = []
    sentences = []
    for n in range(1, count + 1):
        path = tmp / f"file{n}.pdf"
        path.write_bytes(bytes([n]) * size)
        source = Source(
            id=f"f{n}", title=f"File {n}", path=str(path), filename=path.name,
            media_type="application/pdf", kind="file",
        )  # fmt: skip
        citations.append(Citation(n, source, n))
        sentences.append(f"Fact number {n} is here[^{n}].")
    return Answer(text=" ".join(sentences), citations=tuple(citations))


def said_attached(text: str) -> list[str]:
    return sorted(set(re.findall(r"attached: ([^)<]+)\)", text)))


@pytest.mark.parametrize(("count", "budget"), [(12, 1_000_000), (11, 1_000_000), (12, 3_000_000)])
async def test_the_files_called_attached_are_the_files_attached(
    flow: EmailFlow, count: int, budget: int
) -> None:
    # 300 KB is about 411 KB on the wire: two fit 1 MB (seven fit 3 MB), and files 11 and 12,
    # left out for the count of 10, were called attached once 3-10 were left out for size
    answer = cited_files(flow.tmp_path, count, 300_000)
    async with flow.running(StaticAnswerer(answer), max_attachment_bytes=budget) as connector:
        await send(connector, inbound_mail(message_id="<many@example.com>"))
        await wait_for(lambda: len(flow.mails) == 1)
    msg = flow.mails[0].message()
    attached = sorted(str(part.get_filename()) for part in msg.iter_attachments())
    text = next(p for p in msg.walk() if p.get_content_type() == "text/plain").get_content()
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html").get_content()
    fit = budget // 411_000
    assert attached == sorted(f"file{n}.pdf" for n in range(1, fit + 1))
    assert said_attached(text) == attached
    assert said_attached(html) == attached


def compose_with(tmp_path: Path, entries: list[dict[str, str]], budget: int) -> list[str]:
    payload = {"subject": "Re: x", "text": "t", "html": "<p>t</p>", "attachments": entries}
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.2@docs.example.org>", max_attachment_bytes=budget,
    )  # fmt: skip
    msg = email.message_from_string(out.message, policy=email.policy.default)
    return [str(part.get_filename()) for part in msg.iter_attachments()]


def test_a_file_that_grew_past_the_budget_since_rendering_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    grown = tmp_path / "grown.pdf"
    grown.write_bytes(b"x" * 2000)
    entry = {"path": str(grown), "filename": "grown.pdf", "media_type": "application/pdf"}
    with caplog.at_level(logging.WARNING, logger="bot.connectors.email_compose"):
        assert compose_with(tmp_path, [entry], 1000) == []
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert "grown.pdf, though the reply says it is attached" in record.getMessage()
    assert "email.max_attachment_bytes (1000)" in record.getMessage()


def test_a_file_gone_since_rendering_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    entry = {"path": str(tmp_path / "gone.pdf"), "filename": "gone.pdf"}
    with caplog.at_level(logging.WARNING, logger="bot.connectors.email_compose"):
        assert compose_with(tmp_path, [entry], 10_000) == []
    (record,) = caplog.records
    assert record.levelno == logging.ERROR
    assert "gone.pdf, though the reply says it is attached" in record.getMessage()
