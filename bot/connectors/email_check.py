"""The email settings checked when citecast starts: a mail that could not be received or
answered stops ``citecast serve`` at once, naming the key (``bot.connectors.email``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.config_env import empty_setting, env_source
from bot.connectors.email_imap_tls import tls_context
from bot.connectors.email_parse import is_valid_address
from bot.connectors.email_smtp_in import bind_listener
from bot.errors import ConfigError

if TYPE_CHECKING:
    from bot.config import EmailSettings


def check_settings(settings: EmailSettings) -> None:
    """Fail at start, naming the key, when mail could not be received or answered.

    The SMTP listener's port is tried too (bound, then released at once), so a port in use
    stops ``citecast serve`` before it starts rather than inside the app's start-up.
    """
    if not settings.address.strip():
        # as the other channels word a required key (an unset ${VAR} is named as such)
        raise empty_setting(
            "email.address",
            settings,
            " (the bot's own address, such as help@docs.example.com)",
            problem="required when email is enabled",
        )
    if not is_valid_address(settings.address.strip().lower()):
        # a value from ${NAME} is not quoted: it may be a secret put in the wrong variable
        source = env_source(settings, "address")
        shown = f"the value of {source}" if source else repr(settings.address)
        raise ConfigError(f"email.address: not a valid address: {shown}")
    if settings.inbound == "imap":
        imap = settings.imap
        # every IMAP session logs in: a blank value (an unset ${IMAP_PASSWORD}) would fail
        # each login and be retried forever, so it stops the start instead
        for key, value in (("host", imap.host), ("username", imap.username)):
            if not value.strip():
                raise ConfigError(f"email.imap.{key}: required when email.inbound is imap")
        if not imap.password:
            raise empty_setting(
                "email.imap.password",
                imap,
                " (an unset environment variable?)",
                then="; the mailbox cannot be logged in to",
            )
        tls_context(imap)  # a ca_file that cannot be loaded stops the start, naming the key
    outbound = settings.outbound
    if outbound.username.strip() and not outbound.password:
        raise empty_setting(
            "email.outbound.password",
            outbound,
            " (an unset environment variable?)",
            problem="empty while email.outbound.username is set",
            then="; every reply would be refused",
        )
    if settings.inbound == "smtp" and settings.listen_port:
        bind_listener(settings.listen_host, settings.listen_port).close()
