"""Discourse may start a mention after punctuation, "@" included: "@@everyone" must not ping."""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.escaping import no_forum_mentions

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
SOURCE = Source(id="s", title="G", url="https://d.example/1")


@pytest.mark.parametrize("text", ["a @@everyone b", "a @@here b", "a @@@here b", "a _@here b"])
def test_a_doubled_at_never_mentions_a_group_on_discourse(text: str) -> None:
    answer = Answer(f"{text} end.[^1]", (Citation(1, SOURCE, 1),))
    raw = str(render("discourse", answer, CONTEXT)["raw"])
    assert "@everyone" not in raw and "@here" not in raw, raw


def test_every_at_before_a_name_is_broken_but_addresses_and_urls_stay() -> None:
    text = "@@a b_@c me@here.com https://e.example/@@team"
    assert no_forum_mentions(text) == ("@@\u200ba b_@\u200bc me@here.com https://e.example/@@team")
