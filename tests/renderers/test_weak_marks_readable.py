"""A weakly supported citation reads as weak, and reads well, next to punctuation.

Discourse wrote a weak footnote as ``[^2]?``: the forum draws the reference as a number of its
own, so the "?" stood after it as a question mark ending the sentence ("… QUIC.²?", "QUIC ²?.").
Its definition already says "weak support?", which is what a reader opening the reference sees.
The other channels keep the "?" inside the marker's brackets (``[2?]``), which reads as one mark
wherever it stands.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import given, settings

from bot.markdown import parse
from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.document import cited_numbers, decide_forms
from tests.renderers.test_renderer_properties import answers, contexts

GUIDE = Source(id="g", title="Admin guide", url="https://docs.example/guide", section="Install")
FAQ = Source(id="f", title="FAQ", url="https://docs.example/faq", section="Ports")
WEAK = 0.12
DEFINITION = re.compile(r"^\[\^(\d+)\]: (.*)$", re.M)


def weak_answer(text: str) -> Answer:
    return Answer(
        text=text,
        citations=(Citation(1, GUIDE, 1, support=0.9), Citation(2, FAQ, 2, support=WEAK)),
    )


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("IPv6 works.[^1] QUIC may.[^2]", "IPv6 works.[^1] QUIC may.[^2]"),
        ("IPv6 works [^1]. QUIC may [^2].", "IPv6 works\u00a0[^1]. QUIC may\u00a0[^2]."),
        ("Does QUIC work [^2]?", "Does QUIC work\u00a0[^2]?"),
    ],
)
def test_a_weak_footnote_has_no_question_mark_after_it(text: str, body: str) -> None:
    raw = render("discourse", weak_answer(text))["raw"]
    assert raw.split("\n\n")[0] == body
    definitions = dict(DEFINITION.findall(raw))
    assert definitions["2"].endswith(", weak support?")
    assert "weak" not in definitions.get("1", "")


def test_hidden_sources_keep_the_mark_in_the_brackets() -> None:
    raw = render("discourse", weak_answer("QUIC may [^2]."), RenderContext(show="none"))["raw"]
    assert raw.split("\n\n")[0] == "QUIC may\u00a0\\[2?\\]."


@pytest.mark.parametrize(
    ("channel", "mark"),
    [("slack", "[2?]"), ("discord", "\\[2?\\]"), ("email", "[2?]"), ("web", "[2?]")],
)
def test_the_other_channels_keep_the_mark_inside_the_brackets(channel: str, mark: str) -> None:
    blob = json.dumps(render(channel, weak_answer("QUIC may [^2].")), ensure_ascii=False)
    assert json.dumps(mark)[1:-1] in blob
    assert "]?" not in blob.replace("[2?]", "").replace("\\\\[2?\\\\]", "")


@settings(max_examples=25, deadline=None)
@given(answer=answers(), context=contexts)
def test_every_weak_footnote_is_marked_where_it_is_defined(
    answer: Answer, context: RenderContext
) -> None:
    # every citation weak: each cited one must say so, in every post that defines it
    answer = dataclasses.replace(
        answer, citations=tuple(dataclasses.replace(c, support=WEAK) for c in answer.citations)
    )
    payload = render("discourse", answer, context)
    posts = "\n".join([payload["raw"], *payload.get("continued", [])])
    forms = decide_forms(answer.citations, capabilities_for("discourse"), context)
    cited = [n for n in cited_numbers(parse(answer.text)) if n in forms]
    defined: dict[str, list[str]] = {}
    for n, text in DEFINITION.findall(posts):
        defined.setdefault(n, []).append(text)
    for n in cited:
        if context.show == "none":
            assert f"\\[{n}?\\]" in posts, n
        else:
            assert defined.get(str(n)), n
            assert all(text.endswith("weak support?") for text in defined[str(n)]), n
