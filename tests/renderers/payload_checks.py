"""Checks every renderer test shares: platform limits and unsafe constructs in payloads.

Each ``check_*`` function raises AssertionError naming the broken rule.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from bot.bidi_controls import BIDI_CONTROLS
from bot.markdown import parse
from renderers.limits import (
    DISCORD_MAX_CONTENT,
    DISCORD_MAX_DESCRIPTION,
    DISCORD_MAX_EMBED_TOTAL,
    DISCORD_MAX_EMBEDS,
    DISCORD_MAX_FILES,
    DISCORD_MAX_TITLE,
    DISCOURSE_MAX_CHARS,
    EMAIL_MAX_HTML_BYTES,
    SLACK_MAX_BLOCKS,
    SLACK_MAX_BLOCKS_TEXT,
    SLACK_MAX_CONTEXT_ELEMENTS,
    SLACK_MAX_CONTEXT_TEXT,
    SLACK_MAX_HEADER_CHARS,
    SLACK_MAX_SECTION_CHARS,
    SLACK_MAX_TEXT_CHARS,
)
from tests.fakes.discourse_api import counted_length
from tests.renderers.fence_checks import code_lines

SAFE_HREF = re.compile(r"^(https?://|mailto:|#)", re.I)
BAD_TAGS = {"script", "style", "iframe", "object", "embed", "img", "form", "input", "svg", "math"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def check_html(markup: str, *, allow_style: bool = False) -> None:
    """No script/event handler/unsafe URL; style attributes only when allowed."""
    parser = _Collector()
    parser.feed(markup)
    for tag, attrs in parser.tags:
        assert tag not in BAD_TAGS, f"forbidden tag <{tag}>"
        for name, value in attrs:
            assert not name.startswith("on"), f"event handler {name} on <{tag}>"
            if name in ("href", "src", "action", "formaction"):
                assert value is not None and SAFE_HREF.match(value.strip()), f"unsafe {name}"
            if name == "style":
                assert allow_style, "style attribute in web HTML"
    # answer text may *mention* javascript: (escaped, harmless); it must never be markup
    assert "<script" not in markup.lower()


SLACK_ANGLE = re.compile(r"<([^<>]*)>")


def check_mrkdwn(text: str) -> None:
    """Every ``<…>`` in mrkdwn is one of our links, whole; no special mention can form."""
    # text is escaped, so every "<" opens one of our links: a cut link leaves one unclosed
    assert "<" not in SLACK_ANGLE.sub("", text), f"cut link in {text[:80]!r}"
    for m in SLACK_ANGLE.finditer(text):
        inner = m.group(1)
        # "<url|label>", or "<url>": a URL shown as written (masked_links: false, a label
        # that hides its target)
        assert re.match(r"^(https?://|mailto:)[^|\s]*(\||$)", inner), f"bare <{inner}> in mrkdwn"
    lowered = text.lower()
    for bad in ("<!channel", "<!here", "<!everyone", "<@", "<#", "<!subteam"):
        assert bad not in lowered, f"{bad} in mrkdwn"


def check_slack(payload: dict[str, Any]) -> None:
    """Slack limits and escaping."""
    assert set(payload) == {"messages", "files"}
    assert payload["messages"], "no message"
    for message in payload["messages"]:
        assert message["unfurl_links"] is False and message["unfurl_media"] is False
        assert 0 < len(message["text"]) <= SLACK_MAX_TEXT_CHARS
        check_mrkdwn(message["text"])
        blocks = message["blocks"]
        assert len(blocks) <= SLACK_MAX_BLOCKS
        total = slack_block_text(blocks)
        assert total <= SLACK_MAX_BLOCKS_TEXT, f"{total} characters of block text in a message"
        for block in blocks:
            if block["type"] == "section":
                text = block["text"]["text"]
                assert 0 < len(text) <= SLACK_MAX_SECTION_CHARS
                check_mrkdwn(text)
            elif block["type"] == "header":
                text = block["text"]["text"]
                assert 0 < len(text) <= SLACK_MAX_HEADER_CHARS
                assert "<!" not in text and "<@" not in text
            elif block["type"] == "context":
                assert 0 < len(block["elements"]) <= SLACK_MAX_CONTEXT_ELEMENTS
                for element in block["elements"]:
                    assert 0 < len(element["text"]) <= SLACK_MAX_CONTEXT_TEXT
                    check_mrkdwn(element["text"])
            elif block["type"] == "actions":
                assert 0 < len(block["elements"]) <= 25
                for element in block["elements"]:
                    assert SAFE_HREF.match(element["url"])
                    assert len(element["text"]["text"]) <= 75
            else:
                raise AssertionError(f"unexpected block type {block['type']}")


def slack_context_texts(payload: dict[str, Any]) -> list[str]:
    """The text of every context element (the source list) in a Slack payload's messages."""
    return [
        e["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "context"
        for e in b["elements"]
    ]


def slack_block_text(blocks: list[dict[str, Any]]) -> int:
    """Characters of text in Slack ``blocks``: sections, headers, context elements, buttons."""
    total = 0
    for block in blocks:
        if "text" in block:
            total += len(block["text"]["text"])
        for element in block.get("elements", []):
            text = element["text"]
            total += len(text if isinstance(text, str) else text["text"])
    return total


def _link_urls(tokens: list[dict[str, Any]]) -> list[str]:
    urls: list[str] = []
    for token in tokens:
        if token.get("type") in ("link", "image"):
            urls.append(str(token["attrs"]["url"]))
        urls.extend(_link_urls(token.get("children") or []))
    return urls


def check_markdown_links(text: str, extra_schemes: tuple[str, ...] = ()) -> None:
    """Every link a markdown parser finds is http/https/mailto (or an allowed extra scheme)."""
    for url in _link_urls(parse(text)):
        assert SAFE_HREF.match(url) or url.startswith(extra_schemes), f"unsafe link {url!r}"


_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")


def outside_code(content: str) -> str:
    """Discord ``content`` without its code blocks and code spans."""
    text = "\n".join(line for line, code in code_lines(content) if not code)
    return _CODE_SPAN.sub("", text)


def check_discord(payload: dict[str, Any]) -> None:
    """Discord limits, mentions and links."""
    assert set(payload) == {"messages", "files"}
    assert len(payload["files"]) <= DISCORD_MAX_FILES
    assert payload["messages"]
    for message in payload["messages"]:
        assert message["allowed_mentions"] == {"parse": []}
        content = message["content"]
        assert len(content) <= DISCORD_MAX_CONTENT
        assert content or message["embeds"]
        # code shows them as written (allowed_mentions keeps them from pinging)
        lowered = outside_code(content).lower()
        assert "@everyone" not in lowered and "@here" not in lowered
        assert not re.search(r"<[@#]|<a?:\w+:\d", content), "mention token in content"
        check_markdown_links(content)
        embeds = message["embeds"]
        assert len(embeds) <= DISCORD_MAX_EMBEDS
        total = 0
        for embed in embeds:
            assert len(embed.get("title", "")) <= DISCORD_MAX_TITLE
            assert len(embed.get("description", "")) <= DISCORD_MAX_DESCRIPTION
            total += len(embed.get("title", "")) + len(embed.get("description", ""))
            assert "@everyone" not in embed.get("description", "").lower()
        assert total <= DISCORD_MAX_EMBED_TOTAL
        assert len(message.get("components", [])) <= 5, "more than 5 action rows"
        for row in message.get("components", []):
            assert len(row["components"]) <= 5
            for button in row["components"]:
                assert SAFE_HREF.match(button["url"]) and len(button["label"]) <= 80


def check_email(payload: dict[str, Any]) -> None:
    """Email size budget, sanitized HTML, loop-prevention header."""
    assert set(payload) == {"subject", "text", "html", "attachments", "headers"}
    assert len(payload["html"].encode("utf-8")) < EMAIL_MAX_HTML_BYTES
    check_html(payload["html"], allow_style=True)
    assert payload["headers"]["Auto-Submitted"] == "auto-replied"
    assert "\n" not in payload["subject"] and payload["subject"]


def check_web(payload: dict[str, Any]) -> None:
    """Sanitized web HTML with JSON-able citations."""
    assert set(payload) == {"html", "citations"}
    check_html(payload["html"])
    for citation in payload["citations"]:
        if "url" in citation:
            assert SAFE_HREF.match(citation["url"])


def check_discourse(payload: dict[str, Any], limit: int = DISCOURSE_MAX_CHARS) -> None:
    """Post length, links (upload placeholders allowed), and footnotes: every reference in a
    post has its definition there, and no definition is cut inside a link."""
    posts = [payload["raw"], *payload.get("continued", [])]
    # the forum's default min_post_length: a shorter post is refused ("Body is too short")
    assert counted_length(payload["raw"]) >= 20, payload["raw"]
    for raw in posts:
        assert len(raw) <= limit
        check_markdown_links(raw, ("citecast-upload://",))
        refs, defined = discourse_footnotes(raw)
        assert refs <= defined, f"footnotes without a definition: {sorted(refs - defined)}"
        for line in _lines_outside_fences(raw):
            m = _FOOTNOTE_DEFINITION_LINE.match(line)
            if m is None:
                continue
            links = [t for t in _tokens(parse(m.group(1))) if t["type"] == "link"]
            # a URL shown as written ("<url>", masked_links: false) is an autolink: each "<http"
            # opens one, as each "](" a masked link
            written = m.group(1).count("](") + len(_AUTOLINK_START.findall(m.group(1)))
            assert written == len(links), f"cut link in {m.group(0)[:80]!r}"
    for upload in payload["uploads"]:
        assert upload["placeholder"] in "\n".join(posts)


_FOOTNOTE_DEFINITION = re.compile(r"^\[\^(\d+)\]: ", re.M)
_FOOTNOTE_DEFINITION_LINE = re.compile(r"^\[\^\d+\]: (.*)$", re.M)


def _lines_outside_fences(post: str) -> list[str]:
    """The lines of ``post`` outside code blocks, as the parser reads them (fences inside list
    items too): a ``[^2]: …`` line inside code is shown as written, no footnote definition."""
    code: set[str] = set()
    for token in _tokens(parse(post)):
        if token["type"] == "block_code":
            code.update(line.strip() for line in str(token.get("raw", "")).split("\n"))
    return [line for line in post.split("\n") if line.strip() not in code]


def discourse_footnotes(post: str) -> tuple[set[int], set[int]]:
    """The footnote numbers a Discourse post references (outside code) and those it defines.

    bot.markdown's citation token is a footnote reference outside code, as Discourse reads it.
    """
    definitions = [line for line in _lines_outside_fences(post) if _FOOTNOTE_DEFINITION.match(line)]
    chosen = set(definitions)
    body = "\n".join(line for line in post.split("\n") if line not in chosen)
    refs = {int(t["attrs"]["n"]) for t in _tokens(parse(body)) if t["type"] == "citation"}
    return refs, {
        int(m.group(1)) for line in definitions if (m := _FOOTNOTE_DEFINITION.match(line))
    }


_AUTOLINK_START = re.compile(r"(?<!\\)<(?:https?://|mailto:)")


def _tokens(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every token of a parsed tree, depth first."""
    out: list[dict[str, Any]] = []
    for token in tokens:
        out.append(token)
        out.extend(_tokens(token.get("children") or []))
    return out


_EMPTY_HTML = re.compile(
    r"<(h[1-6]|p|blockquote|pre|code|ul|ol|table)\b[^>]*>(?:\s|\u200b|&nbsp;|<br>)*</\1>"
    r"|<ul\b[^>]*>(?:(?!</ul>).)*<li\b[^>]*>\s*</li>",
    re.S,
)
_EMPTY_MD_LINE = re.compile(r"^ *(?:#{1,6}|[-*+])[ \t\u200b]*$", re.M)


_BACKTICKS = re.compile(r"`+")


def empty_code_spans(text: str) -> list[str]:
    """Code spans with nothing but spaces inside (CommonMark pairing of backtick runs).

    A run opens a span that the next run of the same length closes; a backslash-escaped
    backtick opens nothing. "`` ` ``" is a span holding a backtick, not an empty one.
    """
    runs = []
    for m in _BACKTICKS.finditer(text):
        start = m.start()
        slashes = len(text[:start]) - len(text[:start].rstrip("\\"))
        if slashes % 2:
            start += 1  # the escaped first backtick is text; the rest of the run counts
        if start < m.end():
            runs.append((start, m.end()))
    empty: list[str] = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        closer = next(
            (k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == end - start), None
        )
        if closer is None:
            i += 1
            continue
        if not text[end : runs[closer][0]].strip():
            empty.append(text[start : runs[closer][1]])
        i = closer + 1
    return empty


def _visible(text: str) -> bool:
    return bool(text.replace("\u200b", "").replace("\u200d", "").strip())


def check_no_empty_elements(channel: str, payload: dict[str, Any]) -> None:
    """No empty header/section/text element, heading, bullet, quote, code block or table."""
    if channel == "slack":
        for message in payload["messages"]:
            assert _visible(message["text"]), "empty Slack fallback text"
            for block in message["blocks"]:
                texts = [block["text"]["text"]] if "text" in block else []
                texts += [e["text"] for e in block.get("elements", []) if "url" not in e]
                for text in texts:
                    assert _visible(text), f"empty Slack {block['type']} text"
                    assert text.strip() not in ("**", "``", "```\n```", "```\n\n```", "•")
    elif channel in ("web", "email"):
        markup = payload["html"]
        assert not _EMPTY_HTML.search(markup), _EMPTY_HTML.search(markup)
    else:
        posts = (
            [m["content"] for m in payload["messages"]]
            if channel == "discord"
            else [payload["raw"], *payload.get("continued", [])]
        )
        for post in posts:
            assert _visible(post) or channel == "discord", "empty post"
            # a fence closes with as many backticks as opened it: "````" holds a "```" line
            unfenced = re.sub(
                r"^[ \t]*(`{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", "code", post, flags=re.S | re.M
            )
            assert not _EMPTY_MD_LINE.search(unfenced), f"empty element in {post!r}"
            assert not empty_code_spans(unfenced), f"empty code span in {post!r}"
        if channel == "discord":
            for message in payload["messages"]:
                assert _visible(message["content"]) or message["embeds"], "empty Discord message"


CHECKS = {
    "web": check_web,
    "slack": check_slack,
    "email": check_email,
    "discord": check_discord,
    "discourse": check_discourse,
}


def code_blocks(tokens: list[dict[str, Any]]) -> list[str]:
    """The raw text of every code block in a parsed markdown tree, nested ones included."""
    found: list[str] = []
    for token in tokens:
        if token["type"] == "block_code":
            found.append(token["raw"])
        found += code_blocks(token.get("children") or [])
    return found


def shown_strings(data: Any, key: str = "") -> list[tuple[str, str]]:
    """Every string of a payload with the key it is under, except file ``path`` values (where
    the connector reads a file, never shown)."""
    if isinstance(data, dict):
        return [pair for k, v in data.items() for pair in shown_strings(v, str(k))]
    if isinstance(data, list | tuple):
        return [pair for item in data for pair in shown_strings(item, key)]
    if isinstance(data, str) and key != "path":
        return [(key, data)]
    return []


def check_no_bidi_controls(payload: dict[str, Any]) -> None:
    """No bidi embedding, override or isolate control anywhere a payload shows text."""
    for key, text in shown_strings(payload):
        found = sorted({f"U+{ord(ch):04X}" for ch in text if ch in BIDI_CONTROLS})
        assert not found, f"bidi control {found} under {key!r}: {text[:120]!r}"


# C0/C1 control codes but tab and line feed (which lay text out): a NUL or ESC shows as a
# missing-glyph box, and a platform may refuse a message holding a NUL
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def check_no_control_characters(payload: dict[str, Any]) -> None:
    """No C0/C1 control character (tab and line feed aside) anywhere a payload shows text."""
    for key, text in shown_strings(payload):
        found = sorted({f"U+{ord(ch):04X}" for ch in _CONTROL.findall(text)})
        assert not found, f"control character {found} under {key!r}: {text[:120]!r}"
