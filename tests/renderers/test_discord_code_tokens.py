"""Discord code keeps ``</script>``, ``<a href>`` and the like as written; only the tokens
Discord reads (mentions, slash commands, custom emoji, timestamps, guild navigation) are broken.

Found by QA (streamqa): a code block or span holding ``<script>alert(1)</script>`` came out
as ``<script>alert(1)<\\u200d/script>``: the joiner meant for ``</cmd:id>`` slash command
mentions also went after every ``</`` and ``<a``, so code a reader copied carried an invisible
character. The forms Discord reads are those of its developer docs (Reference, "Message
Formatting"); they are still broken in code, as the docs do not say that code keeps Discord
from reading them.
"""

from __future__ import annotations

import pytest

from bot.models import Answer
from renderers import render
from renderers.escaping import ZWJ, code_mentions, no_mentions
from tests.renderers.payload_checks import check_discord

# code that holds "<" before "/", "a" or ":" without being anything Discord reads
PLAIN_CODE = [
    "<script>alert(1)</script>",
    '<a href="https://e.example/">home</a>',
    "def f[T <: Animal](x: T) = x",
    '<w:p><a:blip r:embed="rId4"/></w:p>',
    "x </ y",
]
# each form Discord reads in a message
DISCORD_TOKENS = [
    "<@80351110224678912>",
    "<@!80351110224678912>",
    "<@&165511591545143296>",
    "<#103735883630395392>",
    "</airhorn:816437322781949972>",
    "</config set:816437322781949972>",
    "<:mmLol:216154654256398347>",
    "<a:b1nzy:392938283556143104>",
    "<t:1618953630>",
    "<t:1618953630:R>",
    "<id:customize>",
]


def content(text: str) -> str:
    payload = render("discord", Answer(text, ()))
    check_discord(payload)
    return "\n".join(str(m["content"]) for m in payload["messages"])


@pytest.mark.parametrize("code", PLAIN_CODE)
def test_code_that_discord_does_not_read_is_left_as_written(code: str) -> None:
    assert code_mentions(code) == code


@pytest.mark.parametrize("token", DISCORD_TOKENS)
def test_every_token_discord_reads_is_still_broken_in_code(token: str) -> None:
    assert code_mentions(f"echo {token} done") == f"echo <{ZWJ}{token[1:]} done"


def test_a_code_block_keeps_closing_tags_and_anchors_copyable() -> None:
    code = "\n".join(PLAIN_CODE)
    shown = content(f"Paste this:\n\n```html\n{code}\n```\n")
    assert f"```html\n{code}\n```" in shown
    assert ZWJ not in shown


def test_a_code_span_keeps_a_closing_tag_copyable() -> None:
    shown = content("Close it with `</script>` or `<a href=x>`.")
    assert "`</script>`" in shown and "`<a href=x>`" in shown
    assert ZWJ not in shown


def test_a_mention_next_to_a_closing_tag_in_code_is_still_broken() -> None:
    shown = content("Run `<b>hi</b> <@123> </ping:1>` now.")
    assert f"`<b>hi</b> <{ZWJ}@123> <{ZWJ}/ping:1>`" in shown


def test_text_outside_code_still_breaks_every_angle_form() -> None:
    # prose is unchanged: an invisible joiner there is copied by no one
    assert no_mentions("<a:x> </y> <@1>") == f"<{ZWJ}a:x> <{ZWJ}/y> <{ZWJ}@1>"
