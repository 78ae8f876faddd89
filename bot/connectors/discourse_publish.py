"""Turn an Answer into the ``raw`` of a Discourse post: render, upload files, fit the limit.

``renderers.render("discourse", …)`` gives ``{raw, uploads}``; each upload entry names a file
to attach and the ``placeholder`` standing for it in ``raw``. A file whose extension the site
allows (``allowed_upload_extensions``; empty = let the forum decide) is uploaded with
``POST /uploads.json`` and the placeholder becomes its ``upload://`` short URL, which Discourse
turns into a download link. A file that cannot be uploaded (the forum refuses it with 422 "not
authorized" or "too big", its proxy with 413 or 403, or the upload still fails after the client's
retries) falls back to a signed download link when the deployment has one, else to its file
name: one file never costs the whole answer. A file type the forum refused is not sent again
while the connector runs (``discourse_upload_types``). Each footnote has its own placeholder,
replaced exactly (``discourse_placeholders``: ``…://1`` is not ``…://10``).

The post must stay under ``max_post_length``, or under ``capabilities.discourse.max_chars`` when
that is configured smaller (unless that makes more posts than the forum's
``max_consecutive_replies`` allows): the renderer gets that budget (minus ``reserve``) as
``max_chars`` and compacts the answer and source list itself; if the substituted URLs still push
the body over, it renders again with a smaller budget.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_landed import told_apart
from bot.connectors.discourse_links import forum_services, may_upload
from bot.connectors.discourse_placeholders import occurs, substitute
from bot.connectors.discourse_upload_types import RefusedTypes
from bot.connectors.render_context import context_for, signed_link
from bot.errors import ChannelError
from bot.models import Answer
from bot.runtime import Services
from renderers.discourse_spill import all_linked, definitions, spill_posts

if TYPE_CHECKING:
    from renderers.base import RenderContext

log = logging.getLogger(__name__)

_MAX_RENDER_TRIES = 4
# The shortest body the renderer is asked for: room for a sentence and a footnote or two.
_MIN_CHARS = 200
# a budget no answer reaches: every definition at its richest, in one body
_UNLIMITED = 10_000_000


class PostComposer:
    """Composes post bodies for one viewer audience (one per answered post)."""

    def __init__(
        self,
        client: DiscourseClient,
        services: Services,
        audience: frozenset[str],
        turn_id: int | None = None,
        max_length: int | None = None,
        refused_types: RefusedTypes | None = None,
    ):
        """``max_length``: the forum's post limit when it is known to be lower than
        ``discourse.max_post_length`` (learned from a refusal, see ``discourse_limits``);
        ``refused_types``: the file types the forum refused, kept by the running connector
        (see ``discourse_upload_types``)."""
        self.client = client
        self.services = services
        # signs /files/ links for discourse.file_link_ttl_days (discourse_links)
        self.link_services = forum_services(services)
        self.settings = services.settings.discourse
        self.audience = audience
        self.turn_id = turn_id
        self.max_length = max_length
        self._uploaded: dict[str, str] = {}
        # files this answer could not upload (any failure), and types the forum refuses
        self._refused: set[str] = set()
        self.refused_types = refused_types if refused_types is not None else RefusedTypes()

    async def compose(self, answer: Answer, reserve: int = 0, max_posts: int = 0) -> list[str]:
        """The posts' ``raw`` bodies (usually one), each at most ``post_limit(reserve)`` long
        (or the forum's own limit, when packed as below; a part reading the same as an earlier
        one may use ``reserve`` for the mark that tells it apart, see ``discourse_landed``).

        The renderer splits an answer too long for one post into several (``continued``), each
        with the footnote definitions it uses, so no source is lost. When that makes more than
        ``max_posts`` posts (the forum's ``max_consecutive_replies``; 0: no such limit) and
        ``capabilities.discourse.max_chars`` kept them below the forum's post limit, the posts
        are made larger (doubling, up to that limit) until the answer fits ``max_posts``: the
        forum would refuse the posts past that number (see ``discourse_consecutive``).
        """
        limit = self.post_limit(reserve)
        raws = await self._fit(answer, limit, max_posts)
        forum_limit = self.post_limit(reserve, capped=False)
        tried = limit
        while 0 < max_posts < len(raws) and tried < forum_limit:
            tried = min(forum_limit, tried * 2)
            larger = await self._fit(answer, tried, max_posts)
            if len(larger) < len(raws):
                raws, limit = larger, tried
        if max_posts == 0 or len(raws) < max_posts:
            # room for more posts: sources the renderer showed without their links (to fit
            # one post) are listed, linked, in a post after it (discourse_spill)
            relinked = await self._relinked(answer, raws, limit)
            if max_posts == 0 or len(relinked) <= max_posts:
                raws = relinked
        if limit > self.post_limit(reserve):
            log.info(
                "discourse: posts of up to %d characters (above capabilities.discourse.max_chars)"
                " so the answer takes %d posts: the forum allows %d replies in a row",
                limit,
                len(raws),
                max_posts,
            )
        # no two parts the same: the forum would refuse the second as "too similar", and the
        # check for a lost response could take the first for it (discourse_landed). The mark
        # may use the room kept for the unique suffix, which a marked part seldom needs.
        return told_apart(raws, limit + reserve)

    async def _fit(self, answer: Answer, limit: int, max_posts: int) -> list[str]:
        """The posts' bodies, each at most ``limit`` long after the uploads' URLs are in
        (``max_posts``: the forum's replies in a row, 0 for any number; the renderer may use
        that many posts to keep its footnote definitions rich)."""
        budget = limit
        for _ in range(_MAX_RENDER_TRIES):
            payload = self._render(answer, budget, max_posts)
            uploads = payload.get("uploads") or []
            bodies = [str(payload["raw"]), *(str(r) for r in payload.get("continued") or [])]
            if max(len(body) for body in bodies) > max(_MIN_CHARS, budget):
                # A sentence whose definitions a post cannot also hold: a smaller budget would
                # only cut it, mid-sentence; its definitions go to the posts after it instead.
                break
            raws = [await self._resolve_uploads(answer, body, uploads) for body in bodies]
            overflow = max(len(raw) for raw in raws) - limit
            if overflow <= 0:
                return raws
            budget -= overflow + 64
        return await self._spilled(answer, limit, max_posts)

    async def _spilled(self, answer: Answer, limit: int, max_posts: int) -> list[str]:
        """The renderer's posts for ``limit`` with the footnote definitions a post cannot hold
        moved to the posts after it (``discourse_spill``): a sentence citing more sources
        than a small post can define still posts, every source listed (once)."""
        payload = self._render(answer, limit, max_posts)
        bodies = [str(payload["raw"]), *(str(r) for r in payload.get("continued") or [])]
        uploads = payload.get("uploads") or []
        rich, shorter = await self._choices(answer)
        resolved = [await self._resolve_uploads(answer, body, uploads) for body in bodies]
        raws = spill_posts(resolved, limit, rich, shorter=shorter)
        log.info(
            "discourse: footnotes moved to following posts to fit %d characters (%d posts)",
            limit,
            len(raws),
        )
        return raws

    async def _relinked(self, answer: Answer, raws: list[str], limit: int) -> list[str]:
        if all(all_linked(raw) for raw in raws):
            return raws  # no source is shown without a link: nothing to render again
        rich, shorter = await self._choices(answer)
        return spill_posts(raws, limit, rich, shorter=shorter, relink=True)

    async def _choices(self, answer: Answer) -> tuple[dict[int, str], dict[int, list[str]]]:
        """Each footnote's fullest definition and its shorter ones (links kept, uploads
        resolved), for the posts that list the sources a post could not define: a source
        whose fullest definition is too long for a post is listed with a shorter title and
        its link (``renderers.discourse_spill``)."""
        from renderers.discourse import definition_choices

        whole = self._render(answer, _UNLIMITED)
        uploads = whole.get("uploads") or []
        raw = await self._resolve_uploads(answer, str(whole["raw"]), uploads)
        context = self._context(_UNLIMITED)
        shorter: dict[int, list[str]] = {}
        for n, texts in definition_choices(answer, context).items():
            shorter[n] = [await self._resolve_uploads(answer, t, uploads) for t in texts]
        return definitions(raw)[1], shorter

    def post_limit(self, reserve: int = 0, *, capped: bool = True) -> int:
        """The longest body to send, leaving ``reserve`` characters free: the forum's
        ``max_post_length`` (or the lower limit it was found to have: ``max_length``), or
        (``capped``) ``capabilities.discourse.max_chars`` when that is configured smaller
        (never below the renderer's floor)."""
        from renderers.base import capabilities_for

        limit = self.settings.max_post_length
        if self.max_length is not None:
            limit = min(limit, self.max_length)
        limit -= reserve
        overrides = self.services.settings.capabilities.get("discourse") or {}
        if capped and "max_chars" in overrides:
            # capabilities_for checks the value the way every other override is checked.
            configured = capabilities_for("discourse", overrides).max_chars
            limit = min(limit, max(_MIN_CHARS, configured - reserve))
        return limit

    def _render(self, answer: Answer, budget: int, max_posts: int | None = None) -> dict[str, Any]:
        from renderers.discourse import render_posts

        return render_posts(answer, self._context(budget), max_posts)

    def _context(self, budget: int) -> RenderContext:
        """The render context for posts of ``budget`` characters (never below the renderer's
        floor) and the forum's minimum post length."""
        from renderers.base import capabilities_for

        overrides = dict(self.services.settings.capabilities.get("discourse") or {})
        overrides["max_chars"] = max(_MIN_CHARS, budget)
        minimum = self.settings.min_post_length
        if "min_chars" in overrides:
            # the stricter of the forum's minimum and a configured capability wins, as for the
            # maximum (capabilities_for checks the configured value)
            minimum = max(minimum, capabilities_for("discourse", overrides).min_chars)
        overrides["min_chars"] = minimum
        caps = capabilities_for("discourse", overrides)
        return context_for(self.link_services, self.audience, caps, turn_id=self.turn_id)

    async def _resolve_uploads(
        self, answer: Answer, raw: str, uploads: list[dict[str, Any]]
    ) -> str:
        for entry in uploads:
            placeholder = str(entry.get("placeholder") or "")
            # exactly: citecast-upload://1 also begins citecast-upload://10
            if not placeholder or not occurs(raw, placeholder):
                continue
            filename = str(entry.get("filename") or Path(str(entry["path"])).name)
            citation = answer.citation(int(entry.get("n") or 0))
            source = citation.source if citation is not None else None
            # a file that is not public is never the forum's to keep (discourse_links)
            url = await self._upload(entry, filename) if may_upload(self.settings, source) else None
            if url is None and source is not None:
                url = signed_link(self.link_services, source, self.audience)
            raw = substitute(raw, placeholder, filename, url)
        return raw

    async def _upload(self, entry: dict[str, Any], filename: str) -> str | None:
        path = str(entry.get("path") or "")
        if path in self._uploaded:
            return self._uploaded[path]
        if path in self._refused or not self._extension_allowed(filename):
            return None
        if self.refused_types.refused(filename):
            return None  # refused as a type before: warned once, see discourse_upload_types
        try:
            upload = await self.client.upload(Path(path), filename, entry.get("media_type"))
        except ChannelError as exc:
            # One file must not cost the whole answer: whether the forum judged the file (422,
            # type or size), its proxy refused the body (413, 403), the file was unreadable or
            # the forum stayed down through the retries, the file is linked or named instead.
            self._failed(path, filename, exc)
            self._refused.add(path)
            return None
        self._uploaded[path] = upload.short_url
        return upload.short_url

    def _failed(self, path: str, filename: str, exc: ChannelError) -> None:
        """Log a failed upload: a type the forum refuses once (``refused_types`` keeps it and
        warns), a refusal of this one file (too big) as a warning the first time per file and
        process, then as info (it is tried again for each answer), any other failure as a
        warning."""
        if isinstance(exc, DiscourseAPIError):
            linked = self.services.signer is not None
            if self.refused_types.learn(filename, exc, linked=linked):
                return
            if exc.status == 422:
                reason = "; ".join(exc.errors) or str(exc)
                if not self.refused_types.first_file_refusal(path or filename):
                    log.info("discourse refused upload of %s: %s", filename, reason)
                    return
                shown = "a signed download link" if linked else "its name"
                log.warning(
                    "discourse refused upload of %s: %s; the file is shown as %s instead, and"
                    " tried again for each answer citing it (a file too big is attached once"
                    ' the site setting "max attachment size kb" allows it; logged once per file'
                    " until citecast restarts)",
                    filename,
                    reason,
                    shown,
                )
                return
        log.warning("discourse upload of %s failed: %s", filename, exc)

    def _extension_allowed(self, filename: str) -> bool:
        allowed = {e.lower().lstrip(".") for e in self.settings.allowed_upload_extensions}
        if not allowed or "*" in allowed:
            return True
        return "." in filename and filename.rsplit(".", 1)[1].lower() in allowed
