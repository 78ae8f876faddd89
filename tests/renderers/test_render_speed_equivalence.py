"""Speed-ups of the renderers that must not change what they write (bench/render.py).

Each rewritten regex is checked against the plain definition it replaced, on generated text
(each branch now starts with the character it matches, so the regex engine skips ahead instead
of trying every branch at every position). No test here measures time: bench/render.py does.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.markdown import Token, parse, plain_text
from bot.models import Answer, Citation, RecordAction, Source
from renderers import CHANNELS, render, render_all
from renderers.base import RenderContext, capabilities_for
from renderers.document import Document, decide_forms, form_key, list_shows_text, shows_text
from renderers.escaping import _SLACK_FORMATTING, slack_literal, visible
from renderers.limits import split_long
from renderers.protected_spans import PROTECTED

# the definitions as first written (a lookbehind opening a branch)
SLACK_FORMATTING_PLAIN = re.compile(r"[*~`]|(?<!\w)_|_(?!\w)")
PROTECTED_PLAIN = re.compile(
    r"\[[^\[\]\n]*(?:\[[^\[\]\n]*\][^\[\]\n]*)*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)"
    r"|<[^<>\n]*>|(?<![\\\u200d`])`(?!\u200d)(`*+)(?:[^`\n]++|`++)*?(?<![`\u200d])`\1(?!`)"
    r"|(?<!\u200d)\*(?!\u200d)[^*\n]{1,1500}(?<!\u200d)\*"
    r"|(?<![\w\u200d])_(?!\u200d)[^_\n]{1,1500}(?<!\u200d)_(?!\w)"
    r"|(?<!\u200d)~(?!\u200d)[^~\n]{1,1500}(?<!\u200d)~"
)
# the characters that matter to both patterns, plus letters, digits, spaces and a non-ASCII word
MARKUP_TEXT = st.text(alphabet=st.sampled_from(list("ab1 _*~`[]()<>\\\n.é\u200d")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(MARKUP_TEXT)
def test_slack_formatting_finds_what_its_plain_definition_finds(text: str) -> None:
    spans = [m.span() for m in _SLACK_FORMATTING.finditer(text)]
    assert spans == [m.span() for m in SLACK_FORMATTING_PLAIN.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(MARKUP_TEXT)
def test_protected_spans_are_those_of_their_plain_definition(text: str) -> None:
    assert [m.span() for m in PROTECTED.finditer(text)] == [
        m.span() for m in PROTECTED_PLAIN.finditer(text)
    ]


def test_slack_literal_still_joins_marks_but_not_snake_case() -> None:
    assert slack_literal("snake_case _it_ *b*") == (
        "snake_case \u200d_\u200dit\u200d_\u200d \u200d*\u200db\u200d*\u200d"
    )


def test_a_cut_still_never_falls_inside_italics() -> None:
    text = "word " * 20 + "_" + "in italics " * 6 + "end_ " + "tail " * 20
    pieces = split_long(text, 120)
    assert all(piece.count("_") % 2 == 0 for piece in pieces)


def _plain_links() -> Answer:
    sources = [
        Source(id=f"s{n}", title=f"Guide {n}", url=f"https://kb.example/{n}", page=n)
        for n in (1, 2)
    ]
    return Answer(
        text="Install it.[^1] Then restart.[^2]",
        citations=tuple(Citation(n, s, n, quote="a quote") for n, s in enumerate(sources, 1)),
    )


def test_forms_of_plain_links_are_decided_once_for_every_channel() -> None:
    citations = _plain_links().citations
    keys = {form_key(capabilities_for(channel), citations) for channel in CHANNELS}
    assert len(keys) == 1
    context = RenderContext()
    forms = {c: decide_forms(citations, capabilities_for(c), context) for c in CHANNELS}
    assert all(f == forms["web"] for f in forms.values())


def test_a_record_action_still_keys_forms_by_buttons() -> None:
    record = Source(
        id="r", title="Plan", kind="record", url="https://shop.example/p",
        action=RecordAction(label="Order", url="https://shop.example/cart"),
    )  # fmt: skip
    citations = (*_plain_links().citations, Citation(3, record, 3))
    slack, discourse = capabilities_for("slack"), capabilities_for("discourse")
    assert slack.buttons != discourse.buttons
    assert form_key(slack, citations) != form_key(discourse, citations)
    answer = Answer(text="Order it.[^3] Install it.[^1]", citations=citations)
    context = RenderContext(public_base_url="https://b.example", turn_id="1")
    assert render_all(answer, context) == {c: render(c, answer, context) for c in CHANNELS}


def test_the_source_list_of_a_document_is_worked_out_once() -> None:
    answer = _plain_links()
    caps = capabilities_for("web")
    context = RenderContext()
    doc = Document(answer, caps, context, decide_forms(answer.citations, caps, context), (2, 1))
    assert [form.n for form in doc.listed] == [1, 2]
    assert doc.listed is doc.listed  # read by each step of assembling a payload


# list items and table cells that show nothing, or only a citation, a code span or an entity
LIST_OR_TABLE = st.lists(
    st.sampled_from(
        ["- ", "- a", "-  \u200b", "1. `x`", "- [^2]", "- &nbsp;", "  - b", "- <br>", "- **", "\n",
         "| h |", "|---|", "| `` |", "| c |", "> q", "*", " ", "\\", "[l](http://x.y)"]
    ),
    max_size=8,
).map("\n".join)  # fmt: skip


def _blocks(tokens: list[Token]) -> list[Token]:
    found: list[Token] = []
    for token in tokens:
        if token["type"] in ("list", "table_cell", "list_item"):
            found.append(token)
        found += _blocks(token.get("children") or [])
    return found


@settings(max_examples=300, deadline=None)
@given(LIST_OR_TABLE)
def test_whether_a_list_or_cell_shows_text_is_read_as_from_its_plain_text(text: str) -> None:
    for token in _blocks(parse(text)):
        children = token.get("children") or []
        if token["type"] == "list":
            expected = any(visible(plain_text(item.get("children") or [])) for item in children)
            assert list_shows_text(token) == expected
        else:
            assert shows_text([[children]]) == visible(plain_text(children))
