"""Builders for email connector tests: settings, Services over a real Store, inbound mails."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

from bot.assistant.base import Answerer
from bot.config import Settings
from bot.config_file import parse_settings
from bot.runtime import Services
from bot.store import Store

BOT = "help@docs.example.org"
USER = "ann@example.com"


def email_settings(outbound_port: int, **email: Any) -> Settings:
    """Settings with email enabled: inbound SMTP on an ephemeral port, tiny backoffs."""
    section: dict[str, Any] = {
        "enabled": True,
        "address": BOT,
        "listen_port": 0,
        "outbound": {"host": "127.0.0.1", "port": outbound_port, "timeout": 5},
        "retry_initial_seconds": 0.02,
        "retry_max_seconds": 0.1,
        "outbox_poll_seconds": 0.05,
    }
    for key, value in email.items():
        if isinstance(value, dict) and isinstance(section.get(key), dict):
            section[key] = {**section[key], **value}
        else:
            section[key] = value
    return parse_settings({"email": section})


def services(tmp_path: Path, answerer: Answerer, settings: Settings) -> Services:
    """Services over a real SQLite store in ``tmp_path``."""
    return Services(settings=settings, store=Store(tmp_path / "store.db"), assistant=answerer)


def inbound_mail(
    body: str = "How do I install citecast on Linux?",
    *,
    subject: str = "Installing on Linux",
    sender: str = f"Ann Example <{USER}>",
    message_id: str | None = "<q1@example.com>",
    headers: dict[str, str] | None = None,
    html: str | None = None,
    attachment: bytes | None = None,
    to: str = BOT,
    cc: str | None = None,
) -> bytes:
    """An inbound mail as raw bytes (text, optionally HTML and one attachment); written ``to``
    the bot unless told otherwise, with a ``cc`` line when given."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = to
    if cc is not None:
        msg["Cc"] = cc
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    if attachment is not None:
        msg.add_attachment(
            attachment, maintype="application", subtype="octet-stream", filename="big.bin"
        )
    return msg.as_bytes()
