"""Discord: ``@here`` and ``@everyone`` in code are left as written, to be copied as they are.

Found by QA (chatqa finding 7a): a code span or block holding ``npm install
@here/maps-api-for-javascript`` got a zero-width joiner after the "@", so the command a reader
copied carried an invisible character and failed. Nothing in a Discord answer can ping:
``allowed_mentions`` is ``{"parse": []}`` on every message (and client-wide in the connector),
which is all that stops a bare URL's ``@everyone`` already. Text outside code still gets the
joiner.
"""

from __future__ import annotations

from bot.models import Answer
from renderers import render
from tests.renderers.payload_checks import check_discord

COMMAND = "npm install @here/maps-api-for-javascript && echo @everyone"


def content(text: str) -> str:
    payload = render("discord", Answer(text, ()))
    check_discord(payload)
    assert all(m["allowed_mentions"] == {"parse": []} for m in payload["messages"])
    return "\n".join(str(m["content"]) for m in payload["messages"])


def test_a_code_span_keeps_here_and_everyone_as_written() -> None:
    assert f"`{COMMAND}`" in content(f"Run `{COMMAND}` first.")


def test_a_code_block_keeps_here_and_everyone_as_written() -> None:
    assert f"```sh\n{COMMAND}\n```" in content(f"```sh\n{COMMAND}\n```")


def test_a_quoted_code_block_keeps_them_as_written_too() -> None:
    assert f"> {COMMAND}" in content(f"> ```\n> {COMMAND}\n> ```")


def test_text_outside_code_still_breaks_them() -> None:
    shown = content(f"Tell @here and @everyone, then run `{COMMAND}`.")
    assert shown.startswith("Tell @\u200dhere and @\u200deveryone, then run `npm install @here/")


def test_mention_tokens_in_code_are_still_broken() -> None:
    assert "`echo <\u200d@123>`" in content("Try `echo <@123>` now.")
