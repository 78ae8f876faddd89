"""Signed ``/files/`` links that outlive a chat: for channels whose answers are read later.

The web chat renders its answers afresh when the page is reloaded, so ``web.file_token_ttl`` (an
hour by default) suits it; a mail is read hours or days after it was sent (or sent late, after
the outbox retried it), a forum post is read for months, and a Discord message or a Slack
thread is scrolled back to days later, with nothing to reload. A link that stopped working
after an hour would send those readers to a dead end, so such a channel signs its links for
days instead (``email``, ``discourse``, ``discord`` and ``slack`` ``.file_link_ttl_days``).

That is safe because a link's lifetime is not what guards the file: every download checks the
file's current audience against the index (``bot.connectors.web_files.file_response``), so a
link to a file made private or dropped from the index stops working at once, however long it
was signed for.
"""

from __future__ import annotations

import copy
import dataclasses

from bot.filetokens import FileSigner
from bot.runtime import Services

DAY_SECONDS = 86_400


def services_with_link_days(services: Services, days: int) -> Services:
    """``services`` whose signer signs ``/files/`` links valid for ``days`` days (the same
    services when ``days`` is 0, meaning "as the web's", or the deployment signs no links).

    The twin is a shallow copy of the deployment's signer with another ``ttl``: the same secret
    and roots (a live signer keeps following the index), so ``/files/`` verifies its tokens
    like any other, and the web's own signer keeps its lifetime. A signer that is not a
    FileSigner (a test's stand-in) is used as it is.
    """
    signer = services.signer
    if days <= 0 or not isinstance(signer, FileSigner):
        return services
    twin = copy.copy(signer)
    twin.ttl = days * DAY_SECONDS
    return dataclasses.replace(services, signer=twin)
