"""Channel renderers: one canonical Answer in, each channel's native payload out (DESIGN §6).

``render(channel, answer, context)`` parses the answer's markdown once (bot.markdown) and renders
the channel from that tree. Renderers are pure: no I/O, no SDK, no web framework. Payloads:

- web ``{html, citations}``
- slack ``{messages: [{text, blocks, unfurl_links, unfurl_media}], files}``
- discord ``{messages: [{content, embeds, allowed_mentions, flags, components?}], files}``
- email ``{subject, text, html, attachments, headers}``
- discourse ``{raw, uploads}``

File entries are ``{n, path, filename, media_type}`` (Discourse uploads add ``placeholder``).
See ``renderers.streaming`` for the incremental renderer.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from bot.markdown import Token, parse
from bot.models import Answer
from renderers.base import CitationForm, RenderContext
from renderers.document import Document, cited_numbers, decide_forms, form_key, seed

CHANNELS: tuple[str, ...] = ("web", "slack", "email", "discord", "discourse")


class ChannelModule(Protocol):
    """What each renderer module provides: a block step and an assemble step."""

    def block_renderer(self, forms: Any, context: RenderContext, seed: str) -> Any: ...

    def assemble(self, fragments: list[Any], doc: Document) -> dict[str, Any]: ...


def channel_module(channel: str) -> ChannelModule:
    """The renderer module of ``channel``; raises RenderError for an unknown channel."""
    if channel not in CHANNELS:
        from bot.errors import RenderError

        raise RenderError(f"unknown channel {channel!r} (expected one of {', '.join(CHANNELS)})")
    module = _MODULES.get(channel)
    if module is None:
        module = _MODULES[channel] = importlib.import_module(f"renderers.{channel}")
    return module


_MODULES: dict[str, ChannelModule] = {}


def render_tokens(
    channel: str,
    answer: Answer,
    tokens: list[Token],
    context: RenderContext,
    cited: tuple[int, ...] | None = None,
    forms: dict[int, CitationForm] | None = None,
) -> dict[str, Any]:
    """Render already-parsed ``tokens`` of ``answer`` for ``channel``.

    ``cited`` (the citation numbers in ``tokens``, in order) and ``forms`` (decided for these
    capabilities) may be passed when known.
    """
    module = channel_module(channel)
    caps = context.caps(channel)
    if forms is None:
        forms = decide_forms(answer.citations, caps, context)
    answer_seed = seed(answer.text, context)
    step = module.block_renderer(forms, context, answer_seed)
    fragments = [step(token) for token in tokens]
    if cited is None:
        cited = tuple(cited_numbers(tokens))
    doc = Document(answer, caps, context, forms, cited, answer_seed)
    return module.assemble(fragments, doc)


def render(channel: str, answer: Answer, context: RenderContext | None = None) -> dict[str, Any]:
    """The ``channel`` payload for ``answer`` (plain JSON-able data)."""
    return render_tokens(channel, answer, parse(answer.text), context or RenderContext())


def render_all(answer: Answer, context: RenderContext | None = None) -> dict[str, dict[str, Any]]:
    """Every channel's payload, parsing the answer once."""
    tokens = parse(answer.text)
    cited = tuple(cited_numbers(tokens))
    ctx = context or RenderContext()
    out: dict[str, dict[str, Any]] = {}
    decided: dict[tuple[Any, ...], dict[int, CitationForm]] = {}
    for channel in CHANNELS:
        channel_ctx = ctx if ctx.capabilities is None else _without_caps(ctx)
        caps = channel_ctx.caps(channel)
        key = form_key(caps, answer.citations)
        if key not in decided:
            decided[key] = decide_forms(answer.citations, caps, channel_ctx)
        out[channel] = render_tokens(channel, answer, tokens, channel_ctx, cited, decided[key])
    return out


def _without_caps(context: RenderContext) -> RenderContext:
    import dataclasses

    return dataclasses.replace(context, capabilities=None)


__all__ = ["CHANNELS", "RenderContext", "render", "render_all", "render_tokens"]
