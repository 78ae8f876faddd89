"""``GET /turns/{key}``: the full answer and source list of one stored turn.

``key`` is ``FileSigner.turn_key(turn_id)``: the turn id, a dash and its HMAC. Channels with
tight limits (Slack, Discourse) compact a long source list to "and 3 more" and link here
(``RenderContext.full_list_url``: ``{public_base_url}/turns/{key}#sources``); the web API hands
the same link to clients as an answer's ``share_url``. A bare turn id is a 404.

Turn ids are sequential, so this page must not become a way to read other people's answers: it
shows only the answer (never the question), and only when every cited source is visible to the
web audience (``web.audience``, public by default). Anything else is the same plain 404.
"""

from __future__ import annotations

import html
from typing import Any

from bot.errors import ValidationError
from bot.models import Answer
from bot.store import Store

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>{title}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/chat.css">
</head>
<body class="cc-page">
  <main class="cc-root"><div class="cc-chat">
    <header class="cc-header"><div class="cc-brand">
      <span class="cc-logo" aria-hidden="true">❝</span>
      <div><h1 class="cc-title">{heading}</h1>
      <p class="cc-subtitle">An answer and every source it cites.</p></div>
    </div></header>
    <article class="cc-answer" aria-label="Answer"><div class="cc-body">{body}</div></article>
  </div></main>
</body>
</html>
"""


def load_answer(store: Store, turn_id: int) -> dict[str, Any] | None:
    """The Answer JSON of a finished turn, or None."""
    turn = store.turn(turn_id)
    if turn is None or turn.status != "done" or not isinstance(turn.answer, dict):
        return None
    return turn.answer


def shareable_answer(data: dict[str, Any], audience: frozenset[str]) -> Answer | None:
    """The stored Answer when every cited source is visible to ``audience``, else None."""
    try:
        answer = Answer.from_json(data)
    except ValidationError:
        return None
    if not all(citation.source.visible_to(audience) for citation in answer.citations):
        return None
    return answer


def turn_page(rendered_html: str, title: str = "citecast") -> str:
    """The standalone page around the web renderer's sanitized HTML (the list gets #sources),
    headed with the deployment's ``title`` (``web.title``)."""
    body = rendered_html.replace(
        '<section class="sources"', '<section id="sources" class="sources"', 1
    )
    return _PAGE.format(
        title=html.escape(f"{title} — answer and sources"), heading=html.escape(title), body=body
    )
