"""Property tests: the link and footnote overrides keep every limit and every escaping rule.

Random hostile answers rendered for Slack, Discord and Discourse with ``links``,
``masked_links`` and (Discourse) ``footnotes`` switched off, at the smallest limits the
renderers take: every payload check still holds (limits, whole links, no mention, no unsafe
construct), every cited source is still listed by its number, and the override shows: no
source URL at all with ``links: false``; no masked source link with ``masked_links: false``;
no footnote with ``footnotes: false``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.markdown import parse
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.document import cited_numbers, decide_forms
from tests.renderers.payload_checks import (
    CHECKS,
    check_discourse,
    check_no_bidi_controls,
    check_no_control_characters,
)
from tests.renderers.test_renderer_properties import answers, contexts

FLAGS: dict[str, list[dict[str, Any]]] = {
    "slack": [{"links": False}, {"masked_links": False}],
    "discord": [{"links": False}, {"masked_links": False}],
    "discourse": [
        {"links": False},
        {"masked_links": False},
        {"footnotes": False},
        {"footnotes": False, "masked_links": False},
        {"footnotes": False, "links": False},
    ],
}
# the default limit, and the least each renderer writes to
LIMITS: dict[str, list[dict[str, Any]]] = {
    "slack": [{}, {"max_chars": 100, "max_blocks": 5}],
    "discord": [{}, {"max_chars": 200}],
    "discourse": [{}, {"max_chars": 200}, {"max_chars": 1000}],
}
CASES = [
    (channel, {**flags, **limit})
    for channel in FLAGS
    for flags in FLAGS[channel]
    for limit in LIMITS[channel]
]
MASKED_SOURCE = {
    # "[n] [Title](<url>)": a Discord source line whose title is a masked link
    "discord": re.compile(r"^\\\[\d+\??\\\] \[", re.M),
    # "[^n]: [Title](url)" or "- \[n\] [Title](url)"
    "discourse": re.compile(
        r"^(?:\[\^\d+\]: |- \\\[\d+\\\] )(?:\\\[\d+\\\] )?\[(?!.*\|attachment\])", re.M
    ),
}


def texts(channel: str, payload: dict[str, Any]) -> list[str]:
    if channel == "discord":
        return [str(m["content"]) for m in payload["messages"]]
    if channel == "discourse":
        return [str(payload["raw"]), *(str(r) for r in payload.get("continued", []))]
    return [
        str(element["text"])
        for m in payload["messages"]
        for block in m["blocks"]
        if block["type"] == "context"
        for element in block["elements"]
    ]


def without_buttons(payload: dict[str, Any]) -> dict[str, Any]:
    messages = [
        {
            **m,
            "components": [],
            "blocks": [b for b in m.get("blocks", []) if b["type"] != "actions"],
        }
        for m in payload.get("messages", [])
    ]
    return {**payload, "messages": messages}


@settings(max_examples=120, deadline=None)
@given(answer=answers(), context=contexts, case=st.sampled_from(CASES))
def test_overrides_keep_limits_safety_and_every_source(
    answer: Any, context: RenderContext, case: tuple[str, dict[str, Any]]
) -> None:
    channel, overrides = case
    caps = capabilities_for(channel, overrides)
    context = dataclasses.replace(context, capabilities=caps)
    payload = render(channel, answer, context)
    if channel == "discourse":
        check_discourse(payload, limit=caps.max_chars)
    else:
        CHECKS[channel](payload)
    check_no_bidi_controls(payload)
    check_no_control_characters(payload)
    if channel == "discord":
        assert all(len(m["content"]) <= caps.max_chars for m in payload["messages"])
    shown = texts(channel, payload)
    joined = "\n".join(shown)
    forms = decide_forms(answer.citations, caps, context)
    if not caps.links:
        assert all(form.url is None for form in forms.values())
        # what the channel writes as text (a record's button is no link in the text)
        blob = json.dumps(without_buttons(payload), ensure_ascii=False)
        for citation in answer.citations:
            for url in (citation.source.url, citation.deep_link):
                # a URL also written as text (in the answer, or as the title of a source that
                # has none of its own) shows there, as text
                written = answer.text + "".join(c.source.display_title for c in answer.citations)
                if url and url not in written and len(url) > 12:
                    assert url not in blob, (channel, url)
    if not caps.masked_links and channel in MASKED_SOURCE:
        assert not MASKED_SOURCE[channel].search(joined), joined
    if not caps.masked_links and channel == "slack":
        # a source element links only as "<url>": never "<url|[n] Title>"
        assert not re.search(r"<[^<>|]*\|\[\d+", joined), joined
    if channel == "discourse" and not caps.footnotes:
        assert not re.search(r"^\[\^\d+\]: ", joined, re.M), joined  # no definition
    if context.show == "none":
        return
    cited = {n for n in cited_numbers(parse(answer.text)) if n in forms and forms[n].reachable}
    for n in cited:
        if channel == "discourse" and caps.footnotes:
            assert f"[^{n}]: " in joined, n
        elif channel == "slack":
            assert any(re.match(rf"(?:<[^<>|]*\|)?\[{n}\??\] ", text) for text in shown), n
        else:
            assert re.search(rf"^(?:- )?\\\[{n}\??\\\] ", joined, re.M), n
