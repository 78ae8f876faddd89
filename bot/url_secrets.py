"""The credentials a URL can carry, masked: ``user:password@`` and credential query values.

One list of names for every place that shows a URL or a server's words about one: the serve
log's formatter (:class:`bot.commands.serve.RedactingFormatter`), the model client, which
hides the query values of its ``base_url`` that a server repeats in an error
(:func:`bot.assistant.openai_client.sent_secrets`), and the start-up errors that quote a
configured URL (:func:`quoted_url`).
"""

from __future__ import annotations

import re

# user:password@ in a URL (up to the last "@" before the host: a password may hold a raw "@"),
# and the values of query parameters that carry credentials: names ending in a credential word
# (api_key, access_token, X-Amz-Signature, db_pwd), and ``code``, ``auth`` and ``pass`` as whole
# names or after "_" (an Azure Functions key is ``?code=…``); "…_code" (a country code),
# "oauth_…" and "bypass" stay readable.
_URL_SECRETS = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^\s/?#@]*@(?:[^\s/?#@]*@)*"
    r"|(?P<param>[?&](?:[a-z_-]*(?:key|token|secret|password|passwd|pwd|signature|sig"
    r"|credentials?)|code|auth|(?:[a-z_-]*[_-])?pass))"
    r"=[^&\s\"']+",
    re.IGNORECASE,
)
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def redact_urls(text: str) -> str:
    """``text`` with the credentials a URL can carry masked (``https://…@host``, ``?key=…``)."""
    return _URL_SECRETS.sub(
        lambda m: f"{m['scheme']}…@" if m["scheme"] else f"{m['param']}=…", text
    )


def redacted_url(url: str) -> str:
    """``url``, one configured URL (which may not parse), with its credentials masked: as
    :func:`redact_urls`, and a ``user:password@`` without a scheme in front of it too."""
    scheme = _SCHEME.match(url)
    if scheme is None:
        authority = re.split(r"[/?#]", url, maxsplit=1)[0]
        if "@" in authority:
            url = "…@" + url[authority.rindex("@") + 1 :]
    return redact_urls(url)


def quoted_url(url: str, source: str = "") -> str:
    """How an error quotes a configured URL: ``the value of ${NAME}`` when ``source`` (from
    :func:`bot.config_env.env_source`) says a variable gave it, since a whole value from the
    environment may be a secret; else :func:`redacted_url`, quoted."""
    if source:
        return f"the value of {source}"
    return repr(redacted_url(url))
