"""Platform limits: long answers split at block boundaries, sources always arrive."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.markdown import parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import truncate
from tests.renderers.payload_checks import (
    check_discord,
    check_discourse,
    check_email,
    check_slack,
    code_blocks,
    slack_context_texts,
)

SENTENCE = "The gateway caches every policy it has seen so a restart keeps its state. "


def web_sources(k: int, title: str = "Article") -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(id=f"s{n}", title=f"{title} {n}", url=f"https://kb.example/{n}"), n)
        for n in range(1, k + 1)
    )


def files(k: int) -> tuple[Citation, ...]:
    return tuple(
        Citation(n, Source(id=f"f{n}", title=f"File {n}", filename=f"f{n}.pdf",
                           path=f"kb/f{n}.pdf", media_type="application/pdf"), n)
        for n in range(1, k + 1)
    )  # fmt: skip


def long_answer(paragraphs: int, k: int = 5) -> Answer:
    text = "\n\n".join(SENTENCE * 8 + f"[^{(i % k) + 1}]" for i in range(paragraphs))
    return Answer(text=text, citations=web_sources(k))


def fences_balanced(text: str) -> bool:
    return len(re.findall(r"^```", text, re.M)) % 2 == 0


CODE = (
    "```python\n"
    + "\n".join(f"value_{i} = {i}  # a long line of code" for i in range(400))
    + "\n```"
)


# --- Slack ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "limit", "cut"),
    [
        ("short enough", 20, "short enough"),
        ("the link expires after one hour", 26, "the link expires after…"),  # a whole word
        ("the link expires after one hour", 10, "the link…"),
        ("supercalifragilistic word", 10, "supercali…"),  # no word ends late enough
        ("a b", 2, "a…"),
    ],
)
def test_truncate_ends_after_a_whole_word_within_the_limit(text: str, limit: int, cut: str) -> None:
    assert truncate(text, limit) == cut
    assert len(cut) <= limit


def test_slack_sixty_sources_fill_context_blocks_of_ten() -> None:
    answer = Answer(
        text=" ".join(f"Fact {n}.[^{n}]" for n in range(1, 61)), citations=web_sources(60)
    )
    payload = render("slack", answer)
    check_slack(payload)
    contexts = [b for m in payload["messages"] for b in m["blocks"] if b["type"] == "context"]
    assert [len(b["elements"]) for b in contexts] == [10] * 6
    joined = " ".join(e["text"] for b in contexts for e in b["elements"])
    assert all(f"<https://kb.example/{n}|[{n}] Article {n}>" in joined for n in range(1, 61))


def test_slack_long_answer_splits_into_sections_and_messages() -> None:
    answer = long_answer(400)
    payload = render("slack", answer)
    check_slack(payload)
    assert len(payload["messages"]) > 1
    sections = [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]
    assert "\n\n".join(sections).count(SENTENCE.strip()) == 400 * 8
    assert all(len(m["text"]) <= 3000 for m in payload["messages"])
    assert payload["messages"][-1]["blocks"][-1]["type"] == "context"


def test_slack_code_longer_than_a_section_reopens_its_fence() -> None:
    payload = render("slack", Answer(text=CODE))
    check_slack(payload)
    sections = [b["text"]["text"] for m in payload["messages"] for b in m["blocks"]]
    assert len(sections) > 1
    assert all(fences_balanced(s) for s in sections)
    assert sum(s.count("= ") for s in sections) == 400


def test_slack_header_is_cut_to_150_characters() -> None:
    payload = render("slack", Answer(text="# " + "Very long heading " * 20 + "\n\nBody."))
    header = payload["messages"][0]["blocks"][0]
    assert header["type"] == "header" and 140 <= len(header["text"]["text"]) <= 150
    assert header["text"]["text"].endswith("\u2026")


def test_slack_header_with_angle_brackets_stays_within_150_characters() -> None:
    # each "<" gains a zero-width joiner (so "<!channel>" cannot form): count it before the cut
    payload = render("slack", Answer(text="# " + "a <!channel> " * 12 + "\n\nBody."))
    header = payload["messages"][0]["blocks"][0]
    assert header["type"] == "header" and len(header["text"]["text"]) <= 150
    assert "<!" not in header["text"]["text"]


def test_slack_lists_every_one_of_230_sources_over_further_messages() -> None:
    answer = Answer(text=" ".join(f"[^{n}]" for n in range(1, 231)), citations=web_sources(230))
    ctx = RenderContext(public_base_url="https://bot.example", turn_id="t9")
    payload = render("slack", answer, ctx)
    check_slack(payload)
    elements = slack_context_texts(payload)
    assert len(elements) == 230 and not any(e.endswith(" more>") for e in elements)
    assert len(payload["messages"]) > 1


# --- Discord -------------------------------------------------------------------------------


def test_discord_long_answer_splits_at_blocks_and_keeps_every_source_line_whole() -> None:
    answer = long_answer(30, k=40)
    payload = render("discord", answer)
    check_discord(payload)
    assert len(payload["messages"]) > 3
    contents = [m["content"] for m in payload["messages"]]
    for n in range(1, 31):
        line = f"\\[{n}\\] [Article {n}](<https://kb.example/{n}>)"
        assert sum(line in c for c in contents) == 1
    assert all(m["flags"] == 4 for m in payload["messages"])


def test_discord_code_block_split_keeps_fences_balanced() -> None:
    payload = render("discord", Answer(text=CODE))
    check_discord(payload)
    assert len(payload["messages"]) > 1
    assert all(fences_balanced(m["content"]) for m in payload["messages"])


def test_discord_attaches_at_most_ten_files_then_signed_links() -> None:
    answer = Answer(text=" ".join(f"[^{n}]" for n in range(1, 13)), citations=files(12))
    ctx = RenderContext(signer=lambda s: f"https://bot.example/files/{s.id}")
    payload = render("discord", answer, ctx)
    check_discord(payload)
    assert [f["n"] for f in payload["files"]] == list(range(1, 11))
    content = "\n".join(m["content"] for m in payload["messages"])
    assert "(<https://bot.example/files/f11>)" in content and "f12" in content


def test_discord_embeds_hold_their_limits() -> None:
    caps = dataclasses.replace(capabilities_for("discord"), embeds=True)
    answer = Answer(
        text=" ".join(f"[^{n}]" for n in range(1, 61)), citations=web_sources(60, "T" * 90)
    )
    payload = render("discord", answer, RenderContext(capabilities=caps))
    check_discord(payload)
    embeds = [e for m in payload["messages"] for e in m["embeds"]]
    assert len(embeds) > 1
    assert all(m["flags"] == 0 for m in payload["messages"])
    assert "\n".join(e["description"] for e in embeds).count("https://kb.example/") == 60


# --- Discourse -----------------------------------------------------------------------------


def test_discourse_limit_from_capabilities_splits_posts_with_their_own_footnotes() -> None:
    caps = capabilities_for("discourse", {"max_chars": 3000})
    payload = render("discourse", long_answer(20), RenderContext(capabilities=caps))
    check_discourse(payload, limit=3000)
    posts = [payload["raw"], *payload["continued"]]
    assert len(posts) > 3
    for post in posts:
        used = set(re.findall(r"\[\^(\d+)\](?!:)", post))
        defined = set(re.findall(r"^\[\^(\d+)\]:", post, re.M))
        assert used == defined


def test_a_long_code_block_inside_a_list_item_splits_into_whole_code_blocks() -> None:
    # the piece used to close the fence at column 0, which ends the list item and opens an
    # empty code block; the next piece kept the list's indent inside its code
    lines = [f"value_{i} = {i} * 12345  # a comment that is long enough" for i in range(60)]
    code = "\n".join("   " + line for line in lines)
    text = f"Steps:\n\n1. Install it:\n\n   ```python\n{code}\n   ```\n\n2. Run it.\n"
    caps = capabilities_for("discourse", {"max_chars": 1500})
    payload = render("discourse", Answer(text=text), RenderContext(capabilities=caps))
    check_discourse(payload, limit=1500)
    posts = [payload["raw"], *payload["continued"]]
    assert len(posts) > 2
    blocks = [block for post in posts for block in code_blocks(parse(post))]
    assert len(blocks) == len(posts)
    assert "".join(blocks).splitlines() == lines
    assert "Run it." in posts[-1] and all("Run it." not in block for block in blocks)


def test_discourse_compacts_definitions_only_when_forced() -> None:
    caps = capabilities_for("discourse", {"max_chars": 1500})
    answer = Answer(
        text=" ".join(f"[^{n}]" for n in range(1, 41)), citations=web_sources(40, "T" * 60)
    )
    payload = render(
        "discourse",
        answer,
        RenderContext(capabilities=caps, public_base_url="https://b.example", turn_id="7"),
    )
    check_discourse(payload, limit=1500)  # every footnote defined in its own post
    posts = [payload["raw"], *payload.get("continued", [])]
    assert "more sources" not in "\n".join(posts)
    for n in range(1, 41):  # shortened titles, every link kept
        # (in a continued post, shown as another number, the definition names its own first)
        entry = re.compile(rf"^\[\^{n}\]: (?:\\\[{n}\\\] )?\[TTTTT", re.M)
        assert sum(bool(entry.search(p)) and f"(https://kb.example/{n})" in p for p in posts) == 1
    full = render("discourse", answer)["raw"]
    assert f"[^40]: [{'T' * 60} 40](https://kb.example/40)" in full  # not compacted unforced


# --- Email ---------------------------------------------------------------------------------


def test_email_html_stays_under_100_kb_and_the_text_part_keeps_everything() -> None:
    answer = long_answer(600)
    payload = render("email", answer)
    check_email(payload)
    assert len(answer.text) > 100_000
    assert "shortened to fit" in payload["html"]
    assert "the plain-text version of this email has all of it" in payload["html"]
    assert payload["text"].count(SENTENCE.strip()) == 600 * 8


def test_a_shortened_email_links_the_whole_answer_when_the_deployment_has_a_page_for_it() -> None:
    # most HTML mail clients never show the plain-text part: point at the turn page instead
    context = RenderContext(public_base_url="https://bot.example", turn_id="t7")
    payload = render("email", long_answer(600), context)
    check_email(payload)
    assert (
        '<a href="https://bot.example/turns/t7" style="color:#0b62d6;">read the whole answer'
        in (payload["html"])
    )


def test_the_subject_taken_from_the_answer_carries_no_citation_markers() -> None:
    answer = Answer(
        text="# Pricing overview [^1] [^2]\n\nThe Team plan costs 8 EUR.[^1]",
        citations=web_sources(2),
    )
    assert render("email", answer)["subject"] == "Pricing overview"
    # a bracketed number that is not a citation is the answer's own text
    assert render("email", Answer(text="Use items[3] first."))["subject"] == "Use items[3] first."


def test_email_over_budget_drops_the_quotes_before_shortening_the_body() -> None:
    quoted = tuple(dataclasses.replace(c, quote="Q" * 250) for c in web_sources(30))
    answer = Answer(text=" ".join(f"Fact {n}.[^{n}]" for n in range(1, 31)), citations=quoted)
    with_quotes = len(render("email", answer)["html"].encode("utf-8"))
    bare = dataclasses.replace(answer, citations=web_sources(30))
    without_quotes = len(render("email", bare)["html"].encode("utf-8"))
    caps = capabilities_for("email", {"max_chars": (with_quotes + without_quotes) // 2})
    payload = render("email", answer, RenderContext(capabilities=caps))
    assert "Q" * 250 not in payload["html"]
    assert "shortened to fit" not in payload["html"]
    assert "Fact 30." in payload["html"]
    assert "Article 30" in payload["html"]


def test_email_attachments_and_references() -> None:
    answer = Answer(text="See the files.[^1][^2]", citations=files(2))
    payload = render("email", answer, RenderContext(subject="Re: invoices"))
    check_email(payload)
    assert payload["subject"] == "Re: invoices"
    assert [a["filename"] for a in payload["attachments"]] == ["f1.pdf", "f2.pdf"]
    assert "[1] File 1 (attached: f1.pdf)" in payload["text"]


def test_an_empty_answer_is_still_a_valid_payload_everywhere() -> None:
    from renderers import CHANNELS
    from tests.renderers.payload_checks import CHECKS

    for channel in CHANNELS:
        payload = render(channel, Answer(text=""))
        CHECKS[channel](payload)
    assert render("slack", Answer(text=""))["messages"][0]["blocks"][0]["type"] == "section"
    # Discourse refuses a post shorter than its min_post_length (20 by default)
    assert len(render("discourse", Answer(text=""))["raw"]) >= 20


def test_capabilities_can_tighten_slack_and_discord_limits() -> None:
    answer = long_answer(12)
    slack_caps = capabilities_for("slack", {"max_chars": 1000, "max_blocks": 8})
    slack = render("slack", answer, RenderContext(capabilities=slack_caps))
    check_slack(slack)
    assert len(slack["messages"]) > 1
    for message in slack["messages"]:
        assert len(message["blocks"]) <= 8
        assert all(
            len(b["text"]["text"]) <= 1000 for b in message["blocks"] if b["type"] == "section"
        )
    discord_caps = capabilities_for("discord", {"max_chars": 500})
    discord = render("discord", answer, RenderContext(capabilities=discord_caps))
    check_discord(discord)
    assert all(len(m["content"]) <= 500 for m in discord["messages"])


def test_a_huge_title_stays_inside_one_discord_source_line() -> None:
    answer = Answer(text="Fact.[^1]", citations=web_sources(1, "Huge [title] " * 400))
    payload = render("discord", answer)
    check_discord(payload)
    content = "\n".join(m["content"] for m in payload["messages"])
    assert "](<https://kb.example/1>)" in content


def test_slack_record_action_without_buttons_is_a_link_in_the_context() -> None:
    from bot.models import RecordAction

    record = Source(
        id="r", kind="record", label="G1", action=RecordAction("Buy", "https://s.example/b")
    )
    answer = Answer(text="In stock.[^1]", citations=(Citation(1, record, 1),))
    caps = capabilities_for("slack", {"buttons": False})
    payload = render("slack", answer, RenderContext(capabilities=caps))
    check_slack(payload)
    blocks = payload["messages"][0]["blocks"]
    assert [b["type"] for b in blocks] == ["section", "context"]
    assert blocks[1]["elements"][0]["text"] == "[1] G1 \u00b7 <https://s.example/b|Buy>"
    huge = Source(id="h", title="T" * 5000, url="https://s.example/h")
    element = render("slack", Answer("x[^1]", (Citation(1, huge, 1),)))["messages"][0]["blocks"][1]
    assert element["elements"][0]["text"].endswith("\u2026>")


def test_the_email_text_part_lists_every_reference_past_the_html_cap() -> None:
    answer = Answer(
        text=" ".join(f"Fact {n}.[^{n}]" for n in range(1, 251)), citations=web_sources(250)
    )
    payload = render("email", answer)
    check_email(payload)
    for n in (1, 200, 201, 250):
        assert f"[{n}] Article {n}" in payload["text"]
    assert "more" not in payload["text"].split("Sources", 1)[1]


def test_a_post_shorter_than_the_forum_minimum_gets_a_note() -> None:
    from renderers.discourse import forum_length

    uncited = render("discourse", Answer(text="No."))["raw"]
    assert uncited == "No.\n\n*(A short answer; it cites no sources.)*"
    # Discourse counts an :emoji: and a run of dots as one character each
    assert forum_length("Yes :smile: ....") == 7
    assert "short answer" in render("discourse", Answer(text="Yes :smile: ..........."))["raw"]
    relaxed = capabilities_for("discourse", {"min_chars": 0})
    assert (
        render("discourse", Answer(text="No."), RenderContext(capabilities=relaxed))["raw"] == "No."
    )
    assert (
        render("discourse", Answer(text="Twenty-one characters"))["raw"] == "Twenty-one characters"
    )
