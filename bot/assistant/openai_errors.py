"""One-line, readable reasons for what an OpenAI-compatible endpoint sent instead of an answer.

Compatible servers do not agree on an error body: OpenAI, llama.cpp and LiteLLM send
``{"error": {"message": …}}``, vLLM ``{"object": "error", "message": …}``, Ollama and LM Studio
sometimes ``{"error": "…"}``, FastAPI-based servers ``{"detail": …}``, and proxies in front of
any of them an HTML page or a plain-text traceback. The ``openai`` client only reads the first
shape; everything else became "Error code: 404". These helpers find the message in each shape and
keep it to one short line, because it ends up in a chat apology and in a log line.
"""

from __future__ import annotations

import email.utils
import math
import re
import socket
import ssl
import time
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit, urlunsplit

import openai

MAX_CHARS = 200
"""A reason longer than this is cut (an HTML page or a traceback is not a reason)."""

_TITLE = re.compile(r"<(title|h1)\b[^>]*>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)
_INVISIBLE = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_ERRNO = re.compile(r"^\[Errno -?\d+\]\s*|\s*\(_ssl\.c:\d+\)$")
# what the client and httpx wrap every connection failure in: no reason at all
_WRAPPERS = frozenset({"Connection error.", "All connection attempts failed"})


def one_line(text: str) -> str:
    """``text`` with its whitespace collapsed, cut to :data:`MAX_CHARS` characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1].rstrip() + "…"


def error_text(body: object) -> str:
    """The message of an error body in any of the shapes above ("" when there is none)."""
    if isinstance(body, Mapping):
        for key in ("message", "detail", "error", "msg"):
            found = error_text(body.get(key)) if key in body else ""
            if found:
                return found
        return ""
    if isinstance(body, list):  # FastAPI validation errors: [{"loc": …, "msg": …}, …]
        return next((found for item in body if (found := error_text(item))), "")
    if isinstance(body, str):
        return one_line(_page_text(body))
    return ""


def _page_text(body: str) -> str:
    """The reason in a text body: an HTML page's title or first heading, else its first line."""
    if "<" in body and ">" in body:
        titled = _TITLE.search(body)
        if titled and _TAG.sub("", titled.group(2)).strip():
            return _TAG.sub("", titled.group(2))
        body = _TAG.sub("\n", _INVISIBLE.sub("", body))
    return next((line for line in body.splitlines() if line.strip()), "")


def shown_url(url: str) -> str:
    """``url`` as error messages show it: without the credentials or the query it may carry.

    A proxy in front of a local server is often reached as ``https://user:password@host/v1``
    (or with a key in the query), and every error names the endpoint: in logs, in the store's
    record of a failed delivery, in what an operator pastes into an issue.
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:  # a user name alone may be the token (https://TOKEN@host)
        netloc = "***@" + netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


def has_userinfo(url: str | None) -> bool:
    """Whether ``url`` carries a user name or password (``https://user:password@host/v1``),
    which the HTTP client sends as ``Authorization: Basic …``."""
    return bool(url) and "@" in urlsplit(str(url).strip()).netloc


SHORTEST_SECRET = 8
"""A shorter secret is not hidden in a reason: replacing it would mangle the reason's own words
(a key such as ``ollama``, which no server checks, is no secret)."""


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every one of ``secrets`` in it replaced by ``sk-te***`` (its first five
    characters, for a long one) or ``***``.

    Some servers repeat the credentials they refused in their reason (LiteLLM: "Invalid token:
    Bearer sk-…"), and that reason goes into error messages, logs and the store.
    """
    for secret in sorted({s for s in secrets if len(s) >= SHORTEST_SECRET}, key=len, reverse=True):
        text = text.replace(secret, f"{secret[:5]}***" if len(secret) >= 20 else "***")
    return text


def base_url_hint(where: str) -> str:
    """A hint for a response that shows the URL is wrong, unless the URL already ends in /v1
    (or is an Azure OpenAI URL, whose API root never does)."""
    path = urlsplit(where).path.rstrip("/")
    if path.endswith(("/v1", "/openai")) or "/openai/deployments/" in path:
        return ""
    return " (most OpenAI-compatible servers need assistant.openai.base_url to end in /v1)"


def status_message(
    exc: openai.APIStatusError,
    where: str,
    has_key: bool,
    model: str = "",
    timeout: float | None = None,
    basic: bool = False,
) -> str:
    """``the model endpoint at … answered HTTP 429: … (it asked to retry after 20 s)``; with
    ``timeout``, a wait longer than it says it was not retried (``openai_setup.http_client``).

    A refusal of the key or of the model names the setting to fix: the server's own reason
    ("Incorrect API key provided", "model not found") does not say where citecast reads it.
    ``basic``: ``base_url`` carries a user name and password (:func:`has_userinfo`), which went
    as ``Authorization: Basic …``.
    """
    # "404: Not Found", "404 page not found": the status is said once already
    reason = re.sub(rf"^{exc.status_code}\b[\s:.-]*", "", error_text(exc.body))
    message = f"the model endpoint at {where} answered HTTP {exc.status_code}"
    if reason:
        message += f": {reason}"
    if exc.status_code == 404:
        hint = base_url_hint(where)
        if not hint and model and "model" in reason.lower():
            hint = f" (assistant.openai.model is {model!r})"
        message += hint
    if exc.status_code in (400, 404, 422) and NO_TOOLS.search(reason):
        message += (
            " (citecast needs a model that can call tools"
            + (f"; assistant.openai.model is {model!r}" if model else "")
            + "; some servers must also be started with tool calling enabled)"
        )
    if exc.status_code in (401, 403):
        message += _key_refused(exc.status_code, has_key, basic)
    wait = _retry_after(exc)
    if wait and timeout is not None and too_long_to_wait(exc.response.headers, timeout):
        message += (
            f" (it asked to retry after {wait}, longer than assistant.openai.timeout "
            f"({timeout:g} s), so it was not retried)"
        )
    elif wait:
        message += f" (it asked to retry after {wait})"
    return message


def _key_refused(status: int, has_key: bool, basic: bool = False) -> str:
    """What a 401 or 403 means for the operator: retrying (the viewer's "try again", the
    client's own retries) cannot help until the key, or what it may use, is fixed."""
    if basic:  # the URL's user name and password went as the Authorization header
        which = (
            "the key in assistant.openai.api_key or the user name and password in "
            "assistant.openai.base_url were"
            if has_key  # only Azure's client sends both (its key in the api-key header)
            else "the user name and password in assistant.openai.base_url were"
        )
        if status == 401:
            return f" ({which} refused; retrying will not help)"
        return f" ({which} refused for this request; retrying will not help)"
    if not has_key:  # the client cannot send none: it sends a placeholder ("not-needed")
        return (
            " (assistant.openai.api_key is not set, so a placeholder key was sent; "
            "retrying will not help)"
        )
    if status == 401:
        return " (the key in assistant.openai.api_key was refused; retrying will not help)"
    return (
        " (the key in assistant.openai.api_key was refused for this request, such as for a "
        "model it has no access to; retrying will not help)"
    )


# How servers refuse the tools of a request: Ollama ("… does not support tools"), OpenAI
# ("tools is not supported with this model"), vLLM ('"auto" tool choice requires
# --enable-auto-tool-choice …'), llama.cpp ("tools param requires --jinja flag"), and others
# ("does not support function calling").
NO_TOOLS = re.compile(
    r"(not|n't) support\w*\s+(tools?|tool calls|tool calling|function calling)\b"
    r"|\btools?\b[^.]*\bnot supported|\btool[ _]choice\b[^.]*\brequires|\btools param requires",
    re.IGNORECASE,
)

# Codes and words a server uses when the prompt does not fit the model's context: OpenAI's
# code, llama.cpp's error type, and the messages of OpenAI, vLLM, llama.cpp, Mistral, LM
# Studio, TGI and the proxies that pass them on.
_CONTEXT_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})
_CONTEXT_WORDS = re.compile(
    r"context[ _-]?(length|window|size)|maximum context|prompt is too long|too many tokens"
    r"|(input|prompt) tokens? exceeds?|tokens? exceeds? the",
    re.IGNORECASE,
)


def context_overflow(exc: openai.APIError) -> bool:
    """True when the endpoint refused the request because the prompt is longer than its model's
    context (the retrieved passages and the history it carried): as an HTTP error, or as an
    error event in a stream that had begun."""
    if isinstance(exc, openai.APIStatusError) and exc.status_code not in (400, 413, 422):
        return False
    codes = {str(getattr(exc, "code", "") or ""), str(getattr(exc, "type", "") or "")}
    return bool(codes & _CONTEXT_CODES) or bool(_CONTEXT_WORDS.search(error_text(exc.body)))


def overflow_hint(top_k: int, rounds: int, history: bool) -> str:
    """What to change when the prompt is longer than the model's context, naming the settings.

    ``rounds`` is ``max_tool_rounds`` once tool results are in the prompt, else 0: before any
    tool ran, only the history (or the question) can have filled it, and retrieving less
    would not help.
    """
    fixes: list[str] = []
    if rounds:
        fixes.append(
            f"retrieve less (assistant.top_k, now {top_k}; assistant.openai.max_tool_rounds, "
            f"now {rounds}; or a smaller index.chunk_chars, then ingest again)"
        )
    if history:
        fixes.append(
            "keep fewer earlier exchanges (web.history_turns, slack.history_turns, "
            "discord.history_limit, discourse.history_posts, email.history_turns)"
        )
    fixes.append("use a model with a longer context")
    return f" (the prompt is longer than the model's context: {', or '.join(fixes)})"


def connection_reason(exc: BaseException) -> str:
    """Why a connection failed, from the innermost cause the ``openai`` client wraps.

    Its own message is "Connection error." whatever happened, which leaves an operator
    guessing between a server that is down, a host name that does not resolve and a
    certificate that is not trusted (a self-signed one in front of vLLM or Ollama).
    """
    reason = ""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused (is the server running and listening there?)"
        if isinstance(cause, ssl.SSLCertVerificationError) and cause.verify_message:
            return f"TLS certificate verify failed: {cause.verify_message}"
        if isinstance(cause, ssl.SSLError) and cause.reason == "WRONG_VERSION_NUMBER":
            return "TLS handshake failed (is it an http:// server behind an https:// URL?)"
        text = _ERRNO.sub("", str(cause)).strip()
        if isinstance(cause, socket.gaierror):
            return f"cannot resolve its host name ({text or 'no address'})"
        if text and text not in _WRAPPERS:
            reason = text  # the innermost reason wins: outer ones only repeat or wrap it
        cause = cause.__cause__ or cause.__context__
    return one_line(reason) or "connection error"


def body_cut_off(exc: BaseException) -> bool:
    """Whether a connection failed after the response began: the server answered, then closed
    the connection before its body was complete (a reply that is not streamed is read whole
    inside the client, which calls that a connection error like an unreachable server)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if "without sending complete message body" in str(cause):  # h11, under httpx
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _retry_after(exc: openai.APIStatusError) -> str:
    """The wait a 429 or 503 asked for, as the header gave it ("" when it gave none)."""
    headers = exc.response.headers
    milliseconds = headers.get("retry-after-ms")
    seconds = headers.get("retry-after")
    try:
        if milliseconds is not None:
            return f"{float(milliseconds) / 1000:g} s"
        if seconds is not None:
            return f"{float(seconds):g} s"
    except ValueError:
        pass
    return one_line(seconds) if seconds else ""  # an HTTP date


def retry_after(headers: Mapping[str, str]) -> float | None:
    """The seconds a response asked to wait (``retry-after-ms`` or ``Retry-After``, in seconds
    or as an HTTP date), None when it asked for nothing readable."""
    try:
        if "retry-after-ms" in headers:
            return float(headers["retry-after-ms"]) / 1000
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return float(value)
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return when.timestamp() - time.time()
    except (ValueError, TypeError, OverflowError):
        return None


def too_long_to_wait(headers: Mapping[str, str], timeout: float) -> bool:
    """Whether a response asked to wait longer than ``assistant.openai.timeout``."""
    wait = retry_after(headers)
    return wait is not None and math.isfinite(wait) and wait > timeout
