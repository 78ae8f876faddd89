"""The credentials a URL can carry, masked: ``user:password@`` and credential query values.

One list of names for every place that shows a URL or a server's words about one: the serve
log's formatter (:class:`bot.commands.serve.RedactingFormatter`) and the model client, which
hides the query values of its ``base_url`` that a server repeats in an error
(:func:`bot.assistant.openai_client.sent_secrets`).
"""

from __future__ import annotations

import re

# user:password@ in a URL, and the values of query parameters that carry credentials: names
# ending in a credential word (api_key, access_token, X-Amz-Signature), and ``code`` and
# ``auth`` as whole names (an Azure Functions key is ``?code=…``); "…_code" (a country code)
# and "oauth_…" words stay readable.
_URL_SECRETS = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^\s/@]+@"
    r"|(?P<param>[?&](?:[a-z_-]*(?:key|token|secret|password|signature|sig)|code|auth))"
    r"=[^&\s\"']+",
    re.IGNORECASE,
)


def redact_urls(text: str) -> str:
    """``text`` with the credentials a URL can carry masked (``https://…@host``, ``?key=…``)."""
    return _URL_SECRETS.sub(
        lambda m: f"{m['scheme']}…@" if m["scheme"] else f"{m['param']}=…", text
    )
