"""A link in a table cell stays a link in Slack and Discord (neither has tables).

A narrow table became a monospace block of its cells' plain text, and a wide Discord table
"**Header**: value" lines of plain text: a cell's "[setup guide](https://…)" showed as "setup
guide", its URL gone from the message.
"""

from __future__ import annotations

from bot.models import Answer, Citation, Source
from renderers import render

GUIDE = Source(id="g", title="Guide", url="https://docs.example/g")
CITED = (Citation(n=1, source=GUIDE, source_number=1),)
NARROW = (
    "| Plan | Docs |\n|---|---|\n"
    "| Pro | [setup](https://docs.example/setup)[^1] |\n"
    "| Team | <https://docs.example/team> |\n"
)
WIDE = (
    "| Plan | Documentation | Notes |\n|---|---|---|\n"
    "| Professional plan for teams | [the setup guide](https://docs.example/setup) "
    "| read it all before you start anything |\n"
)
PLAIN = "| Plan | Price |\n|---|---|\n| Pro | $9[^1] |\n"


def slack_text(text: str) -> str:
    payload = render("slack", Answer(text=text, citations=CITED))
    return "\n".join(
        block["text"]["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "section"
    )


def discord_text(text: str) -> str:
    payload = render("discord", Answer(text=text, citations=CITED))
    return "\n".join(str(message["content"]) for message in payload["messages"])


def test_slack_keeps_the_links_of_a_narrow_table() -> None:
    shown = slack_text(NARROW)
    assert "<https://docs.example/setup|setup><https://docs.example/g|[1]>" in shown
    assert "https://docs.example/team" in shown
    assert "```" not in shown
    assert "*Plan*: Pro\n*Docs*: <https://docs.example/setup|setup>" in shown


def test_discord_keeps_the_links_of_a_narrow_table() -> None:
    shown = discord_text(NARROW)
    assert "**Plan**: Pro\n**Docs**: [setup](<https://docs.example/setup>)\\[1\\]" in shown
    assert "https://docs.example/team" in shown
    assert "```" not in shown


def test_discord_keeps_the_links_of_a_wide_table() -> None:
    shown = discord_text(WIDE)
    assert "**Documentation**: [the setup guide](<https://docs.example/setup>)" in shown


def test_a_table_without_links_is_still_a_monospace_block() -> None:
    assert slack_text(PLAIN).startswith("```\nPlan | Price\n")
    assert discord_text(PLAIN).startswith("```\nPlan | Price\n")


def test_an_unsafe_link_in_a_cell_does_not_turn_the_table_into_lines() -> None:
    text = "| Plan | Docs |\n|---|---|\n| Pro | [setup](javascript:alert(1)) |\n"
    assert slack_text(text).startswith("```\nPlan | Docs\n")
    assert "javascript" not in slack_text(text) + discord_text(text)
