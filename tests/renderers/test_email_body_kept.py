"""The email's HTML part, shortened to fit its budget, keeps the start of the answer.

Found by QA (emailqa): with ``capabilities.email.max_chars`` tightened to 2,500-4,000, "Which
plans are available and what do they cost?" got an HTML part of only "Sources", the list and
the "shortened" note (2,511 bytes of 4,000, the body empty). The body was shortened by whole
blocks (three quarters of them at a time), so an answer of one block, a list or a paragraph,
went straight to nothing; Gmail and Outlook show only the HTML part. Now the block that does
not fit whole is cut inside: after a list item or table row, else at a sentence end, never
inside a link, a citation marker or a tag; a table that fits not even one row is left out
whole, and the body says so.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, Show, capabilities_for
from renderers.email_cut import cuts, piece
from tests.renderers.payload_checks import check_email

SHORTENED = "This answer was shortened to fit in an email"


def sources(count: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(id=f"p{n}", title=f"Plan {n}", url=f"https://example.com/p/{n}"), n)
        for n in range(1, count + 1)
    )


def five_plans() -> Answer:
    items = "\n".join(
        f"- Plan {n}: Tier: t{n}; Price (USD): {n * 10}; Seats: up to {n * 50}; Support:"
        f" email within {n} business days and a long description of what it covers [^{n}]."
        for n in range(1, 6)
    )
    return Answer(text=items, citations=sources(5))


def email_html(
    answer: Answer,
    budget: int,
    public_base_url: str | None = None,
    turn_id: str | None = None,
    show: Show = "cited",
) -> str:
    caps = capabilities_for("email", {"max_chars": budget})
    context = RenderContext(
        capabilities=caps, public_base_url=public_base_url, turn_id=turn_id, show=show
    )
    payload = render("email", answer, context)
    check_email(payload)
    html = str(payload["html"])
    assert len(html.encode("utf-8")) < budget
    return html


def body_of(html: str) -> str:
    """The answer's part of the HTML: after the subject and the frame, above the source list
    and the note."""
    html = html.split('color:#1f2328;">', 1)[1]
    return re.split(r"<h2 [^>]*>Sources</h2>|<p style=\"font-size:13px;", html, maxsplit=1)[0]


def test_a_one_list_answer_keeps_its_first_items_under_a_tightened_budget() -> None:
    for budget in (2_500, 3_000):
        html = email_html(five_plans(), budget)
        body = body_of(html)
        assert "Plan 1: Tier: t1" in body  # the start of the answer, not only its sources
        assert "Plan 5: Tier" not in body
        assert body.count("<li") == body.count("</li>") >= 1  # whole items, closed
        assert SHORTENED in html and "the plain-text version of this email has all of it" in html
    linked = email_html(five_plans(), 2_500, public_base_url="https://bot.example", turn_id="t7")
    assert "Plan 1: Tier: t1" in body_of(linked) and "read the whole answer" in linked


def test_a_one_paragraph_answer_is_cut_at_a_sentence_with_its_citation() -> None:
    sentence = (
        "Alpha beta gamma delta epsilon.[^1] Zeta eta theta [the iota guide](https://x.example/i)"
        " kappa lambda mu. "
    )
    answer = Answer(text=sentence * 20, citations=sources(1))
    body = body_of(email_html(answer, 2_500))
    assert "Alpha beta gamma delta epsilon." in body
    # the cut falls after a sentence and the marker citing it, never inside a link
    assert re.search(r"(?:mu\.|\[1\]</a></sup>)</p>\s*$", body), body[-300:]
    assert body.count("<a ") == body.count("</a>")


def test_a_cut_never_separates_a_sentence_from_its_marker() -> None:
    mark = '<sup>\u2060<a href="#ref-1">[1]</a></sup>'
    block = f'<p>One two.{mark} Three <a href="u">four. five</a> six.</p>'
    pieces = [piece(block, cut) for cut in cuts(block)]
    assert f"<p>One two.{mark}</p>" in pieces
    assert "<p>One two.</p>" not in pieces
    assert all("four.</a>" not in p and not p.endswith("four.</p>") for p in pieces)


def test_a_nested_list_keeps_the_item_text_before_its_sublist() -> None:
    text = "- First item [^1]\n  - nested " + "word " * 400 + "\n- Second item\n"
    body = body_of(email_html(Answer(text=text, citations=sources(1)), 2_200))
    assert "First item" in body
    assert body.count("<ul") == body.count("</ul>") and body.count("<li") == body.count("</li>")


def test_a_table_keeps_its_header_and_first_rows_or_is_said_to_be_left_out() -> None:
    rows = "".join(f"| row {n} | value {n} [^1] |\n" for n in range(40))
    table = Answer(text="| Name | Value |\n|---|---|\n" + rows, citations=sources(1))
    body = body_of(email_html(table, 2_500))
    assert "<th" in body and "row 0" in body and "row 39" not in body
    assert body.count("<tr") == body.count("</tr>") and "</table>" in body
    assert "left out" not in body
    wide = "| " + " | ".join(f"Column {n}" for n in range(60)) + " |\n"
    wide += "|" + "---|" * 60 + "\n| " + " | ".join(f"cell {n}" for n in range(60)) + " |\n"
    body = body_of(email_html(Answer(text=wide), 2_000))
    assert "<table" not in body
    assert "(A table is left out here.)" in body


def test_code_is_cut_at_a_line() -> None:
    code = "```python\n" + "".join(f"value_{n} = compute({n})\n" for n in range(200)) + "```"
    body = body_of(email_html(Answer(text=code), 2_500))
    assert "value_0 = compute(0)" in body
    assert re.search(r"compute\(\d+\)</code></pre>\s*$", body)


# --- the property ---------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "theta",
        "kappa",
        "lambda",
        "sigma",
        "omega",
        "plan",
        "price",
        "seat",
    ]
)


@st.composite
def sentences(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, min_size=2, max_size=14))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(words) - 1))
        words[at] = f"[{words[at]}](https://example.com/{words[at]})"
    mark = draw(st.sampled_from(["", "[^1]", " [^2]", "[^3][^1]"]))
    return " ".join(words).capitalize() + "." + mark


@st.composite
def blocks(draw: st.DrawFn) -> tuple[str, str]:
    """A block and its first piece (what it keeps at least when there is room for that)."""
    kind = draw(st.sampled_from(["paragraph", "list", "nested", "table", "code"]))
    if kind == "paragraph":
        said = draw(st.lists(sentences(), min_size=1, max_size=30))
        return " ".join(said), said[0]
    if kind in ("list", "nested"):
        items = draw(st.lists(sentences(), min_size=1, max_size=30))
        lines = [f"- {item}" for item in items]
        if kind == "nested":
            lines.insert(1, "  - " + draw(sentences()))
        return "\n".join(lines), lines[0]
    if kind == "table":
        cells = draw(st.lists(st.tuples(WORDS, sentences()), min_size=1, max_size=40))
        rows = [f"| {a} | {b} |" for a, b in cells]
        head = "| Name | Value |\n|---|---|\n"
        return head + "\n".join(rows), head + rows[0]
    lines = [f"{w}_{n} = {n}" for n, w in enumerate(draw(st.lists(WORDS, min_size=1)))]
    return "```\n" + "\n".join(lines) + "\n```", "```\n" + lines[0] + "\n```"


def words_of(markdown: str) -> str:
    """The first two words ``markdown`` shows, as text."""
    lines = [line for line in markdown.splitlines() if line.strip(" `") and "---" not in line]
    shown = re.sub(r"\[([^\]^]*)\]\([^)]*\)|\[\^\d+\]", r"\1", lines[0])
    return " ".join(shown.strip("-| ").split("|")[0].split()[:2]).rstrip(".")


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@settings(max_examples=60)
@given(
    first=blocks(),
    rest=st.lists(blocks(), max_size=4),
    # mostly tightened budgets (where the body is cut), and any up to the 100 KB default
    budget=st.integers(1_500, 8_000) | st.integers(1_500, 100_000),
)
def test_the_body_keeps_its_first_blocks_start_whenever_there_is_room_for_it(
    first: tuple[str, str], rest: list[tuple[str, str]], budget: int
) -> None:
    text = "\n\n".join([first[0], *(block for block, _ in rest)])
    answer = Answer(text=text, citations=sources(3))
    # every source listed: the first piece alone has the same list as the whole answer
    html = email_html(answer, budget, show="all")  # within the budget, sanitized
    # the first piece alone, whole and with the list, plus room for the "shortened" note
    alone = email_html(Answer(text=first[1], citations=sources(3)), budget, show="all")
    room = len(alone.encode("utf-8")) + 600 < budget and SHORTENED not in alone
    start = words_of(first[1])
    if room and "more</a>" not in alone and " more (the plain-text" not in alone:
        assert start in text_of(body_of(html)), (start, body_of(html)[-400:])
    last_words = words_of(rest[-1][1] if rest else first[1])
    if SHORTENED not in html:
        assert last_words in text_of(body_of(html))  # nothing is missing without the note saying so


def test_a_list_cut_to_and_n_more_still_leaves_the_answer_its_start() -> None:
    long_sources = tuple(
        Citation(
            n,
            Source(
                id=f"s{n}",
                title=f"Title {n} " + "long " * 400,
                url=f"https://d.example/{n}/" + "a" * 1500,
            ),
            n,
        )
        for n in range(1, 61)
    )
    text = " ".join(f"Claim number {n} holds [^{n}]." for n in range(1, 61))
    html = email_html(Answer(text=text, citations=long_sources), 4_000)
    assert "Claim number 1 holds" in text_of(body_of(html))  # was only the list
    more = re.search(r"and (\d+) more", html)
    shown = len(re.findall(r"<li id=\"ref-\d+\"", html))
    assert more is not None and shown >= 1 and shown + int(more.group(1)) == 60
    assert SHORTENED in html
