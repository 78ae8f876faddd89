"""Text conversions at the Slack edge: incoming questions, streamed markdown, length limits.

Incoming message text is Slack mrkdwn with escaped ``& < >`` and ``<…>`` tokens for mentions,
links and channels; :func:`question_text` turns it into the plain question the assistant sees.
:class:`StreamMarkdown` turns the canonical answer text (CommonMark with ``[^n]`` citations,
arriving in pieces) into the markdown ``chat.appendStream`` shows: citations as ``[n]`` held
to the word they cite by a no-break space as the renderers hold them (``renderers.glue``) and
linked to their sources as the rendered message links them, the model's links kept only to
http, https and mailto (``slack_stream_links``), and Slack tokens defused, so neither the model
nor a source can produce ``<!here>`` or a disguised link.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.bidi_controls import without_bidi_controls
from bot.connectors.slack_stream_links import (
    linked_marker,
    no_unsafe_links,
    open_link_start,
    safe_links,
)
from bot.markdown import CITATION_MARK
from renderers.base import CitationForm
from renderers.glue import NO_BREAK_SPACE, glues_after

_BOT_MENTION = r"<@{id}(?:\|[^>]*)?>"
_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")
_CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\^[^|>]*)?(?:\|([^>]*))?>")
_LINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^|>]+)(?:\|([^>]*))?>")
_CLOSING = frozenset(",.;:!?)")
_TOKEN_OPENER = re.compile(r"<(?=[^\s\d=<])")
# A tail whose meaning depends on what comes next: "[", "[^", "[^12" (a citation?) or "<"
_PARTIAL_CITATION = re.compile(r"(?:\[(?:\^\d{0,6})?|<)$")
# The end of a word that closes an inline token rather than a text: bold, italic, strike or
# code ("**works** [^1]"), or a link ("[the guide](/setup) [^1]"). The renderers keep the
# ordinary space after those (Slack ends bold or italic only before one). An underscore closes
# emphasis only when its opener is not inside a word: "works_it_" is plain text, as CommonMark
# (and so the renderer) reads it.
_AFTER_TOKEN = re.compile(r"(?:[*~`]|(?<![^\W_])_\S*_|\]\([^()\s]*\))$")


def unescape(text: str) -> str:
    """Undo Slack's ``&amp; &lt; &gt;`` escaping."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mentioned_users(text: str, bot_user_id: str | None = None) -> tuple[str, ...]:
    """The people a message mentions without a name (``<@U123>``, as Slack sends mentions
    now), apart from the bot, each once."""
    ids = (m.group(1) for m in _USER.finditer(text) if not m.group(2))
    return tuple(dict.fromkeys(i for i in ids if i != bot_user_id))


def mentions(text: str, user_id: str) -> bool:
    """Whether the Slack message ``text`` mentions ``user_id`` (``<@U…>``)."""
    return any(match.group(1) == user_id for match in _USER.finditer(text))


def question_text(
    text: str, bot_user_id: str | None = None, names: Mapping[str, str] | None = None
) -> str:
    """The plain question in a Slack message: bot mention removed, tokens made readable.

    ``names`` maps user ids to how Slack shows them: ``<@U123>`` reads ``@Ada``, not an id
    that means nothing to the assistant (an unknown id stays ``@U123``).
    """
    names = names or {}
    if bot_user_id:
        text = _without_mention(text, _BOT_MENTION.format(id=re.escape(bot_user_id)))
    text = _USER.sub(lambda m: "@" + (m.group(2) or names.get(m.group(1)) or m.group(1)), text)
    text = _CHANNEL.sub(lambda m: "#" + (m.group(2) or m.group(1)), text)
    text = _SPECIAL.sub(lambda m: m.group(2) or "", text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return re.sub(r"[ \t]+", " ", unescape(text)).strip()


def _without_mention(text: str, mention: str) -> str:
    """``text`` without the bot's mention: "@citecast: how …" and "@citecast, how …" ask
    "how …", and "hey @citecast, how" keeps its comma where the mention stood.

    Split rather than one substitution with a ``[ \t]*`` before the mention, which the regex
    engine retries from every blank of a long run (seconds for a 40,000-character message).
    """
    text = re.sub(rf"^\s*(?:{mention}\s*(?:[,:;]\s*)?)+", "", text)
    pieces = re.split(mention, text)
    out = [pieces[0]]
    for piece in pieces[1:]:
        if piece[:1] in _CLOSING or not piece.strip():
            out[-1] = out[-1].rstrip(" \t")
            out.append(piece)
        else:
            out.extend((" ", piece))
    return "".join(out)


class StreamMarkdown:
    """Converts answer text deltas to Slack streaming markdown, never splitting a citation."""

    def __init__(self) -> None:
        self._held = ""
        self._before = ""  # the last word shown, for the glue of a citation after it
        # the URL each citation's marker links to, and the citations' forms, which a link the
        # model labelled like a marker must lead to (both set as the citations arrive)
        self.links: Mapping[int, str] = {}
        self.forms: Mapping[int, CitationForm] = {}

    def feed(self, delta: str) -> str:
        """The markdown that is safe to show now; a possible partial ``[^n`` is held back,
        and so are the spaces before it (they become a no-break space before a citation), and
        a link not yet whole (whether it may be shown depends on its destination)."""
        # bidi controls go first, as the renderers' parse drops them: "[^\u202e1]" is then a
        # citation to hold back whole, not a stray "[^" shown raw
        text = self._held + without_bidi_controls(delta)
        partial = _PARTIAL_CITATION.search(text)
        cut = partial.start() if partial else len(text)
        link = open_link_start(text[:cut])
        cut = cut if link is None else link
        backslashes = len(text[:cut]) - len(text[:cut].rstrip("\\"))
        cut -= backslashes % 2  # whether it escapes depends on the character after it
        if cut > 0 and text[cut - 1] == "<":
            cut -= 1  # whether "<" opens a token depends on the character after it
        cut = len(text[:cut].rstrip(" "))
        self._held = text[cut:]
        return self._show(text[:cut])

    def flush(self) -> str:
        """Whatever was held back (the answer has ended)."""
        held, self._held = self._held, ""
        return self._show(held)

    def _show(self, text: str) -> str:
        shown = to_stream_markdown(text, self._before, self.links, self.forms)
        self._before = _last_word(self._before + text)
        return shown


def _last_word(text: str) -> str:
    """What a citation's glue reads of ``text`` before it: its last word, or nothing after a
    citation (only the first of several markers is glued)."""
    after = CITATION_MARK.split(text)[-1]
    return after[max(after.rfind(" "), after.rfind("\n")) + 1 :]


def to_stream_markdown(
    text: str,
    before: str = "",
    links: Mapping[int, str] | None = None,
    forms: Mapping[int, CitationForm] | None = None,
) -> str:
    """One whole piece of answer text as streaming markdown (``before``: the text shown before
    it, whose last word decides whether a citation at its start is glued; ``links``: the URL
    each citation's marker links to, see ``slack_stream_links.marker_links``; ``forms``: the
    citations' forms, which a link the model labelled like a marker must lead to).

    The model's links are shown as the renderers show them (``slack_stream_links.safe_links``:
    safe destinations only, no marker-like label to a page no source is, no label hiding its
    target), and no ``](`` is left to end a link to anything else, nor ``]:`` a reference
    definition (``no_unsafe_links``): not one the model disguised, nor a plain ``[1]`` read as a
    link's label (``[1](javascript:…)``).

    Streaming takes standard markdown, where ``&lt;`` would show literally inside code, so
    instead of escaping every ``<`` only the ones that could open a Slack token (``<!here>``,
    ``<@U1>``, ``<#C1>``, ``<https://…|disguised>``) get an invisible joiner after them; bidi
    controls are dropped, as from every rendered payload (``bot.bidi_controls``). The spaces
    between a word and its citation become a no-break space, as in the rendered message.
    """
    text = safe_links(_glued(without_bidi_controls(text), before), forms)
    text = _TOKEN_OPENER.sub("<\u200d", text)
    text = CITATION_MARK.sub(lambda m: linked_marker(int(m.group(1)), links or {}), text)
    return no_unsafe_links(text)


def _glued(text: str, before: str) -> str:
    """``text`` with a no-break space for the spaces before each citation the renderers glue:
    after a word, not after a URL, formatting, code, a link or another citation."""
    out: list[str] = []
    last = 0
    for mark in CITATION_MARK.finditer(text):
        piece = text[last : mark.start()]
        raw = (before if last == 0 else "") + piece
        word = raw.rstrip(" ")
        if piece.endswith(" ") and glues_after(raw) and not _AFTER_TOKEN.search(word):
            piece = piece.rstrip(" ") + NO_BREAK_SPACE
        out += (piece, mark.group(0))
        last = mark.end()
    out.append(text[last:])
    return "".join(out)


def fit_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters without leaving half a ``<url|label>`` token."""
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    opened, closed = cut.rfind("<"), cut.rfind(">")
    if opened > closed:
        cut = cut[:opened]
    amp = cut.rfind("&")
    if amp != -1 and ";" not in cut[amp:]:
        cut = cut[:amp]
    return cut.rstrip() + "\u2026"
