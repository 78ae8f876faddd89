"""Slack's source list: one context element ``<url|[n] Title> · p. 12, Section`` per source,
and the record buttons, each within Slack's limits (split out of :mod:`renderers.slack`, which
packs them into messages).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.deeplinks import without_text_fragment
from renderers.base import CitationForm
from renderers.document import Document
from renderers.escaping import one_line, slack_link_text, slack_literal, slack_url
from renderers.limits import (
    LINK_TOO_LONG,
    SLACK_MAX_BUTTON_LABEL,
    SLACK_MAX_BUTTON_URL,
    SLACK_MAX_CONTEXT_TEXT,
    truncate,
)

MAX_BUTTONS = 25


def marker(form: CitationForm | None, n: int) -> str:
    """``[n]`` (``[n?]`` when weakly supported)."""
    return f"[{n}?]" if form is not None and form.weak else f"[{n}]"


def fit(text: str, limit: int, escape: Callable[[str], str] = slack_literal) -> str:
    """``escape(text)`` on one line within ``limit`` characters.

    The text is shortened before it is escaped, so the cut never falls inside an entity
    (``&amp;``) or between a formatting character and its joiners.
    """
    text = one_line(text)
    keep = limit
    while True:
        shown = escape(truncate(text, keep))
        if len(shown) <= limit or keep <= 1:
            return shown
        # each character cut saves one to five escaped ones (``&`` -> ``&amp;``)
        keep -= max(1, (len(shown) - limit) // 5)


def has_button(form: CitationForm) -> bool:
    """True when the record action of ``form`` shows as a button (its URL fits one)."""
    record = form.record
    if record is None or record.action is None:
        return False
    return record.button and len(record.action.url) <= SLACK_MAX_BUTTON_URL


# What an entry too long for a context element gives up, in order: (highlight, title link,
# action link). The quote highlight goes first, as on Discord and in email: the page link
# without it still leads to the source.
_ENTRY_LEVELS = (
    (True, True, True),
    (False, True, True),
    (False, True, False),
    (False, False, False),
)


def source_element(form: CitationForm, masked: bool = True) -> str:
    """One context element: ``<url|[n] Title> · p. 12, Section`` (mrkdwn, escaped).

    Every part is bounded, so the element stays within Slack's 2,000 characters and is never
    cut. An entry too long for that first drops the quote highlight of its deep link (the
    ``#:~:text=`` directive, :func:`bot.deeplinks.without_text_fragment`), then shows a link
    whose URL is still too long as its text alone: the record action first, then the title,
    followed by "(link too long to show)" (the inline citation and any button still link
    where they fit). ``masked=False`` (``masked_links: false``): each link is its text, then
    the bare ``<url>``.
    """
    for highlight, title_link, action_link in _ENTRY_LEVELS:
        text = _source_entry(form, highlight, title_link, action_link, masked)
        if len(text) <= SLACK_MAX_CONTEXT_TEXT:
            break
    return text  # without links every part is bounded: it fits (tested)


def _link(url: str, label: str, limit: int, masked: bool) -> str:
    """``<url|label>``, or the label then ``<url>`` (Slack shows the URL as written)."""
    if masked:
        return f"<{slack_url(url)}|{fit(label, limit, slack_link_text)}>"
    return f"{fit(label, limit)} <{slack_url(url)}>"


def _source_entry(
    form: CitationForm, highlight: bool, title_link: bool, action_link: bool, masked: bool = True
) -> str:
    label = f"{marker(form, form.n)} {one_line(form.title)}"
    filename = fit(form.filename or "", 120)
    if form.kind in ("link", "download") and form.url and title_link:
        url = form.url if highlight else without_text_fragment(form.url)
        text = _link(url, label, 210, masked)
        if form.kind == "download" and filename and form.filename != form.title:
            text += f" ({filename})"
    elif form.kind == "attachment":
        # a file without a title is called by its name: "notes.md (attached)", said once
        named = "" if form.filename == form.title else f": {filename}"
        text = f"{fit(label, 210)} (attached{named})"
    elif form.kind in ("name", "download") and form.filename and form.filename != form.title:
        text = f"{fit(label, 210)} ({filename})"
    else:
        text = fit(label, 210)
    if form.kind in ("link", "download") and form.url and not title_link:
        text += LINK_TOO_LONG  # said, as on Discord and in email: a source has a page
    extras = [fit(form.detail, 200)] if form.detail else []
    if form.record and form.record.columns:
        extras.append(fit("; ".join(f"{k}: {v}" for k, v in form.record.columns), 300))
    if form.record and form.record.action and not has_button(form):
        action = form.record.action
        if action_link:
            extras.append(_link(action.url, action.label, 75, masked))
        else:
            extras.append(fit(action.label, 75))
    if extras:
        text += " \u00b7 " + " \u00b7 ".join(extras)
    return text


def source_elements(doc: Document) -> list[str]:
    """The context elements listing every source: :class:`MessagePacker` fills context blocks
    with them over as many messages as it takes (a fixed budget of blocks cut the list to "and
    N more" that, without a public base URL, no link reached)."""
    return [source_element(form, doc.caps.masked_links) for form in doc.entries]


def button_blocks(doc: Document) -> list[dict[str, Any]]:
    """Actions blocks of record buttons (25 per block)."""
    buttons = [
        {
            "type": "button",
            "text": {
                "type": "plain_text",
                "text": truncate(
                    f"[{f.n}] {one_line(f.record.action.label)}", SLACK_MAX_BUTTON_LABEL
                ),
            },
            "url": f.record.action.url,
            "action_id": f"citecast_source_{f.n}",
        }
        for f in doc.listed
        if has_button(f) and f.record and f.record.action
    ]
    return [
        {"type": "actions", "elements": buttons[i : i + MAX_BUTTONS]}
        for i in range(0, len(buttons), MAX_BUTTONS)
    ]
