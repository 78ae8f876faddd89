"""The one exception hierarchy of citecast.

Every error the package raises on purpose is a :class:`CitecastError`. Connectors catch the
platform SDK's exceptions at their edge and re-raise them as :class:`ChannelError` (or a
subclass), so callers never need to know which SDK sits underneath.
"""

from __future__ import annotations


class CitecastError(Exception):
    """Base class of every error citecast raises on purpose."""


class ValidationError(CitecastError, ValueError):
    """Input data (a Source, an Answer, a request body) does not have the documented form."""


class ConfigError(CitecastError):
    """`config.yaml` is missing, unreadable or invalid; the message names the dotted key path."""


class RegistryError(CitecastError):
    """A source registry was used against its contract (for example, bad serialized state)."""


class KnowledgeIndexError(CitecastError):
    """The knowledge index is missing, corrupt or was built by an older schema."""


class BackendError(CitecastError):
    """The answering backend (for example an OpenAI-compatible endpoint) failed."""


class BackendConfigError(BackendError):
    """The backend refused citecast itself: its key was refused (HTTP 401 or 403) or none is set.

    Unlike an outage, asking again cannot help until whoever runs citecast fixes the setting
    the message names, so a viewer is told that, not "try again".
    """


class HistoryOverflowError(BackendError):
    """The prompt did not fit the model's context, and a conversation's earlier exchanges were
    part of it: asking again sends the same history, so a viewer is told to start a new
    conversation instead of "try again"."""


class BackendBusyError(BackendError):
    """The backend is busy and asked to be asked again only after ``retry_after`` seconds (an
    HTTP 429 or 503 whose ``Retry-After`` is longer than the turn may wait).

    Unlike a passing failure, asking again at once cannot help, so a viewer is told when to
    try again rather than "try again".
    """

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RenderError(CitecastError):
    """A renderer was given something it cannot render (never raised for hostile text)."""


class StoreError(CitecastError):
    """The SQLite store could not be read or written."""


class ChannelError(CitecastError):
    """A channel's platform refused or failed a request; raised at the connector edge."""


class RateLimitedError(ChannelError):
    """The platform answered 429; ``retry_after`` is the number of seconds it asked us to wait."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DeliveryUncertainError(ChannelError):
    """The request may have reached the platform (a timeout, a connection lost mid-request).

    Unlike a refusal, sending it again could repeat what the platform already took, so a
    resend must first check whether the first attempt arrived.
    """


class SignatureError(ChannelError):
    """An inbound request's signature is missing, stale or wrong."""


__all__ = [
    "BackendBusyError",
    "BackendConfigError",
    "BackendError",
    "ChannelError",
    "CitecastError",
    "ConfigError",
    "DeliveryUncertainError",
    "KnowledgeIndexError",
    "RateLimitedError",
    "RegistryError",
    "RenderError",
    "SignatureError",
    "StoreError",
    "ValidationError",
]
