"""A reply's entry names an attached file as the reader's mail client shows it.

Clients show an attachment by its ``filename`` decoded: an RFC 2047 encoded word in it
(``=?utf-8?q?evil?=.pdf``) showed as ``evil.pdf`` while the reply listed the raw name, and a name
with a line break was listed twice, spelled two ways. Checked here over real SMTP and, for any
name, on the composed message as Python's email parser reads it.
"""

from __future__ import annotations

import email
import email.policy
import re
import tempfile
from email.message import EmailMessage
from pathlib import Path
from typing import cast

from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_compose import compose_reply
from bot.connectors.email_parse import parse_mail
from bot.models import Answer, Citation, Source
from renderers import render
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
from tests.fakes.email_world import BOT, inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]

TRICKY = [
    "=?utf-8?q?",
    "=?UTF-8?B?",
    "?=",
    "<",
    ">",
    "\r\n",
    "\u2028",
    "\x85",
    "\u202e",
    '"',
    ";",
    "\\",
]
names = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(min_size=1, max_size=6)), min_size=1, max_size=10
).map("".join)


def entry_line(text: str, n: int) -> str:
    found = re.search(rf"^\[{n}\] .*$", text.replace("\r\n", "\n"), re.M)
    assert found, text
    return found.group(0)


def answer_citing(path: Path, *named: tuple[str, str | None]) -> Answer:
    """An answer citing one file (``path``) per ``(filename, title)``, each its own source."""
    citations = tuple(
        Citation(n, Source(
            id=f"f{n}", title=title, path=str(path.with_name(f"{n}.pdf")), filename=filename,
            media_type="application/pdf", kind="file",
        ), n)
        for n, (filename, title) in enumerate(named, 1)
    )  # fmt: skip
    for citation in citations:
        Path(str(citation.source.path)).write_bytes(b"%PDF-1.4 data")
    text = " ".join(f"See the file [^{n}]." for n in range(1, len(named) + 1))
    return Answer(text=text, citations=citations)


@given(first=names, second=names, title=st.sampled_from([None, "Price list"]))
def test_every_attachment_arrives_under_the_name_its_entry_gives(
    first: str, second: str, title: str | None
) -> None:
    with tempfile.TemporaryDirectory(prefix="h-emailfix-") as folder:
        answer = answer_citing(Path(folder) / "x", (first, title), (second, None))
        out = compose_reply(
            render("email", answer), parse_mail(inbound_mail()), from_address=BOT,
            from_name="Docs", message_id="<cc-ab.1@docs.example.org>",
            max_attachment_bytes=10_000_000,
        )  # fmt: skip
    msg = email.message_from_string(out.message, policy=email.policy.default)
    text = cast(EmailMessage, msg.get_body(("plain",))).get_content()
    shown = [part.get_filename() for part in msg.iter_attachments()]
    assert len(shown) == 2 and shown[0] != shown[1]
    for n, name in enumerate(shown, 1):
        assert name is not None
        line = entry_line(text, n)
        # named once when its title is its name, else beside its title, under the name it
        # arrives by
        if not line.endswith(f" (attached: {name})"):
            assert line == f"[{n}] {name} (attached)"
        elif title is not None and n == 1:
            assert line == f"[1] {title} (attached: {name})"


async def test_hostile_names_over_smtp_are_listed_as_they_arrive(flow: EmailFlow) -> None:
    answer = answer_citing(
        flow.tmp_path / "x",
        ("=?utf-8?q?evil?=.pdf", None),
        ("report\r\nBcc: evil@attacker.example.pdf", None),
        ("=?utf-8?b?aW52b2ljZQ==?=.pdf", "Invoice"),
    )
    async with flow.running(StaticAnswerer(answer)) as connector:
        await send(connector, inbound_mail())
        await wait_for(lambda: len(flow.mails) == 1)
    reply = flow.mails[0].message()
    assert reply["Bcc"] is None
    shown = [part.get_filename() for part in reply.iter_attachments()]
    assert shown == [
        "=_utf-8?q?evil?=.pdf",
        "report Bcc: evil@attacker.example.pdf",
        "=_utf-8?b?aW52b2ljZQ==_=.pdf",  # "==?=" holds a "=?" too
    ]
    text = cast(EmailMessage, reply.get_body(("plain",))).get_content()
    assert entry_line(text, 1) == "[1] =_utf-8?q?evil?=.pdf (attached)"
    assert entry_line(text, 2) == "[2] report Bcc: evil@attacker.example.pdf (attached)"
    assert entry_line(text, 3) == "[3] Invoice (attached: =_utf-8?b?aW52b2ljZQ==_=.pdf)"
