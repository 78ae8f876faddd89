"""The titles of cited files uploaded into a Slack thread, and whether uploads are allowed.

The renderer lists each cited file once (``payload["files"]``), under the first citation of
it, though an answer often cites several passages of one file (``[1]`` to ``[4]`` all from
``getting-started.md``). The upload is titled with every number the source list gives that
file, written as the list writes them: ``[1][2][3][4] getting-started.md``.

A bot token without the ``files:write`` scope cannot upload: Slack refuses every upload
(``missing_scope``). :class:`UploadPermission` learns so from the token's scopes at start
(``auth.test``'s ``x-oauth-scopes``) or from the first refused upload, says once which scope to
add, and from then on answers are rendered without attachments, their files shown by name (or
a signed link where ``web.public_base_url`` is set), never as "(attached: …)" above nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.models import Answer

log = logging.getLogger(__name__)

UPLOAD_SCOPE = "files:write"
# Slack's refusals of an upload that no other try would change
REFUSED_UPLOADS = frozenset({"missing_scope", "not_allowed_token_type", "no_permission"})

# Markers beyond this many characters give way to an ellipsis: the title is for the file.
MAX_MARKER_CHARS = 40


def numbered_files(payload: dict[str, Any], answer: Answer, audience: frozenset[str]) -> None:
    """Give each file entry of ``payload`` its ``numbers``: every citation of ``answer`` whose
    source is that file and that ``audience`` may see (the entry's own ``n`` among them)."""
    files: Sequence[dict[str, Any]] = payload.get("files") or []
    if not files:
        return
    numbers: dict[str, set[int]] = {}
    for citation in answer.citations:
        source = citation.source
        if source.path and source.visible_to(audience):
            numbers.setdefault(source.path, set()).add(citation.n)
    for entry in files:
        own = entry.get("n")
        found = numbers.get(str(entry.get("path") or ""), set())
        entry["numbers"] = sorted(found | ({own} if isinstance(own, int) else set()))


def upload_title(entry: Mapping[str, Any], name: str) -> str:
    """``[1][2][3][4] name``: the file's citation numbers (``numbers``, else its ``n``)."""
    numbers = entry.get("numbers") or [entry.get("n")]
    markers = ""
    for number in numbers:
        marker = f"[{number}]"
        if markers and len(markers) + len(marker) > MAX_MARKER_CHARS:
            markers += "\u2026"
            break
        markers += marker
    return f"{markers} {name}"


class UploadPermission:
    """Whether the bot may upload files; once refused, said once in the log and not tried."""

    def __init__(self) -> None:
        self.refused: str | None = None  # Slack's refusal, once known

    @property
    def allowed(self) -> bool:
        """False once the token is known not to be allowed to upload files."""
        return self.refused is None

    def check_scopes(self, scopes: str | None) -> None:
        """The token's scopes (``x-oauth-scopes``: comma-separated), when Slack sent them."""
        if scopes is None:
            return
        if UPLOAD_SCOPE not in {scope.strip() for scope in scopes.split(",")}:
            self.refuse("missing_scope", UPLOAD_SCOPE)

    def refuse(self, code: str, needed: str | None) -> None:
        """Uploads are refused with ``code`` (``needed``: the scope Slack says is missing)."""
        if self.refused is not None:
            return
        self.refused = code
        scope = needed or UPLOAD_SCOPE
        log.warning(
            "Slack does not let the bot upload files (%s): add the %s bot scope under OAuth & "
            "Permissions and reinstall the app; until then cited files are named in the answer "
            "(or linked, with web.public_base_url set) instead of attached",
            code,
            scope,
        )
