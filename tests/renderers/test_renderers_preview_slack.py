"""The preview draws Slack text as Slack shows it: literal marks stay marks, real ones format.

The Slack renderer keeps a literal ``*``, ``_``, ``~`` or backtick from formatting with a
zero-width joiner on each side; the preview used to format them anyway ("*new*" in a source
title drawn bold), so it showed a Slack message Slack never shows.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.preview import mrkdwn_to_html, preview_page

MARKED = Source(id="m", title="Guide *new* _draft_ ~old~ `v2`", url="https://docs.example/g")


def slack_section(text: str) -> str:
    return str(render("slack", Answer(text=text))["messages"][0]["blocks"][0]["text"]["text"])


def shown(html: str) -> str:
    """The drawn text without tags and zero-width joiners."""
    return re.sub(r"<[^>]+>", "", html).replace("\u200d", "")


def test_literal_marks_in_answer_text_are_drawn_as_written() -> None:
    html = mrkdwn_to_html(slack_section(r"Type \*all\* or \_one\_ or \~none\~ or \`q\` now."))
    assert not re.search(r"<(b|i|s|code)>", html)
    assert shown(html) == "Type *all* or _one_ or ~none~ or `q` now."


def test_formatting_in_answer_text_is_still_drawn() -> None:
    html = mrkdwn_to_html(slack_section("Real **bold**, *it*, ~~gone~~ and `code`."))
    assert "<b>bold</b>" in html
    assert "<i>it</i>" in html
    assert "<s>gone</s>" in html
    assert "<code>code</code>" in html


def test_a_source_title_with_marks_is_drawn_as_written_in_the_context_block() -> None:
    answer = Answer(text="See.[^1]", citations=(Citation(n=1, source=MARKED, source_number=1),))
    page = preview_page(answer)
    context = page.split('<div class="context">', 1)[1].split("</div>", 1)[0]
    assert not re.search(r"<(b|i|s|code)>", context)
    assert "Guide *new* _draft_ ~old~ `v2`" in shown(context)
