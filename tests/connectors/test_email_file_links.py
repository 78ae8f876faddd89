"""Email: a cited file that does not fit the attachment budget gets a ``/files/`` link that still
works when the mail is read days later (``email.file_link_ttl_days``), and stops working at once
when the file is made private, however long it was signed for.

Links are signed by a real FileSigner on a fixed clock and checked the way ``GET /files/``
checks them (``file_response`` over the real index), a reply is sent through the real connector
to the loopback capture server.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.connectors.link_lifetime import services_with_link_days
from bot.connectors.web_files import file_response
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.knowledge import ingest
from bot.models import Source
from tests.connectors.email_flow_harness import capture
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import kb_with_roadmap
from tests.connectors.web.test_web_share_made_private import make_gone
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]

NOW = 1_800_000_000
DAY = 86_400
SECRET = b"a-file-link-secret-for-email-tests"
LINK = re.compile(r"https://citecast\.example/files/([^\s\"<>#?]+)")


def signer_at(root: Path, now: int, ttl: int = 3600) -> FileSigner:
    return FileSigner(SECRET, "https://citecast.example", ttl, [root], clock=lambda: now)


def roadmap(kb: Path) -> Source:
    return Source(id="roadmap", title="Roadmap", path=str(kb / "roadmap.md"),
                  filename="roadmap.md", media_type="text/markdown", kind="file")  # fmt: skip


async def mailed_token(
    tmp_path: Path, capture: CaptureServer, kb: Path, **email: object
) -> tuple[str, EmailConnector]:
    """Ask by mail; the reply's one ``/files/`` token (the file is over the attachment budget)."""
    settings = email_settings(capture.port, max_attachment_bytes=0, **email)
    settings = settings.model_copy(update={"index": make_settings(tmp_path).index})
    answerer = ScriptedAnswerer([roadmap(kb)], "The depot opens in June [1].")
    svc = services(tmp_path, answerer, settings)
    svc.signer = signer_at(kb, NOW)
    connector = EmailConnector(svc)
    await connector.start()
    try:
        assert (await connector.handle_message(inbound_mail())).status == "answered"
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    text = capture.handler.mails[0].message().get_body(("plain",))
    assert text is not None
    tokens = set(LINK.findall(str(text.get_content())))
    assert len(tokens) == 1, text
    return tokens.pop(), connector


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    folder = kb_with_roadmap(tmp_path)
    ingest([folder], make_settings(tmp_path).index)
    return folder


async def test_a_mailed_file_link_lasts_a_year_and_dies_when_the_file_is_made_private(
    tmp_path: Path, capture: CaptureServer, kb: Path
) -> None:
    token, connector = await mailed_token(tmp_path, capture, kb)
    # read 300 days later: still a valid link, for the audience it was mailed to
    later = signer_at(kb, NOW + 300 * DAY)
    grant = later.verify(token)
    assert grant.expires_at == NOW + 365 * DAY
    assert grant.audience == frozenset({"public"})
    files = IndexedFiles(make_settings(tmp_path).index.path)
    assert file_response(later, token, files=files, download=True).status_code == 200
    # the web's own signer keeps its hour
    assert connector.services.signer.ttl == 3600

    make_gone(kb, tmp_path, "front matter")
    assert file_response(later, token, files=files, download=True).status_code == 404


async def test_the_mail_link_lifetime_is_configurable(
    tmp_path: Path, capture: CaptureServer, kb: Path
) -> None:
    token, _ = await mailed_token(tmp_path, capture, kb, file_link_ttl_days=30)
    assert signer_at(kb, NOW).verify(token).expires_at == NOW + 30 * DAY


async def test_zero_days_keeps_the_webs_lifetime(
    tmp_path: Path, capture: CaptureServer, kb: Path
) -> None:
    token, _ = await mailed_token(tmp_path, capture, kb, file_link_ttl_days=0)
    assert signer_at(kb, NOW).verify(token).expires_at == NOW + 3600


def test_a_stand_in_signer_or_none_is_left_as_it_is(tmp_path: Path) -> None:
    svc = services(tmp_path, ScriptedAnswerer([], "x"), email_settings(25))
    assert services_with_link_days(svc, 30) is svc  # no signer
    svc.signer = object()
    assert services_with_link_days(svc, 30) is svc
    real = signer_at(tmp_path, NOW)
    svc.signer = real
    assert services_with_link_days(svc, 0) is svc
    twin = services_with_link_days(svc, 2)
    assert twin.signer is not real and twin.signer.ttl == 2 * DAY and real.ttl == 3600
    assert twin.store is svc.store
