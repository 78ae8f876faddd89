"""Marks that touch other text: a bare URL's underscores, a "(" after a footnote, Slack's
formatting characters inside words, and long bold or quoted text split across messages.

Each case shows what the platform would display wrong before: a broken link, a footnote
turned into a link to "TCP", stray asterisks or underscores, a quote that stops halfway.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.escaping import ZWJ
from renderers.limits import split_long

GUIDE = Citation(1, Source(id="g", title="Config guide", url="https://docs.example.com/c"), 1)
PORTS = Citation(2, Source(id="p", title="Ports", url="https://docs.example.com/p"), 2)


def answer(text: str) -> Answer:
    cited = tuple(c for c in (GUIDE, PORTS) if f"[^{c.n}]" in text)
    return Answer(text=text, citations=cited)


def slack_text(text: str) -> str:
    payload = render("slack", answer(text))
    return "\n".join(
        block["text"]["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "section"
    )


# --- Discord and Discourse -------------------------------------------------------------


def test_bare_urls_keep_their_underscores_and_stars_in_discord_and_discourse() -> None:
    text = (
        "See https://example.com/a_b_c?x=1~2 now.[^1] Mail first_last@example.com, "
        "or (https://x.example/snake_case_path)."
    )
    for channel in ("discord", "discourse"):
        payload = render(channel, answer(text))
        body = payload["messages"][0]["content"] if channel == "discord" else payload["raw"]
        assert "https://example.com/a_b_c?x=1~2 now." in body, channel
        assert "first_last@example.com" in body, channel
        # the ")" ending the sentence is not part of the link
        assert "(https://x.example/snake_case_path)." in body, channel


def test_marks_right_after_a_bare_url_are_still_escaped() -> None:
    raw = render("discourse", answer("Open https://example.com/docs_ and *this*_ too.[^1]"))["raw"]
    assert "https://example.com/docs\\_ and" in raw
    assert "|" not in render("discourse", answer("A https://x.example/a|b c.[^1]"))["raw"].split(
        "\n"
    )[0].replace("\\|", "")


def test_a_paren_after_a_footnote_is_not_a_link_target_in_discourse() -> None:
    # "[^1](TCP)" is a link labelled "^1" to the page "TCP" in Discourse (markdown-it)
    raw = render("discourse", answer("Open port 8443[^1](TCP) and 8444[^2](UDP)."))["raw"]
    assert raw.startswith("Open port 8443[^1]\\(TCP) and 8444[^2]\\(UDP).")
    assert "[^1]: [Config guide](https://docs.example.com/c)" in raw


# words joined as URLs join them; an underscore or star between punctuation would be
# emphasis in the answer's markdown already (the parser knows no bare URLs)
url_paths = st.lists(
    st.tuples(st.text("abcxyz019", min_size=1, max_size=6), st.sampled_from("_-./=?&%~")),
    min_size=1,
    max_size=6,
).map(lambda parts: "".join(word + sep for word, sep in parts) + "end")


@given(path=url_paths, after=st.sampled_from(["", " ", ". ", " and more", ")"]))
def test_any_bare_url_survives_byte_for_byte(path: str, after: str) -> None:
    url = "https://docs.example.com/" + path
    text = f"See {url}{after}[^1]"
    for channel in ("discord", "discourse"):
        payload = render(channel, answer(text))
        body = payload["messages"][0]["content"] if channel == "discord" else payload["raw"]
        assert url in body, channel


# --- Slack -------------------------------------------------------------------------------


def test_slack_shows_escaped_marks_literally_and_keeps_snake_case_copyable() -> None:
    text = "Mark fields \\*required\\* and \\~old\\~ in forms. Use foo_bar_baz names.[^1]"
    shown = slack_text(text)
    assert f"{ZWJ}*{ZWJ}required{ZWJ}*{ZWJ}" in shown
    assert f"{ZWJ}~{ZWJ}old{ZWJ}~{ZWJ}" in shown
    assert "foo_bar_baz" in shown


def test_slack_drops_marks_it_could_not_format_inside_a_word() -> None:
    # Slack formats only at word boundaries: "foo_bar_baz" would show its underscores
    shown = slack_text("Set **timeout**s. Use foo*bar*baz names. Keep *this* and **that**.[^1]")
    assert "Set timeouts." in shown
    assert "Use foobarbaz names." in shown
    assert "Keep _this_ and *that*." in shown


def test_a_bold_span_is_never_cut_between_two_slack_sections() -> None:
    filler = "The gateway keeps a local cache of every policy it has seen so a restart does not "
    filler += "lose state. "
    text = filler * 28 + "**" + (filler * 6).strip() + "**[^1] end."
    sections = slack_text(text).split("\n")
    for section in sections:
        marks = section.replace(f"{ZWJ}*{ZWJ}", "").count("*")
        assert marks % 2 == 0, section[:80]


def test_a_long_quoted_line_stays_quoted_in_every_piece() -> None:
    line = "> " + "The gateway keeps a local cache of every policy it has seen. " * 60
    pieces = split_long(line.strip(), 1000)
    assert len(pieces) > 2
    assert all(piece.startswith("> ") for piece in pieces)
    caps = capabilities_for("discord", {"max_chars": 1000})
    payload = render("discord", answer(line + "[^1]\n\nAfter."), RenderContext(capabilities=caps))
    contents = [m["content"] for m in payload["messages"]]
    quoted = [c for c in contents if "gateway" in c]
    assert len(quoted) > 2 and all(c.startswith("> ") for c in quoted)


# --- web and email -----------------------------------------------------------------------


def test_web_and_email_link_bare_urls_and_addresses_like_chat_platforms_do() -> None:
    text = (
        "See https://docs.example.com/a_b now, www.example.org/x. Mail ops@example.com, "
        "or read [https://x.example/z](https://x.example/z).[^1]"
    )
    for channel in ("web", "email"):
        html = render(channel, answer(text))["html"]
        assert re.search(r'<a href="https://docs\.example\.com/a_b"[^>]*>https://docs', html)
        assert re.search(
            r'<a href="https://www\.example\.org/x"[^>]*>www\.example\.org/x</a>\.', html
        )
        assert re.search(r'<a href="mailto:ops@example\.com"[^>]*>ops@example\.com</a>', html)
        # a URL that is already a link's text is not linked again inside it
        assert "<a" not in html.split('href="https://x.example/z"', 1)[1].split("</a>", 1)[0]


def test_a_citation_inside_link_text_follows_the_link_in_every_channel() -> None:
    # links do not nest: in HTML the citation's own link used to break out of the sup, empty
    text = "See [the guide [^1]](https://other.example/g) now."
    html = render("web", answer(text))["html"]
    link, rest = html.split('<a href="https://other.example/g"', 1)[1].split("</a>", 1)
    assert "<sup" not in link and link.endswith(">the guide")
    assert rest.startswith('<sup class="citation">\u2060<a href="')
    assert "[1]</a></sup> now." in rest
    assert "<https://other.example/g|the guide><https://docs.example.com/c|[1]> now." in (
        slack_text(text)
    )
    assert (
        "[the guide](https://other.example/g)[^1] now." in render("discourse", answer(text))["raw"]
    )


def test_bare_link_ends_where_linkifiers_end_them() -> None:
    html = render("web", answer("See https://en.wikipedia.org/wiki/Foo_(bar) now.[^1]"))["html"]
    assert '<a href="https://en.wikipedia.org/wiki/Foo_(bar)"' in html
    html = render("web", answer("Visit www. for more, or (see https://x.example/a).[^1]"))["html"]
    assert "Visit www. for more" in html and "mailto:" not in html
    assert (
        '<a href="https://x.example/a" rel="noopener noreferrer">https://x.example/a</a>).' in html
    )


def test_a_list_item_cut_mid_line_keeps_its_next_paragraph_prose() -> None:
    # the continuation paragraph kept its four-space indent and became code in the next message
    block = "- first item\n  - nested item " + "word " * 12 + "end.\n\n    Short follow-up."
    pieces = split_long(block, 70)
    assert len(pieces) > 1
    kinds = [t["type"] for piece in pieces for t in parse(piece)]
    assert "block_code" not in kinds
    assert "Short follow-up." in pieces[-1]
