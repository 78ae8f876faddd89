"""Escaping: a hostile title or file name can never break a link, a footnote or a mention."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import Token, parse
from renderers.escaping import md_text, md_url, no_mentions, one_line, slack_link_text, slack_url
from renderers.markdown_links import masked_link

NASTY = st.text(
    alphabet=st.sampled_from(list("[]()|*_<>`\\!#@~\n :/^aZ9")), min_size=1, max_size=40
)
URLS = st.sampled_from(
    [
        "https://e.example/a",
        "https://e.example/a)b(c",
        "https://e.example/<x>",
        "mailto:a@b.example",
    ]
)


def links(tokens: list[Token]) -> list[Token]:
    found: list[Token] = []
    for token in tokens:
        if token["type"] == "link":
            found.append(token)
        found.extend(links(token.get("children") or []))
    return found


def text_of(tokens: list[Token]) -> str:
    return "".join(
        str(t.get("raw", "")) if "children" not in t else text_of(t["children"]) for t in tokens
    )


@given(title=NASTY, url=URLS)
def test_markdown_link_title_cannot_break_out(title: str, url: str) -> None:
    markup = f"x {masked_link(md_text(title), url, 'discourse')} y"
    found = links(parse(markup))
    assert len(found) == 1
    assert found[0]["attrs"]["url"] == md_url(url)
    assert text_of(found[0]["children"]) == one_line(title)


@given(title=NASTY, n=st.integers(1, 99), url=URLS)
def test_footnote_definition_title_stays_one_definition(title: str, n: int, url: str) -> None:
    definition = f"[^{n}]: {masked_link(md_text(title), url, 'discourse')}, p. 3"
    assert "\n" not in definition
    assert definition.count("](") == 1 + md_text(title).count("](")
    assert re.fullmatch(rf"\[\^{n}\]: \[.*\]\([^ ]*\), p\. 3", definition)


@given(title=NASTY, url=URLS)
def test_slack_link_text_and_url_cannot_close_the_link(title: str, url: str) -> None:
    link = f"<{slack_url(url)}|{slack_link_text(title)}>"
    assert link.count("<") == 1 and link.count(">") == 1 and link.count("|") == 1


@given(text=st.text(alphabet=st.sampled_from(list("@everyonhr<#!&: 123")), max_size=40))
def test_no_mentions_never_leaves_a_ping(text: str) -> None:
    safe = no_mentions(text).lower()
    assert "@everyone" not in safe and "@here" not in safe
    assert not re.search(r"<[@#]", safe)
