"""The ``openai`` SDK client for ``assistant.openai`` settings: API root, query and key.

What a user pastes as ``base_url`` varies (a full endpoint URL, a URL without ``http://``, an
Azure deployment URL with ``?api-version=``), and keys come with stray line breaks from ``.env``
files; these functions turn the settings into a client that sends every request where the
user meant, or stop the start with one line naming the setting.
"""

from __future__ import annotations

import base64
from typing import TypeVar
from urllib.parse import parse_qsl, unquote_plus, urlsplit, urlunsplit

import httpx
import openai

from bot.assistant.openai_errors import has_userinfo, one_line
from bot.assistant.openai_setup import http_client
from bot.config import OpenAISettings
from bot.config_env import empty_setting, env_source
from bot.errors import ConfigError
from bot.url_secrets import quoted_url, redact_urls

ClientT = TypeVar("ClientT", bound=openai.AsyncOpenAI)


def api_root(base_url: str | None, source: str = "") -> str | None:
    """The API root of a configured ``base_url`` (None, as for an empty one: the ``openai``
    client's default), without its query (:func:`api_query`). A pasted endpoint URL
    (``…/v1/chat/completions``) would otherwise have the client post to
    ``…/chat/completions/chat/completions``; a URL without ``http://`` (as in
    ``localhost:11434/v1``) would fail every turn with "cannot reach", so it fails at the start,
    as does one the HTTP client cannot parse (a port that is not a number, a broken IPv6
    address), which would otherwise stop the start with a traceback. The refusal quotes the
    URL without its credentials, or names the variable it came from (``source``, as
    :func:`bot.config_env.env_source` gives it) rather than quote it."""
    if base_url is None or not base_url.strip():
        return None
    written = base_url.strip().rstrip("/")
    shown = quoted_url(written, source)
    try:
        parts = urlsplit(base_url.strip())
        httpx.URL(written)
    except (ValueError, httpx.InvalidURL) as exc:
        # the parser's reason may quote a part of the URL: never the value of a variable
        reason = "" if source else f" ({redact_urls(one_line(str(exc)))})"
        raise ConfigError(
            f"assistant.openai.base_url: {shown} is not a valid URL{reason}"
        ) from None
    path = parts.path.rstrip("/").removesuffix("/chat/completions").rstrip("/")
    root = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"assistant.openai.base_url: {shown} is not an http:// or "
            "https:// URL (for example http://localhost:11434/v1)"
        )
    return root


def api_query(base_url: str | None) -> dict[str, str]:
    """The query a ``base_url`` carries, sent with every request.

    Azure OpenAI's deployment URLs carry one (``…/openai/deployments/NAME?api-version=…``).
    Left in the URL, the client appends ``chat/completions`` after it, so every request went to
    the deployment's root with an ``api-version`` of ``2024-06-01chat/completions``.
    """
    if base_url is None or not base_url.strip():
        return {}
    return dict(parse_qsl(urlsplit(base_url.strip()).query, keep_blank_values=True))


def make_client(settings: OpenAISettings) -> openai.AsyncOpenAI:
    """The ``openai`` client for ``settings``; for an Azure deployment URL, the SDK's Azure client.

    Azure's deployment API (a ``base_url`` with an ``api-version`` query whose path does not end
    in ``/v1``) reads an API key from the ``api-key`` header, not ``Authorization: Bearer``.
    The SDK's Azure client sends it there, the ``api-version`` with every request, and (for a
    ``base_url`` that names no deployment, ``https://NAME.openai.azure.com/openai``) the
    deployment named by ``assistant.openai.model`` in the path. Azure's ``/openai/v1`` API is
    OpenAI's own shape: the plain client, with any query kept.

    A user name and password in ``base_url`` go as ``Authorization: Basic …`` (the HTTP client
    sends them), in place of the plain client's ``Bearer`` key: beside an ``api_key`` they are
    refused (Azure's client, whose key has a header of its own, sends both). A blank ``model``
    is refused too.
    """
    root = api_root(settings.base_url, env_source(settings, "base_url"))
    query = api_query(settings.base_url)
    if not settings.model.strip():  # sent as it is, every request was refused at the server
        raise empty_setting(
            "assistant.openai.model",
            settings,
            " (set it to the name the server knows the model by, or leave the key out for "
            f"{OpenAISettings().model})",
        )
    key = api_key(settings.api_key) or "not-needed"
    if root is not None and "api-version" in query and not root.endswith("/v1"):
        version = query.pop("api-version")
        azure = openai.AsyncAzureOpenAI(
            base_url=root,
            api_version=version,
            api_key=key,
            default_query=query or None,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            http_client=http_client(settings.timeout),
        )
        return without_environment_identity(azure)
    if api_key(settings.api_key) and has_userinfo(root):
        raise ConfigError(
            "assistant.openai.base_url: has a user name and password in it (user:password@), "
            "and assistant.openai.api_key is set too: a request has one Authorization header, and "
            "the URL's (Basic) would replace the key's (Bearer), so the key would never be sent; "
            "leave one of them out"
        )
    client = openai.AsyncOpenAI(
        # never None: the client would read $OPENAI_BASE_URL, which citecast does not document
        # and no message could name
        base_url=root or OPENAI_URL,
        api_key=key,
        default_query=query or None,
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        http_client=http_client(settings.timeout),
    )
    check_key(client, settings)
    return without_environment_identity(client)


def without_environment_identity(client: ClientT) -> ClientT:
    """``client`` sending no ``OpenAI-Organization`` or ``OpenAI-Project`` header.

    The ``openai`` package fills both from ``$OPENAI_ORG_ID`` and ``$OPENAI_PROJECT_ID``, which
    citecast does not document: a variable set in the shell for another tool went with every
    request, to whatever server ``base_url`` names, and could move OpenAI's billing to another
    project without a word in ``config.yaml``.
    """
    client.organization = None
    client.project = None
    return client


OPENAI_HOST = "api.openai.com"
OPENAI_URL = f"https://{OPENAI_HOST}/v1"


def sent_secrets(settings: OpenAISettings) -> tuple[str, ...]:
    """What of ``settings`` is sent as credentials, to hide where a server repeats it
    (:func:`bot.assistant.openai_errors.redact`): the key, the user name and password of
    ``base_url`` as written, decoded and as the ``Basic`` token they are sent as, and the
    values of its credential query parameters (:func:`query_secrets`)."""
    secrets = [settings.api_key.strip(), *query_secrets(settings.base_url)]
    if has_userinfo(settings.base_url):
        url = httpx.URL(str(settings.base_url).strip())
        written = url.userinfo.decode("ascii", "replace")  # percent-encoded, as in the file
        # a user name alone may be the token (https://TOKEN@host)
        secrets += [url.password, written.partition(":")[2]] if url.password else [url.username]
        secrets.append(written)
        token = f"{url.username}:{url.password}".encode()  # as httpx encodes it
        secrets.append(base64.b64encode(token).decode("ascii"))
    return tuple(secret for secret in secrets if secret)


def query_credentials(base_url: str | None) -> list[tuple[str, str]]:
    """The ``(name, value)`` of each of ``base_url``'s query parameters that carries
    credentials (Gemini's ``?key=…``, a proxy's ``?api_key=…``), the value as written.

    A parameter carries credentials when the serve log hides its value
    (:func:`bot.url_secrets.redact_urls`): one list of names for both. Other values
    (``api-version``) are no secret, and hiding them would make a reason unreadable.
    """
    if base_url is None:
        return []
    pairs: list[tuple[str, str]] = []
    for pair in urlsplit(base_url.strip()).query.split("&"):
        name, _, written = pair.partition("=")
        if written and redact_urls(f"?{pair}") != f"?{pair}":
            pairs.append((name, written))
    return pairs


def query_secrets(base_url: str | None) -> list[str]:
    """The values of ``base_url``'s credential query parameters (:func:`query_credentials`),
    as written and decoded."""
    written = [value for _, value in query_credentials(base_url)]
    return [form for value in written for form in (value, unquote_plus(value))]


def without_query_credentials(text: str, base_url: str | None) -> str:
    """``text`` with each ``name=value`` of ``base_url``'s credential query parameters written
    ``name=***``, however short the value (a reason naming the URL it was sent to)."""
    for name, written in query_credentials(base_url):
        text = text.replace(f"{name}={written}", f"{name}=***")
    return text


def check_key(client: openai.AsyncOpenAI, settings: OpenAISettings) -> None:
    """Refuse to start without a key for OpenAI's own endpoint (``base_url`` unset, or
    OpenAI's).

    Every request would be refused (and, where OpenAI cannot be reached, every turn would say
    "cannot reach the model endpoint", which names no setting at all). A local
    OpenAI-compatible server (Ollama, llama.cpp, LM Studio) may need no key: any other
    ``base_url`` goes without one.
    """
    if client.base_url.host != OPENAI_HOST or api_key(settings.api_key):
        return
    raise empty_setting(
        "assistant.openai.api_key",
        settings,
        " (set it to ${OPENAI_API_KEY})",
        problem="not set",
        then=f"; OpenAI's endpoint ({OPENAI_URL}) refuses every request without "
        "one (for a local OpenAI-compatible server that needs none, set "
        "assistant.openai.base_url)",
    )


def api_key(configured: str) -> str:
    """The configured key without the line break a CRLF ``.env`` file or ``echo key > file``
    leaves on it: sent as it is, the HTTP client refuses the header and the failure reads as
    "cannot reach the endpoint". A key no header can carry is a configuration error (its
    value, a secret, is not repeated)."""
    key = configured.strip()
    if not (key.isascii() and key.isprintable()):
        raise ConfigError(
            "assistant.openai.api_key: contains characters an API key cannot have "
            "(non-ASCII or control characters)"
        )
    return key
