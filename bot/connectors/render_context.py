"""How every connector builds the RenderContext for one viewer (one place, one rule).

- file links: a cited file without a public URL gets a signed, expiring download link for the
  viewer's audience when the deployment has a signer (``web.public_base_url`` set);
- file sizes: read here, because renderers do no I/O;
- the full-source-list page: linked by a signed turn key, never a guessable sequential id;
- the answer's language (``assistant.language``), which the email's HTML part marks;
- the weak mark: a citation whose support is below ``grounding.threshold`` shows ``[n?]``.
"""

from __future__ import annotations

import os
from typing import Any

from bot.assistant.own_replies import answer_language
from bot.models import Answer, Source
from bot.runtime import Services
from renderers.base import Capabilities, RenderContext


def file_size(source: Source) -> int | None:
    """The size in bytes of the source's file, or None when it has none or cannot be read."""
    if not source.path:
        return None
    try:
        return os.path.getsize(source.path)
    except OSError:
        return None


def signed_link(services: Services, source: Source, audience: frozenset[str]) -> str | None:
    """A signed download link to the source's file for ``audience``, or None."""
    signer = services.signer
    url = None if signer is None else signer.url_for(source, audience)
    return url if isinstance(url, str) else None


def context_for(
    services: Services,
    audience: frozenset[str],
    capabilities: Capabilities,
    *,
    turn_id: int | None = None,
    answer: Answer | None = None,
    **options: Any,
) -> RenderContext:
    """The RenderContext for a viewer in ``audience``; ``options`` are RenderContext fields.
    With ``answer``, the language is the one it is written in (:func:`answer_language`).
    Weak means below ``grounding.threshold``, the score grounding judged the answer by."""
    signer = services.signer
    language = services.settings.assistant.language
    options.setdefault("weak_below", services.settings.grounding.threshold)
    options.setdefault(
        "language", language if answer is None else answer_language(answer, language)
    )

    def sign(source: Source) -> str | None:
        return signed_link(services, source, audience)

    return RenderContext(
        public_base_url=services.settings.web.public_base_url,
        signer=sign if signer is not None else None,
        audience=audience,
        capabilities=capabilities,
        file_size=file_size,
        turn_id=signer.turn_key(turn_id) if signer is not None and turn_id is not None else None,
        **options,
    )
