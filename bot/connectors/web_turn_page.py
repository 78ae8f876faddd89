"""``GET /turns/{key}``: the full answer and source list of one stored turn.

``key`` is ``FileSigner.turn_key(turn_id)``: the turn id, a dash and its HMAC, signed for the
store the turn is in and for the turn's stamp (another store's turn of that id, one made after a
store reset, or one given the id again after the store was restored from a backup, gets another
key, so a link never opens an answer it was not made for). Channels with tight limits (Slack,
Discourse) compact a long source list to "and 3 more" and link here
(``RenderContext.full_list_url``: ``{public_base_url}/turns/{key}#sources``); the web API hands
the same link to clients as an answer's ``share_url``. A bare turn id is a 404.

Turn ids are sequential, so this page must not become a way to read other people's answers: it
shows only the answer (never the question), and only when every source it cites, every source
its answerer read (the turn's registry) and the same for the earlier answers of its conversation
(its history) is visible to the web audience (``web.audience``, public by default), as stored
with the turn and, for a knowledge-base file, as the index has it now
(:func:`bot.connectors.web_file_access.visible_now`: a file made private or dropped from the
index since the answer is no longer visible). Anything else is the same plain 404.
``missing_file_page`` is the like page for a ``/files/`` link that does not work.

Both routes are one level deep (``/turns/KEY``, ``/files/TOKEN``), so the page names its
stylesheet ``../static/chat.css`` and links back to the chat as ``../``: relative, they work at
``/`` and behind a reverse proxy that serves citecast under a sub-path
(``https://example.com/help/``), where ``/static/`` would not. The stylesheet's URL carries its
version (``chat.css?v=…``, ``web_asset_versions``), so no browser shows the page with a copy an
older release let it keep. The page runs no script: its citations are named, each described by
its own passage (shown on keyboard focus), and its wide blocks made keyboard-scrollable on the
server (:mod:`bot.connectors.web_turn_page_names`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.connectors.web_asset_versions import asset_versions
from bot.connectors.web_file_access import visible_now
from bot.connectors.web_turn_page_names import accessible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.errors import ValidationError
from bot.models import Answer, Source
from bot.store import Store, Turn

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>{title}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="{stylesheet}">
</head>
<body class="cc-page">
  <main class="cc-root"><div class="cc-chat">
    <header class="cc-header"><div class="cc-brand">
      <span class="cc-logo" aria-hidden="true">❝</span>
      <div><h1 class="cc-title">{heading}</h1>
      <p class="cc-subtitle">{subtitle}</p></div>
    </div>{back}</header>
    <{box} class="cc-answer" aria-label="{label}"><div class="cc-body">{body}</div></{box}>
  </div></main>
</body>
</html>
"""


def load_answer(store: Store, turn_id: int) -> Turn | None:
    """A finished turn with its Answer JSON, or None."""
    turn = store.turn(turn_id)
    if turn is None or turn.status != "done" or not isinstance(turn.answer, dict):
        return None
    return turn


def shareable_answer(
    turn: Turn,
    audience: frozenset[str],
    earlier: Sequence[Turn] = (),
    files: FileIndex | None = None,
) -> Answer | None:
    """The turn's Answer when everything it could repeat is visible to ``audience``, else None.

    That is every source it cites, every source its answerer read (the turn's registry) and
    the same of each earlier answer of its conversation (``earlier``; the model got them as
    history). The cited sources alone are not enough: an answer written for a staff viewer (a
    Slack DM) can repeat a staff passage it read, or said in an earlier turn, without citing
    it, or keep a claim whose citation grounding dropped. With ``files`` (the knowledge
    index), a knowledge-base file counts as the index has it now (:func:`visible_answer`).
    """
    history = [prior for prior in earlier if prior.id < turn.id]
    return shareable_answers([*history, turn], audience, files, done_only=False).get(turn.id)


def shareable_answers(
    turns: Sequence[Turn],
    audience: frozenset[str],
    files: FileIndex | None = None,
    *,
    done_only: bool = True,
) -> dict[int, Answer]:
    """Of ``turns`` (one conversation's), the answers :func:`shareable_answer` allows, by turn
    id: the rule of the share page, which the web API also follows to offer a ``share_url``
    only for a page that shows (a "Copy link" to a 404 is no use). One pass, each answer read
    once, however long the conversation. Only answered turns (``done``) count as history;
    with ``done_only`` False the last turn is judged whatever its status (its caller checked).
    """
    visible = _rule(audience, files)
    ordered = sorted(turns, key=lambda turn: turn.id)
    shown: dict[int, Answer] = {}
    spoilt: set[str] = set()  # channels whose history holds an answer that may not be shown
    for index, turn in enumerate(ordered):
        last = index == len(ordered) - 1
        if turn.status != "done" and (done_only or not last):
            continue
        answer = _answer_if(turn, visible)
        if answer is None:
            spoilt.add(turn.channel)
        elif turn.channel not in spoilt:
            shown[turn.id] = answer
    return shown


def visible_answer(
    turn: Turn, audience: frozenset[str], files: FileIndex | None = None
) -> Answer | None:
    """The turn's Answer when every source it cites or its answerer read is visible to
    ``audience``; None otherwise, or when the stored answer or registry cannot be read.

    Without ``files`` each source counts with the audience stored with the turn. With it (the
    knowledge index), a knowledge-base file must also be readable by ``audience`` now
    (:func:`bot.connectors.web_file_access.visible_now`): one made private or dropped from the
    index since the answer hides it."""
    return _answer_if(turn, _rule(audience, files))


def _rule(audience: frozenset[str], files: FileIndex | None) -> Callable[[Source], bool]:
    if files is None:
        return lambda source: source.visible_to(audience)
    return visible_now(files, audience)


def stored_sources(turn: Turn) -> tuple[Answer, list[Source]] | None:
    """A stored turn's answer and every source it cited or read, or None when either cannot
    be read (such a turn is shown to no one and spoils the answers after it)."""
    if turn.answer is None:
        return None
    try:
        answer = Answer.from_json(turn.answer)
    except ValidationError:
        return None
    read = sources_read(turn.registry)
    if read is None:
        return None
    return answer, [*(citation.source for citation in answer.citations), *read]


def _answer_if(turn: Turn, visible: Callable[[Source], bool]) -> Answer | None:
    stored = stored_sources(turn)
    if stored is None or not all(visible(source) for source in stored[1]):
        return None
    return stored[0]


def sources_read(registry: Any) -> list[Source] | None:
    """The sources a turn's registry JSON lists (numbered and evidence-only); None when the
    registry is malformed (the page then fails closed). A turn stored without one read none
    that anyone recorded, and only its citations are checked."""
    if not isinstance(registry, Mapping):
        return []
    numbered, evidence = registry.get("numbered", []), registry.get("evidence", [])
    if not isinstance(numbered, list) or not isinstance(evidence, list):
        return None
    entries = [item.get("source") if isinstance(item, Mapping) else None for item in numbered]
    try:
        return [Source.from_json(entry) for entry in [*entries, *evidence]]
    except ValidationError:
        return None


# the way from a shared answer to the chat, whose page is one level up (the module docstring)
_BACK_TO_CHAT = '\n    <a class="cc-secondary cc-to-chat" href="../">Ask a question in the chat</a>'
_SOURCES = '<section class="sources"'
# What the page holds, under its heading and in its tab: "An answer and every source it cites."
# would stand above a "You're welcome!" or an answer that found nothing to cite.
_CITED = ("answer and sources", "An answer and every source it cites.")
_UNCITED = ("answer", "An answer that cites no sources.")
_SMALL_TALK = ("reply", "A reply to a greeting or a thank-you: there was nothing to look up.")


def turn_page(rendered_html: str, title: str = "citecast", *, small_talk: bool = False) -> str:
    """The standalone page around the web renderer's sanitized HTML (the list gets #sources),
    headed with the deployment's ``title`` (``web.title``) and a line saying what it shows: an
    answer and its sources, an answer that cites none, or, with ``small_talk``
    (:func:`bot.connectors.small_talk.is_small_talk_reply`), a reply to small talk."""
    cites = _SOURCES in rendered_html
    # named citations and keyboard-scrollable blocks, as the chat page's scripts give them
    body = accessible_answer(rendered_html)
    body = body.replace(_SOURCES, '<section id="sources" class="sources"', 1)
    what, subtitle = _CITED if cites else _SMALL_TALK if small_talk else _UNCITED
    return _PAGE.format(
        title=html.escape(f"{title} — {what}"),
        heading=html.escape(title),
        subtitle=subtitle,
        box="article",
        label="Answer",
        body=body,
        back=_BACK_TO_CHAT,
        stylesheet=_stylesheet(),
    )


def _stylesheet() -> str:
    return asset_versions().url("chat.css", "../static/")


def _not_found_page(title: str, what: str, body: str) -> str:
    # "File not found" -> "citecast — file not found" in the tab, as the heading's subtitle.
    # The message is no answer: a screen reader names its box for what it is ("File not
    # found"), as a region, not an "Answer" article.
    return _PAGE.format(
        title=html.escape(f"{title} — {what[0].lower()}{what[1:]}"),
        heading=html.escape(title),
        subtitle=what,
        box="section",
        label=html.escape(what),
        body=body,
        back="",
        stylesheet=_stylesheet(),
    )


def missing_file_page(title: str = "citecast") -> str:
    """The page a person following a ``/files/`` link that does not work gets (the 404): the
    same for an expired, cut or forged link and for a file the viewer may no longer read (made
    private, or removed from the knowledge base), so it tells no one which. Links in an answer
    are signed for ``web.file_token_ttl`` seconds (a mail or a forum post's for days); the chat
    signs them afresh on a reload, and shows a file that is no longer available by its name,
    without a link. The advice fits a reader of a mail or a post, who has no chat to reload."""
    body = (
        "<p>This file link has expired or is incomplete, or the file is no longer available. "
        "Links to files work for a limited time: to get a fresh one, reload the chat or ask "
        "your question again, in the chat, by email or wherever you found the link.</p>"
    )
    return _not_found_page(title, "File not found", body)


def missing_page(title: str = "citecast") -> str:
    """The page a person following a shared link gets when it shows nothing (the 404): the
    same for a mistyped link and an answer that may not be shown, so it tells no one which."""
    body = (
        "<p>This answer cannot be shown: the link may be incomplete, or the answer is not one "
        "that can be shared here.</p>"
    )
    return _not_found_page(title, "Answer not found", body)
