"""Slack: message text budget, whole source entries, tables, quotes, headers, the fallback
text, literal titles and code with backticks (QA review 3)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.models import Answer, Citation, RecordAction, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import SLACK_MAX_BLOCKS_TEXT, SLACK_MAX_CONTEXT_TEXT
from renderers.slack import header_text
from tests.fakes.slack_blocks import validate_blocks
from tests.renderers.payload_checks import check_slack, slack_block_text, slack_context_texts

ZWJ = "\u200d"
SENTENCE = "Sentence {i} states a fact about the system and explains it at length."
LONG_TITLE = "Source document {n} — with an extraordinarily long descriptive subtitle " * 3


def web_source(n: int, title: str = "Guide {n}", url: str = "https://docs.example/{n}") -> Source:
    return Source(id=f"s{n}", title=title.format(n=n), url=url.format(n=n))


def cite(*sources: Source) -> tuple[Citation, ...]:
    return tuple(Citation(n, source, n) for n, source in enumerate(sources, 1))


def sections(payload: dict[str, Any]) -> list[str]:
    return [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]


def qa_long_answer() -> Answer:
    """As QA's: 60 sources with long titles and some 14 KB of answer, one message of 62,050
    characters of block text before the budget."""
    parts = [
        f"## Section {p}\n\n"
        + " ".join(SENTENCE.format(i=f"{p}.{i}") + f"[^{(p * 5 + i) % 60 + 1}]" for i in range(5))
        + f"\n\n- bullet one with `code` [^{p % 60 + 1}]\n- bullet two"
        for p in range(40)
    ]
    parts.append("Finally " + " ".join(f"[^{n}]" for n in range(1, 61)) + ".")
    url = "https://docs.example.com/page/{n}?ref=a&b=c"
    sources = [web_source(n, LONG_TITLE, url) for n in range(1, 61)]
    return Answer(text="\n\n".join(parts), citations=cite(*sources))


# --- 1. the text of one message's blocks ----------------------------------------------------


def test_a_long_answer_is_split_by_the_block_text_budget() -> None:
    answer = qa_long_answer()
    assert len(answer.text) > 14_000
    payload = render("slack", answer)
    check_slack(payload)
    messages = payload["messages"]
    assert len(messages) > 2
    for message in messages:
        assert slack_block_text(message["blocks"]) <= SLACK_MAX_BLOCKS_TEXT
        assert validate_blocks(message["blocks"]) == []  # what the fake Slack takes
    assert [m["text"] for m in messages[1:]] == ["(continued)"] * (len(messages) - 1)
    body = "\n\n".join(sections(payload))
    assert all(f"*Section {p}*" in body for p in range(40))
    listed = slack_context_texts(payload)
    for n in range(1, 61):
        assert sum(f"|[{n}] Source document {n} " in e for e in listed) == 1, n


def test_context_blocks_of_long_entries_are_split_between_messages() -> None:
    # ten entries of some 1,900 characters would be one context block of 19,000
    url = "https://docs.example/{n}?q=" + "x" * 1850
    citations = cite(*(web_source(n, url=url) for n in range(1, 11)))
    answer = Answer(" ".join(f"[^{n}]" for n in range(1, 11)), citations)
    payload = render("slack", answer)
    check_slack(payload)
    assert len(payload["messages"]) >= 2
    listed = slack_context_texts(payload)
    assert len(listed) == 10 and all(len(e) > 1850 for e in listed)


def test_the_budget_holds_with_tightened_capabilities() -> None:
    caps = capabilities_for("slack", {"max_chars": 1000, "max_blocks": 8})
    payload = render("slack", qa_long_answer(), RenderContext(capabilities=caps))
    check_slack(payload)
    assert all(len(m["blocks"]) <= 8 for m in payload["messages"])


# --- 2. whole source entries -----------------------------------------------------------------


def test_a_source_whose_link_cannot_fit_shows_its_title_whole() -> None:
    long_url = "https://example.com/search?q=" + "abcdefghij" * 250
    answer = Answer("Fact.[^1]", cite(web_source(1, "Long URL source", long_url)))
    payload = render("slack", answer)
    check_slack(payload)
    [entry] = slack_context_texts(payload)
    assert entry == "[1] Long URL source (link too long to show)"
    # the inline citation still links: the link fits in a section
    assert sections(payload) == [f"Fact.<{long_url}|[1]>"]


def test_a_link_too_long_for_a_section_is_a_plain_marker() -> None:
    long_url = "https://example.com/search?q=" + "abcdefghij" * 400
    answer = Answer("Fact.[^1]", cite(web_source(1, "Huge", long_url)))
    payload = render("slack", answer)
    check_slack(payload)
    assert sections(payload) == ["Fact.[1]"]
    assert slack_context_texts(payload) == ["[1] Huge (link too long to show)"]


def test_a_record_action_too_long_for_a_button_or_a_link_shows_its_label() -> None:
    action = RecordAction("Open *order*", "https://shop.example/o?q=" + "z" * 3000)
    record = Source(
        id="r",
        kind="record",
        label="Order 7",
        url="https://shop.example/7",
        columns={"status": "shipped"},
        action=action,
    )
    citation = Citation(1, record, 1, columns=("status",))
    payload = render("slack", Answer("Shipped.[^1]", (citation,)))
    check_slack(payload)
    assert all(b["type"] != "actions" for m in payload["messages"] for b in m["blocks"])
    [entry] = slack_context_texts(payload)
    assert entry.startswith("<https://shop.example/7|[1] Order 7>")
    assert entry.endswith(f" \u00b7 status: shipped \u00b7 Open {ZWJ}*{ZWJ}order{ZWJ}*{ZWJ}")
    assert len(entry) <= SLACK_MAX_CONTEXT_TEXT


@pytest.mark.parametrize("char", ["&", "*", "a"])
def test_every_part_of_an_entry_is_bounded_before_escaping(char: str) -> None:
    source = Source(
        id="s",
        title=char * 5000,
        url="https://e.example/" + "u" * 1500,
        section=char * 5000,
        page=3,
        filename=char * 900 + ".pdf",
    )
    payload = render("slack", Answer("x[^1]", (Citation(1, source, 1),)))
    check_slack(payload)
    [entry] = slack_context_texts(payload)
    assert entry.startswith("<https://e.example/") and "\u2026>" in entry
    assert not re.search(r"&[a-z]*\u2026", entry), "cut inside an entity"


# --- 3. tables and quotes --------------------------------------------------------------------

WIDE_TABLE = (
    "| Name | Price | Notes |\n|:-----|------:|:-----:|\n"
    "| Team | $19 | up to 50 seats, email support within two business days [^1] |\n"
    "| Business | $49 | *chat* support [^2] |\n"
    "| Enterprise | contact | `24/7` |\n"
)


def test_a_wide_table_links_its_citations_and_keeps_formatting() -> None:
    answer = Answer(WIDE_TABLE, cite(web_source(1), web_source(2)))
    payload = render("slack", answer)
    check_slack(payload)
    [text] = sections(payload)
    notes = "*Notes*: up to 50 seats, email support within two business days"
    assert f"{notes}\u00a0<https://docs.example/1|[1]>" in text
    assert "*Notes*: _chat_ support\u00a0<https://docs.example/2|[2]>" in text
    assert "*Notes*: `24/7`" in text


def test_a_nested_quote_is_quoted_once_without_bare_markers() -> None:
    text = "> Quote para one [^1]\n>\n> > Nested quote [^2]\n>\n> - list in quote"
    payload = render("slack", Answer(text, cite(web_source(1), web_source(2))))
    check_slack(payload)
    assert sections(payload) == [
        "> Quote para one\u00a0<https://docs.example/1|[1]>\n"
        "> Nested quote\u00a0<https://docs.example/2|[2]>\n"
        "> \u2022 list in quote"
    ]


# --- 4. headers keep their citation markers --------------------------------------------------


def test_a_long_level_one_heading_keeps_its_marker() -> None:
    heading = (
        "This is an extremely long top-level heading that goes on and on well past the one "
        "hundred and fifty character limit that Slack places on header blocks [^1]"
    )
    payload = render("slack", Answer(f"# {heading}\n\nIntro.[^1]", cite(web_source(1))))
    check_slack(payload)
    header = payload["messages"][0]["blocks"][0]
    assert header["type"] == "header"
    # held to the ellipsis as it was to its word: the header may wrap, the marker stays
    assert header["text"]["text"].endswith("\u2026\u00a0[1]")
    assert len(header["text"]["text"]) <= 150


@pytest.mark.parametrize(
    ("title", "markers", "shown"),
    [
        ("Short [1]", ["[1]"], "Short [1]"),
        ("Alpha [1] " + "word " * 40 + "[2]", ["[1]", "[2]"], None),
        ("word " * 40 + "[1] [2] [3]", ["[1]", "[2]", "[3]"], None),
        ("w" * 200 + " [1]", ["[1]"], None),
    ],
)
def test_header_text_keeps_every_marker(title: str, markers: list[str], shown: str | None) -> None:
    result = header_text(title, markers)
    assert len(result) <= 150
    assert all(m in result for m in markers)
    if shown is not None:
        assert result == shown
    else:
        assert "\u2026" in result


def test_header_text_with_more_markers_than_fit_stays_within_the_limit() -> None:
    markers = [f"[{n}]" for n in range(1, 60)]
    assert len(header_text("Title " + " ".join(markers), markers)) <= 150


# --- 5. the fallback text --------------------------------------------------------------------


def test_the_fallback_is_one_clean_line() -> None:
    text = (
        "# Heading\n\nIntro [^1].\n\n## Sub heading *emph*\n\n- item e [^1]\n  - nested f\n\n"
        "1. first\n2. second\n\n> A quote\n\n| A | B |\n|---|---|\n| x | y |\n\n---\n\nEnd."
    )
    payload = render("slack", Answer(text, cite(web_source(1))))
    fallback = payload["messages"][0]["text"]
    # the no-break space holding a number to its word stays (renderers.glue)
    assert fallback == (
        "Heading Intro\u00a0[1]. Sub heading emph item e\u00a0[1] nested f first second A quote"
        " A B x y End."
    )


# --- 6. formatting characters in titles and records are literal ------------------------------


def unjoined(text: str) -> str:
    return text.replace(ZWJ, "")


def formatting_is_neutral(text: str) -> bool:
    """Every ``* _ ~ ``` has a zero-width joiner on both sides."""
    return re.search(rf"(?<!{ZWJ})[*_~`]|[*_~`](?!{ZWJ})", text) is None


def test_formatting_characters_in_a_title_are_shown_literally() -> None:
    title = "*bold* _it_ ~strike~ `code`"
    payload = render("slack", Answer("x[^1]", cite(web_source(1, title))))
    check_slack(payload)
    [entry] = slack_context_texts(payload)
    label = entry.removeprefix("<https://docs.example/1|").removesuffix(">")
    assert unjoined(label) == f"[1] {title}"
    assert formatting_is_neutral(label)


def test_formatting_characters_in_record_labels_and_values_are_literal() -> None:
    values = {"Price _x_": "~19~", "Docs": "https://d.example/a_b_c"}
    record = Source(id="r", kind="record", label="Plan *Pro*", columns=values)
    answer = Answer("x[^1]", (Citation(1, record, 1, columns=("Price _x_", "Docs")),))
    [entry] = slack_context_texts(render("slack", answer))
    assert unjoined(entry) == "[1] Plan *Pro* \u00b7 Price _x_: ~19~; Docs: https://d.example/a_b_c"
    label, columns = entry.split(" \u00b7 ")
    assert formatting_is_neutral(label)
    assert formatting_is_neutral(columns.split("; ")[0])
    assert columns.endswith("Docs: https://d.example/a_b_c")  # a URL is never broken


# --- 7. code with backticks ------------------------------------------------------------------


def test_inline_code_with_a_backtick_is_shown_exactly() -> None:
    payload = render("slack", Answer("Text with ``code with ` backtick`` and `x_y`."))
    [text] = sections(payload)
    assert "\u02bc" not in text
    assert text == f"Text with code with {ZWJ}`{ZWJ} backtick and `x_y`."
    assert unjoined(text) == "Text with code with ` backtick and `x_y`."
