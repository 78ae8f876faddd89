"""Source lists are cut to "and N more" only by a real limit, never by a fixed count.

Found by QA: 201 short cited sources got Slack's list of 199 and "and 2 more" (a cap
of 20 context blocks) although a further message holds the rest, and without a public base URL
nothing reached sources 200 and 201; the email's HTML part said "and 1 more" at 69 KB, well
inside its 100 KB budget (a cap of 200 entries). README: Slack fills context blocks "over as many
messages as it takes", and the email list is cut only under a ``max_chars`` tightened in config.
"""

from __future__ import annotations

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.base import RenderContext
from renderers.limits import EMAIL_MAX_HTML_BYTES, SLACK_MAX_BLOCKS
from tests.renderers.payload_checks import check_email, check_slack


def cited_facts(count: int) -> Answer:
    """``count`` short sentences, each citing its own short web source."""
    citations = tuple(
        Citation(n, Source(id=f"s{n}", title=f"Guide {n}", url=f"https://docs.example/{n}"), n)
        for n in range(1, count + 1)
    )
    return Answer(" ".join(f"Fact {n}.[^{n}]" for n in range(1, count + 1)), citations)


def slack_entries(payload: dict[str, list[dict[str, list[dict[str, object]]]]]) -> list[object]:
    return [
        element["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "context"
        for element in block["elements"]  # type: ignore[attr-defined]
    ]


def test_slack_lists_all_201_sources_without_a_public_base_url() -> None:
    payload = render("slack", cited_facts(201), RenderContext())
    check_slack(payload)
    entries = slack_entries(payload)
    assert entries == [f"<https://docs.example/{n}|[{n}] Guide {n}>" for n in range(1, 202)]
    assert all(len(m["blocks"]) <= SLACK_MAX_BLOCKS for m in payload["messages"])


def test_slack_lists_600_sources_over_as_many_messages_as_it_takes() -> None:
    payload = render("slack", cited_facts(600), RenderContext())
    check_slack(payload)
    entries = slack_entries(payload)
    assert len(entries) == 600 and entries[-1] == "<https://docs.example/600|[600] Guide 600>"
    assert all(len(m["blocks"]) <= SLACK_MAX_BLOCKS for m in payload["messages"])


def test_email_lists_all_201_sources_when_they_fit_the_budget() -> None:
    payload = render("email", cited_facts(201), RenderContext())
    check_email(payload)
    html = str(payload["html"])
    assert len(html.encode("utf-8")) < EMAIL_MAX_HTML_BYTES
    assert " more" not in html.split("Sources", 1)[1], html[-500:]
    assert 'value="201"' in html and "https://docs.example/201" in html


def test_email_cuts_a_list_over_its_budget_to_and_n_more() -> None:
    payload = render("email", cited_facts(1_500), RenderContext())
    check_email(payload)
    html = str(payload["html"])
    assert len(html.encode("utf-8")) < EMAIL_MAX_HTML_BYTES
    assert "more (the plain-text version of this email lists them all)" in html
    assert "[1500] Guide 1500" in str(payload["text"])
