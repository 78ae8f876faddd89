"""``email.max_attachment_bytes`` counts attachments as they travel (base64), as a relay does."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

from bot.connectors.email_compose import compose_reply
from bot.connectors.email_parse import parse_mail
from tests.fakes.email_world import BOT, inbound_mail


def reply(tmp_path: Path, sizes: dict[str, int], budget: int) -> tuple[list[str], int]:
    """The names of the files the reply attaches, and the reply's size in bytes."""
    entries = []
    for name, size in sizes.items():
        path = tmp_path / name
        path.write_bytes(b"%PDF" + b"x" * (size - 4))
        entries.append({"path": str(path), "filename": name, "media_type": "application/pdf"})
    payload = {"subject": "Re: x", "text": "t", "html": "<p>t</p>", "attachments": entries}
    out = compose_reply(
        payload, parse_mail(inbound_mail()), from_address=BOT, from_name="citecast",
        message_id="<cc-1.2@docs.example.org>", max_attachment_bytes=budget,
    )  # fmt: skip
    msg = email.message_from_string(out.message, policy=email.policy.default)
    names = [str(part.get_filename()) for part in msg.iter_attachments()]
    return names, len(out.message.encode())


def reply_attachments(tmp_path: Path, sizes: dict[str, int], budget: int) -> list[str]:
    return reply(tmp_path, sizes, budget)[0]


def test_a_file_whose_base64_is_over_the_budget_is_not_attached(tmp_path: Path) -> None:
    # 900 bytes of file are 1,232 bytes of base64 lines: over a 1,000-byte budget
    assert reply_attachments(tmp_path, {"big.pdf": 900}, 1000) == []
    # 700 bytes are 958 on the wire: within it
    assert reply_attachments(tmp_path, {"ok.pdf": 700}, 1000) == ["ok.pdf"]


def test_a_default_budget_reply_fits_postfixs_default_message_size_limit(tmp_path: Path) -> None:
    # 10 MB of files (the default budget) were 13.7 MB on the wire, over Postfix's default
    # message_size_limit of 10,240,000 bytes: every such reply was refused with 552 and dead
    names, size = reply(tmp_path, {"a.pdf": 5_000_000, "b.pdf": 5_000_000}, 10_000_000)
    assert names == ["a.pdf"] and size < 10_240_000
