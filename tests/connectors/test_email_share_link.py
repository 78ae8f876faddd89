"""A reply whose HTML part had to be shortened links the whole answer on the share page
(``/turns/{key}``) when the deployment has a web address, instead of pointing Gmail and Outlook
readers at a plain-text part they cannot open; an answer the share page would not show (written
for a private audience) keeps pointing at the plain-text part, and so does a deployment without
a web address. The link is followed through the real app (``build_app``) over the same store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from bot.connectors.app import build_app
from bot.connectors.email import EmailConnector
from bot.connectors.email_share import shareable_turn
from bot.connectors.web_viewer_links import IndexedFiles
from bot.filetokens import FileSigner
from bot.models import Answer, Citation, Source
from bot.runtime import Services
from tests.connectors.email_flow_harness import StaticAnswerer, capture, sole_parts
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]

BASE = "https://help.example.org"
WHOLE = re.compile(rf'<a href="({re.escape(BASE)}/turns/[^"#]+)"[^>]*>read the whole answer</a>')
PLAIN = "the plain-text version of this email has all of it"


def long_answer(audience: tuple[str, ...] = ("public",)) -> Answer:
    guide = Source(
        id="guide", title="Install guide", url="https://docs.example.org/install", audience=audience
    )
    paragraphs = [f"Step {n}: " + "run the installer and check the log. " * 8 for n in range(60)]
    text = "\n\n".join(p.strip() + "[^1]" for p in paragraphs)
    return Answer(text=text, citations=(Citation(1, guide, 1),))


def world(tmp_path: Path, port: int, answer: Answer, web: dict[str, Any], **email: Any) -> Services:
    settings = email_settings(port, **email)
    settings = settings.model_copy(
        update={
            "web": settings.web.model_copy(update=web),
            "store": settings.store.model_copy(update={"path": str(tmp_path / "store.db")}),
            "capabilities": {**settings.capabilities, "email": {"max_chars": 6000}},
        }
    )
    svc = services(tmp_path, StaticAnswerer(answer), settings)
    if web.get("public_base_url"):
        svc.signer = FileSigner(b"s" * 32, BASE, 3600, [tmp_path])
    return svc


async def html_reply(svc: Services, capture: CaptureServer) -> str:
    connector = EmailConnector(svc)
    await connector.start()
    try:
        assert (await connector.handle_message(inbound_mail())).status == "answered"
        await wait_for(lambda: len(capture.handler.mails) == 1)
    finally:
        await connector.stop()
    message = capture.handler.mails[0].message()
    alternative = next(
        p for p in [message, *sole_parts(message)] if p.get_content_subtype() == "alternative"
    )
    html = str(sole_parts(alternative)[1].get_content())
    assert "This answer was shortened to fit in an email" in html
    return html


async def test_a_shortened_reply_links_the_whole_answer_on_the_share_page(
    tmp_path: Path, capture: CaptureServer
) -> None:
    svc = world(tmp_path, capture.port, long_answer(), {"public_base_url": BASE})
    app = build_app(svc, connectors=[], shutdown_grace=0.1)  # binds the signer to the store
    html = await html_reply(svc, capture)
    assert PLAIN not in html
    [link] = WHOLE.findall(html)
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://citecast.test"
    )
    async with client:
        page = await client.get(link.removeprefix(BASE), headers={"accept": "text/html"})
    assert page.status_code == 200
    assert "Step 59: run the installer" in page.text  # the end the email's HTML left out


async def test_an_answer_for_a_private_audience_gets_no_share_link(
    tmp_path: Path, capture: CaptureServer
) -> None:
    svc = world(
        tmp_path, capture.port, long_answer(("staff",)), {"public_base_url": BASE},
        default_audience=["staff"],
    )  # fmt: skip
    build_app(svc, connectors=[], shutdown_grace=0.1)
    html = await html_reply(svc, capture)
    assert PLAIN in html and "/turns/" not in html


async def test_without_a_web_address_the_plain_text_part_is_named(
    tmp_path: Path, capture: CaptureServer
) -> None:
    svc = world(tmp_path, capture.port, long_answer(), {})
    html = await html_reply(svc, capture)
    assert PLAIN in html and "/turns/" not in html


def test_a_thread_with_a_private_answer_long_before_gets_no_share_link(tmp_path: Path) -> None:
    """The share page hides an answer after one it may not show, however far back (each answer
    was written with the ones before it as history); the reply's link follows the same rule,
    not only the thread's last 200 turns, or it would lead to "not found"."""
    svc = world(tmp_path, 25, long_answer(), {"public_base_url": BASE})
    store, thread = svc.store, "email:<root@example.com>"
    staff = long_answer(("staff",)).to_json()  # stored while the thread's sender was staff
    store.add_turn(thread, "email", "first?", staff, {"sources": []})
    ids = [
        store.add_turn(thread, "email", f"q{n}?", long_answer().to_json(), {"sources": []})
        for n in range(205)
    ]
    files = IndexedFiles.of(svc.settings.index)
    assert shareable_turn(svc, ids[-1], files) is None
    # a thread without it is linked
    other = "email:<other@example.com>"
    clean = store.add_turn(other, "email", "q?", long_answer().to_json(), {"sources": []})
    assert shareable_turn(svc, clean, files) == clean
