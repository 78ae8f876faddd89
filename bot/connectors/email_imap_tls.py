"""TLS for the IMAP session: implicit TLS (``imap.ssl``) or a STARTTLS upgrade (``imap.starttls``).

Both verify the server's certificate against the system's CAs, or ``imap.ca_file`` when set;
``imap.validate_certs: false`` skips the checks (tests only). With ``starttls`` the plain
connection is upgraded before any credentials are sent, and a server that does not offer
``STARTTLS`` gets no login at all: a ``ConfigError`` naming ``email.imap.starttls``, since
logging in anyway would send the password in the clear. A session with neither logs one
warning (once per poller) that the password travels unencrypted.

A certificate that does not verify is an :class:`UntrustedCertificate`: an ordinary session
failure, retried, while the poller runs (a renewed certificate, an interception proxy on the
way), but at start :meth:`UntrustedCertificate.setting_error` makes it one line naming
``email.imap.ca_file`` that stops the start, as a refused password does.
"""

from __future__ import annotations

import imaplib
import logging
import ssl

from bot.config import ImapSettings
from bot.errors import ConfigError

log = logging.getLogger(__name__)


def tls_context(settings: ImapSettings) -> ssl.SSLContext:
    """The client context for implicit TLS and STARTTLS.

    Raises ``ConfigError`` naming ``email.imap.ca_file`` when that file cannot be loaded, so a
    wrong path stops the start rather than failing every reconnect.
    """
    try:
        context = ssl.create_default_context(cafile=settings.ca_file)
    except (OSError, ssl.SSLError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(
            f"email.imap.ca_file: cannot load {settings.ca_file!r} as PEM certificates: {reason}"
        ) from None
    if not settings.validate_certs:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def open_session(settings: ImapSettings, context: ssl.SSLContext) -> imaplib.IMAP4:
    """Connect as configured: implicit TLS, or plain (then upgraded with :func:`secure`)."""
    try:
        if settings.ssl:
            return imaplib.IMAP4_SSL(
                settings.host, settings.port, ssl_context=context, timeout=settings.timeout
            )
        return imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
    except ssl.SSLCertVerificationError as exc:
        raise untrusted(settings, exc) from None


def secure(imap: imaplib.IMAP4, settings: ImapSettings, context: ssl.SSLContext) -> bool:
    """Upgrade a plain session with STARTTLS when ``starttls`` is set; call before logging in.

    Returns true when the session still runs in the clear (neither ``ssl`` nor ``starttls``).
    Raises ``ConfigError`` naming ``email.imap.starttls`` when the server does not offer
    STARTTLS, :class:`UntrustedCertificate` when its certificate does not verify, and
    ``imaplib.IMAP4.error`` when it does not accept STARTTLS now; each in one line.
    """
    if settings.ssl:
        return False
    if not settings.starttls:
        return True
    if "STARTTLS" not in imap.capabilities:
        raise ConfigError(
            "email.imap.starttls: the IMAP server does not offer STARTTLS (not in its"
            " CAPABILITY); not logging in, which would send the password in the clear; use"
            " ssl: true if it offers implicit TLS (usually on port 993)"
        )
    try:
        imap.starttls(context)
    except ssl.SSLCertVerificationError as exc:
        raise untrusted(settings, exc) from None
    except imaplib.IMAP4.error as exc:  # a NO/BAD answer to STARTTLS
        raise imaplib.IMAP4.error(
            f"email.imap.starttls: the server refused STARTTLS ({exc})"
        ) from None
    return False


class UntrustedCertificate(imaplib.IMAP4.error):
    """The server's certificate did not verify (one line saying which settings help)."""

    def setting_error(self) -> ConfigError:
        """The same line as a ``ConfigError`` naming ``email.imap.ca_file`` (for the start)."""
        return ConfigError(f"email.imap.ca_file: {self}")


def untrusted(settings: ImapSettings, exc: ssl.SSLCertVerificationError) -> UntrustedCertificate:
    """One line for a certificate that did not verify, saying which settings help."""
    reason = exc.verify_message or exc.reason or str(exc)
    return UntrustedCertificate(
        f"the IMAP server's certificate is not trusted ({reason}); set email.imap.ca_file to "
        "the CA that signed it (validate_certs: false skips the check, for tests only)"
    )


def warn_plain(imap: imaplib.IMAP4, settings: ImapSettings) -> None:
    """The one warning for a session that logs in without TLS."""
    offered = "STARTTLS" in imap.capabilities
    log.warning(
        "email: IMAP logs in to %s:%d without TLS (email.imap ssl and starttls are both off):"
        " the password travels in the clear%s",
        settings.host,
        settings.port,
        "; the server offers STARTTLS, so set email.imap.starttls: true" if offered else "",
    )
