"""Which groups read a Discourse category: its own ``audience_by_category`` entry, else the
nearest mapped category above it.

A subcategory of a category mapped to ``staff`` is read by staff too: Discourse refuses a
subcategory whose groups are not all allowed on its parent (the "permission conflict" rule),
so its readers are never more than its parent's, and citing what the parent's readers may see
there widens nothing. A subcategory with an entry of its own keeps it, also under a public
parent. The parent is read from the forum (``/c/{id}/show.json``'s ``parent_category_id``) each
time a reply is composed or checked, never remembered across answers, so a category moved to
another parent counts from the next answer on. A parent that cannot be read makes the category
public while composing (fewer sources, never more); before posting a private reply the failure
is raised instead, so the reply is retried rather than posted on a guess or dropped.

The mapping is the admin's word, and the forum's security can change after it was written: a
category mapped to ``staff`` whose security now lets *everyone* see it (``read_restricted``
false) is answered with public sources only, logged once, unless the site requires a login
(``login_required``: an internal forum, whose "everyone" is its members). The check reads the
same ``/c/{id}/show.json`` as the parent; when the forum refuses it (403 or 404: a key without
the *categories: show* scope) the mapping stands, logged once. A read that fails for a while (a
5xx, a long 429, the forum out of reach) proves nothing about the scope: the category then
counts as public while composing, and before posting the failure is raised, as for the parent.

A category read the forum refuses because it refuses the API key itself (revoked, see
``discourse_key``) raises :class:`KeyRefusedError` instead, also when not ``strict``: no reply
can be posted until the key is restored, and an answer composed meanwhile on a guessed audience
would be kept and posted later, so the question waits for the key instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.config import DiscourseSettings
from bot.connectors.discourse_client import DiscourseClient, category_parent
from bot.connectors.discourse_errors import DiscourseAPIError
from bot.connectors.discourse_key import refused_key
from bot.errors import CitecastError

log = logging.getLogger(__name__)

PUBLIC = frozenset({"public"})
# Discourse nests categories at most three deep (the max_category_nesting site setting).
MAX_NESTING = 3


def mapped_audience(settings: DiscourseSettings, category_id: int | None) -> frozenset[str] | None:
    """The groups ``audience_by_category`` names for ``category_id`` itself, or None."""
    if category_id is None:
        return None
    groups = settings.audience_by_category.get(str(category_id))
    return frozenset(groups) if groups else None


def scope_missing(exc: CitecastError) -> bool:
    """True when the forum refused a category read as it refuses a key without the
    *categories: show* scope (403, or 404 for a category the key may not see); False for a
    failure that passes with time (a 5xx, a rate limit whatever its status, a timeout or a
    dropped connection)."""
    return isinstance(exc, DiscourseAPIError) and exc.status in (403, 404) and not exc.rate_limited


class CategoryReaders:
    """Resolves categories' audiences for one answer or one delivery (categories read once
    each)."""

    def __init__(
        self,
        settings: DiscourseSettings,
        client: Callable[[], DiscourseClient],
        warned: set[tuple[str, int]] | None = None,
    ) -> None:
        """``warned``: what was already logged, as (kind, category id) (kept by the connector,
        so a key without the scope is reported once per category, not per answer)."""
        self.settings = settings
        self._client = client
        self._categories: dict[int, dict[str, Any]] = {}
        self._login_required: bool | None = None
        self._warned = warned if warned is not None else set()

    async def audience(self, category_id: int | None, *, strict: bool = False) -> frozenset[str]:
        """The groups whose readers see ``category_id``: its own mapping, else the nearest
        mapped parent's, else public; public too when the forum lets everyone see it.

        ``strict``: a category or site that cannot be read raises (the forum's error) instead
        of counting the category as public.
        """
        if category_id is None:
            return PUBLIC
        mapped = await self._mapped(category_id, strict)
        if mapped == PUBLIC:
            return mapped
        return await self._unless_open(category_id, mapped, strict)

    async def _mapped(self, category_id: int, strict: bool) -> frozenset[str]:
        """The audience ``audience_by_category`` gives ``category_id``, itself or through its
        parents."""
        own = mapped_audience(self.settings, category_id)
        if own is not None:
            return own
        if not self.settings.audience_by_category:
            return PUBLIC  # nothing mapped: no parent can make a difference
        seen = {category_id}
        current = category_id
        for _ in range(MAX_NESTING):
            try:
                parent = category_parent(await self._category(current))
            except CitecastError as exc:
                await self._raise_if_key_refused(exc, current, "to find its parent")
                if strict:
                    raise
                if self._first_time("parent", current):
                    advice = (
                        "give the API key the categories: show scope, or map the category in"
                        " discourse.audience_by_category; "
                        if scope_missing(exc)
                        else ""
                    )
                    log.warning(
                        "discourse: cannot read category %s to find its parent (%s); answering"
                        " there with public sources only (%slogged once per category)",
                        current,
                        exc,
                        advice,
                    )
                return PUBLIC
            if parent is None or parent in seen:
                return PUBLIC
            inherited = mapped_audience(self.settings, parent)
            if inherited is not None:
                return inherited
            seen.add(parent)
            current = parent
        return PUBLIC

    async def _unless_open(
        self, category_id: int, mapped: frozenset[str], strict: bool
    ) -> frozenset[str]:
        """``mapped``, or PUBLIC when the forum lets everyone see the category (its security
        was opened after the mapping was written, or the mapping names the wrong category)."""
        try:
            category = await self._category(category_id)
        except CitecastError as exc:
            await self._raise_if_key_refused(
                exc, category_id, "to check that it is not open to everyone"
            )
            if not scope_missing(exc):
                # A failure that passes with time says nothing about the category: trusting
                # the mapping then could cite a private source where everyone reads it.
                if strict:
                    raise
                if self._first_time("unreadable", category_id):
                    log.warning(
                        "discourse: cannot read category %s to check that it is not open to"
                        " everyone (%s); answering there with public sources only until the"
                        " forum answers (logged once per category)",
                        category_id,
                        exc,
                    )
                return PUBLIC
            # Without the categories: show scope nothing can be checked: the mapping stands,
            # as it did before the check existed.
            if self._first_time("unchecked", category_id):
                log.warning(
                    "discourse: cannot read category %s to check that it is not open to"
                    " everyone (%s); trusting discourse.audience_by_category (give the API key"
                    " the categories: show scope; logged once per category)",
                    category_id,
                    exc,
                )
            return mapped
        if category.get("read_restricted") is not False:
            return mapped
        try:
            if self._login_required is None:
                self._login_required = await self._client().login_required()
        except CitecastError as exc:
            if strict:
                raise
            log.warning(
                "discourse: category %s is open to everyone and the site's login_required"
                " cannot be read (%s); answering there with public sources only",
                category_id,
                exc,
            )
            return PUBLIC
        if self._login_required:
            return mapped  # "everyone" is the forum's members
        if self._first_time("open", category_id):
            log.error(
                "discourse: category %s is mapped to %s in discourse.audience_by_category, but"
                " the forum lets everyone see it: answering there with public sources only"
                " (restrict the category's security, or remove the mapping; logged once per"
                " category)",
                category_id,
                ", ".join(sorted(mapped)),
            )
        return PUBLIC

    async def _raise_if_key_refused(
        self, exc: CitecastError, category_id: int, purpose: str
    ) -> None:
        """Raise :class:`KeyRefusedError` when reading the category failed because the forum
        refuses the API key itself (revoked: the same 403 as a missing scope, see
        ``discourse_key``), logged once per category: the scope advice would be wrong then."""
        refused = await refused_key(self._client(), exc, self.settings.api_username)
        if refused is None:
            return
        if self._first_time("key refused", category_id):
            log.warning(
                "discourse: cannot read category %s %s: %s; nothing is composed for it until"
                " the key is restored (logged once per category)",
                category_id,
                purpose,
                refused,
            )
        raise refused from exc

    def _first_time(self, kind: str, category_id: int) -> bool:
        key = (kind, category_id)
        if key in self._warned:
            return False
        self._warned.add(key)
        return True

    async def _category(self, category_id: int) -> dict[str, Any]:
        if category_id not in self._categories:
            self._categories[category_id] = await self._client().category(category_id)
        return self._categories[category_id]
