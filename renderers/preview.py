"""One self-contained HTML page showing an answer as every channel would display it.

The payloads come from the real renderers; this module only draws them: Slack mrkdwn and its
context blocks, Discord markdown, the email HTML part (in a shadow root of its own, so it is as
tall as the email and the page's styles do not reach it), the Discourse post with its footnotes,
and the web answer. Everything drawn is sanitized with nh3, and the page has no scripts.
"""

from __future__ import annotations

import re
from typing import Any

import mistune
import nh3

from bot.models import Answer
from renderers import render_all
from renderers.base import RenderContext
from renderers.email_html import templates
from renderers.preview_discourse import discourse_posts
from renderers.web import ALLOWED_ATTRIBUTES, ALLOWED_TAGS

_SLACK_LINK = re.compile(r"<(https?://[^|>\s]+|mailto:[^|>\s]+)\|([^>]*)>")
_SLACK_FENCE = re.compile(r"```\n?(.*?)\n?```", re.S)
# bold, italic, strike and code as Slack pairs them: a mark with a zero-width joiner beside it
# is the renderer's literal character (renderers.escaping.slack_literal) and formats nothing
_SLACK_MARKS = [
    (re.compile(rf"(?<![\w{m}\u200d]){m}(?!\u200d)([^{m}\n]+)(?<!\u200d){m}(?![\w{m}\u200d])"), tag)
    for m, tag in ((r"\*", "b"), ("_", "i"), ("~", "s"))
] + [(re.compile("(?<!\u200d)`(?!\u200d)([^`\n]+)(?<!\u200d)`(?!\u200d)"), "code")]
_PREVIEW_TAGS = ALLOWED_TAGS | {"b", "i", "s", "img"}
_PREVIEW_ATTRS = {**ALLOWED_ATTRIBUTES, "sup": {"class", "id"}, "li": {"id", "class", "value"}}

# the email's own inline styles (renderers.email), kept; nothing that could load a resource
_EMAIL_STYLE_PROPERTIES = {
    "background", "border", "border-collapse", "border-left", "border-radius", "border-top",
    "color", "display", "font-family", "font-size", "font-style", "font-weight", "line-height",
    "margin", "margin-left", "max-width", "overflow-wrap", "padding", "padding-left",
    "padding-top", "text-align", "text-decoration", "word-break",
}  # fmt: skip
_EMAIL_BODY = re.compile(r"<body\b([^>]*)>(.*)</body>", re.S | re.I)
_STYLE_ATTR = re.compile(r'\bstyle="([^"]*)"')

_DISCORD_MD = mistune.create_markdown(escape=True, hard_wrap=True, plugins=["strikethrough"])


def _clean(markup: str) -> str:
    return str(
        nh3.clean(
            markup,
            tags=_PREVIEW_TAGS,
            attributes=_PREVIEW_ATTRS,
            url_schemes={"http", "https", "mailto"},
        )
    )


def mrkdwn_to_html(text: str) -> str:
    """Draw Slack mrkdwn (already escaped by the renderer) as HTML, roughly as Slack does."""
    codes: list[str] = []

    def stash(m: re.Match[str]) -> str:
        codes.append(f"<pre>{m.group(1)}</pre>")
        return f"\x00{len(codes) - 1}\x00"

    text = _SLACK_FENCE.sub(stash, text)
    text = _SLACK_LINK.sub(lambda m: f'<a href="{m.group(1)}">{m.group(2)}</a>', text)
    for pattern, tag in _SLACK_MARKS:
        text = pattern.sub(f"<{tag}>\\1</{tag}>", text)
    lines = []
    for line in text.split("\n"):
        if line.startswith("> ") or line == ">":
            lines.append(f"<blockquote>{line[2:]}</blockquote>")
        else:
            # Slack keeps a line's leading spaces (a nested bullet's indent); HTML would not
            text = line.lstrip(" ")
            lines.append("\u00a0" * (len(line) - len(text)) + text + "<br>")
    html = "\n".join(lines)
    # a code block is a block of its own: no blank line breaks around it
    html = re.sub(r"(?:<br>\n)*\x00(\d+)\x00(?:<br>\n?)*", lambda m: codes[int(m.group(1))], html)
    return _clean(html)


def email_view(html: str) -> dict[str, str]:
    """The email HTML part as the page draws it: ``{style, html}``, its body's style and content.

    Drawn inline (in a declarative shadow root, no script needed) rather than in an iframe,
    whose height cannot follow its content without a script; so it is sanitized like the rest.
    """
    found = _EMAIL_BODY.search(html)
    body_attrs, inner = (found.group(1), found.group(2)) if found else ("", html)
    style = _STYLE_ATTR.search(body_attrs)
    cleaned_style = _clean_email(f'<div style="{style.group(1)}"></div>') if style else ""
    kept = _STYLE_ATTR.search(cleaned_style)
    return {"style": kept.group(1) if kept else "", "html": _clean_email(inner)}


def _clean_email(markup: str) -> str:
    return str(
        nh3.clean(
            markup,
            tags=ALLOWED_TAGS | {"b", "i", "s"},
            attributes={**_PREVIEW_ATTRS, "*": {"style", "dir", "id", "class", "title"}},
            url_schemes={"http", "https", "mailto"},
            filter_style_properties=_EMAIL_STYLE_PROPERTIES,
            attribute_filter=_inert_style,
        )
    )


def _inert_style(tag: str, attribute: str, value: str) -> str:
    # a declaration with "(" (url(), image-set()) or "\" (a CSS escape spelling one) could
    # load something: the renderer's own styles have neither (``value`` is entity-decoded)
    if attribute != "style":
        return value
    kept = [part for part in value.split(";") if "(" not in part and "\\" not in part]
    return ";".join(kept)


def slack_view(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Slack messages as drawable blocks: ``{kind, html}``."""
    views: list[dict[str, Any]] = []
    for message in payload["messages"]:
        blocks: list[dict[str, Any]] = []
        for block in message["blocks"]:
            if block["type"] == "section":
                blocks.append({"kind": "section", "html": mrkdwn_to_html(block["text"]["text"])})
            elif block["type"] == "header":
                blocks.append({"kind": "header", "html": _clean(block["text"]["text"])})
            elif block["type"] == "context":
                items = [mrkdwn_to_html(e["text"]).removesuffix("<br>") for e in block["elements"]]
                blocks.append({"kind": "context", "items": items})
            elif block["type"] == "actions":
                buttons = [{"label": e["text"]["text"], "url": e["url"]} for e in block["elements"]]
                blocks.append({"kind": "actions", "buttons": buttons})
        views.append({"blocks": blocks})
    return views


def discord_view(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Discord messages drawn as HTML (+ buttons)."""
    views = []
    for message in payload["messages"]:
        buttons = [
            {"label": c["label"], "url": c["url"]}
            for row in message.get("components") or []
            for c in row["components"]
        ]
        embeds = [
            {
                "title": e.get("title", ""),
                "html": _clean(str(_DISCORD_MD(e.get("description", "")))),
            }
            for e in message.get("embeds") or []
        ]
        html = _clean(str(_DISCORD_MD(message["content"])))
        views.append({"html": html, "buttons": buttons, "embeds": embeds})
    return views


def preview_page(answer: Answer, context: RenderContext | None = None) -> str:
    """The preview page (HTML) for ``answer``."""
    payloads = render_all(answer, context)
    email = payloads["email"]
    return (
        templates()
        .get_template("preview.html.j2")
        .render(
            web_html=payloads["web"]["html"],
            slack=slack_view(payloads["slack"]),
            slack_files=payloads["slack"]["files"],
            discord=discord_view(payloads["discord"]),
            discord_files=payloads["discord"]["files"],
            email=email,
            email_body=email_view(email["html"]),
            discourse=[
                _clean(post) for post in discourse_posts(payloads["discourse"], answer, context)
            ],
            discourse_uploads=payloads["discourse"]["uploads"],
            citations=len(answer.citations),
            dropped=len(answer.dropped),
        )
    )
