"""The settings sections of the email channel: inbound SMTP or IMAP, outbound SMTP (``bot.config``).

``bot.connectors.email`` documents what the keys mean; ``bot.config.Settings`` gathers them with
the other channels' sections (``bot.config_channels``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from bot.config_section import Groups, Section


class ImapSettings(Section):
    """A mailbox polled over IMAP (``email.inbound: imap``); IDLE is used when offered.

    ``ssl`` is implicit TLS (port 993 by default); ``starttls`` upgrades a plain connection
    before logging in, and then ``ssl`` defaults to false (``ssl: true`` written beside it is an
    error). A plain connection (``ssl: false``, upgraded or not) defaults to port 143. For
    either, ``ca_file`` trusts a private CA and ``validate_certs: false`` skips the certificate
    checks (tests only).
    """

    host: str = ""
    port: int = Field(default=993, ge=1, le=65535)
    ssl: bool = True
    starttls: bool = False
    username: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    poll_seconds: float = Field(default=30.0, gt=0)
    idle: bool = True
    timeout: float = Field(default=30.0, gt=0)
    validate_certs: bool = True
    ca_file: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _plain_defaults(cls, data: Any) -> Any:
        # `starttls: true` alone means a plain connection, upgraded; and a plain connection goes
        # to IMAP's plain port: the defaults (ssl, 993) are for implicit TLS, and would make it
        # an error, or a plain session with a TLS port that never answers
        if not isinstance(data, dict):
            return data
        if data.get("starttls") in (True, "true", "True", "yes"):
            data = {"ssl": False, **data}
        if data.get("ssl") in (False, "false", "False", "no"):
            data = {"port": 143, **data}
        return data

    @field_validator("starttls")
    @classmethod
    def _one_kind_of_tls(cls, starttls: bool, info: Any) -> bool:
        # ssl is declared first, so info.data holds it (unless it was invalid itself)
        if starttls and info.data.get("ssl"):
            raise ValueError(
                "cannot be combined with ssl: true (implicit TLS); leave ssl out or set it "
                "to false to upgrade a plain connection (usually port 143) with STARTTLS"
            )
        return starttls


class SmtpOutSettings(Section):
    """The SMTP server replies are sent through (aiosmtplib).

    ``tls`` is implicit TLS (usually port 465); ``starttls`` upgrades a plain connection
    (usually port 587). ``ca_file`` trusts a private CA; ``validate_certs: false`` is for tests.
    """

    host: str = "127.0.0.1"
    port: int = Field(default=25, ge=1, le=65535)
    starttls: bool = False
    tls: bool = False
    username: str = ""
    password: str = ""
    timeout: float = Field(default=30.0, gt=0)
    validate_certs: bool = True
    ca_file: str | None = None


class EmailSettings(Section):
    """Inbound mail (SMTP listener or IMAP) to threaded, cited replies.

    ``address`` is the bot's own address (From of replies; mail from it is never answered).
    Audience: ``audience_by_address`` wins over ``audience_by_domain``, else
    ``default_audience``. The outbox retries a refused reply after ``retry_initial_seconds``,
    doubling up to ``retry_max_seconds``, and gives up after ``max_attempts``.
    """

    enabled: bool = False
    address: str = ""
    display_name: str = "citecast"
    inbound: Literal["smtp", "imap"] = "smtp"
    listen_host: str = "127.0.0.1"
    listen_port: int = Field(default=8025, ge=0, le=65535)
    accept_any_recipient: bool = False
    imap: ImapSettings = Field(default_factory=ImapSettings)
    outbound: SmtpOutSettings = Field(default_factory=SmtpOutSettings)
    allowed_domains: list[str] = Field(default_factory=list)
    rate_limit_per_hour: int = Field(default=20, ge=1)
    default_audience: Groups = Field(default_factory=lambda: ["public"])
    audience_by_domain: dict[str, Groups] = Field(default_factory=dict)
    audience_by_address: dict[str, Groups] = Field(default_factory=dict)
    max_attachment_bytes: int = Field(default=10_000_000, ge=0)
    # earlier exchanges of the thread given to the assistant (as web.history_turns)
    history_turns: int = Field(default=10, ge=0, le=50)
    max_message_bytes: int = Field(default=30_000_000, ge=1024)
    answer_timeout_seconds: float = Field(default=300.0, gt=0)
    retry_initial_seconds: float = Field(default=30.0, gt=0)
    retry_max_seconds: float = Field(default=3600.0, gt=0)
    max_attempts: int = Field(default=20, ge=1)
    outbox_poll_seconds: float = Field(default=5.0, gt=0)
    # how long a signed /files/ link in a reply works (days; 0: web.file_token_ttl, as on the
    # web): mail is read days later and kept for years, and every download re-checks who may
    # read the file (bot.connectors.link_lifetime)
    file_link_ttl_days: int = Field(default=365, ge=0, le=3650)

    @field_validator("allowed_domains")
    @classmethod
    def _allowed_domains_can_match(cls, domains: list[str]) -> list[str]:
        for domain in domains:
            _check_domain(domain, "which allows every address there")
        return domains

    @field_validator("audience_by_domain")
    @classmethod
    def _audience_domains_can_match(cls, groups: dict[str, Groups]) -> dict[str, Groups]:
        for domain in groups:
            _check_domain(domain, "an address goes under email.audience_by_address")
        return groups


def _check_domain(entry: str, address_hint: str) -> None:
    """Refuse a domain entry no sender's address can ever match: it would start silently and
    then allow no one, or give no one its audience."""
    domain = entry.strip().lower().lstrip(".")  # a leading dot is read as meant: ".example.com"
    local, at, after = domain.rpartition("@")
    if at and local:
        raise ValueError(
            f"{entry!r} is an address, not a domain; write its domain, {after!r} ({address_hint})"
        )
    if at:
        raise ValueError(f"{entry!r} is not a domain; write it without the '@': {after!r}")
    if not domain:
        raise ValueError(f"{entry!r} is no domain and matches no sender; remove it")
    if domain.endswith("."):
        raise ValueError(
            f"{entry!r} ends in a dot, which no sender's address does; write {domain.rstrip('.')!r}"
        )
    if "*" in domain or any(char.isspace() for char in domain):
        suggestion = domain.replace("*", "").strip(". ")
        raise ValueError(
            f"{entry!r} is not a domain; subdomains of a listed domain are included, so write "
            f"{suggestion!r}"
        )
