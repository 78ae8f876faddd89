"""A signed ``/files/`` link in a Discord message or a Slack thread works for days
(``discord.file_link_ttl_days`` / ``slack.file_link_ttl_days``, 365 by default; 0: the web's
``web.file_token_ttl``), as email's and Discourse's do.

Found in Discord QA pass 2: such a link expired after the web's hour, though a chat message is
scrolled back to days later and, unlike the web page, has nothing to reload for a fresh link.
Links are signed by a real FileSigner on a fixed clock in a real connector against its loopback
fake, and verified by another FileSigner with the same secret on a later clock.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.config import DiscordSettings, SlackSettings
from bot.filetokens import FileSigner, FileTokenError
from bot.models import Answer, Citation, Source
from tests.connectors.slack_harness import PUBLIC, CannedAnswerer, mention, slack_world
from tests.connectors.test_discord_harness import start_harness, stop_harness

NOW = 1_800_000_000
DAY = 86_400
HOUR = 3_600
SECRET = b"a-file-link-secret-for-chat-link-tests"
LINK = re.compile(r"https://citecast\.example/files/([A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)")


def signer_at(root: Path, now: int) -> FileSigner:
    """The deployment's signer (the web's hour) with its clock at ``now``."""
    return FileSigner(SECRET, "https://citecast.example", HOUR, [root], clock=lambda: now)


def manual(tmp_path: Path) -> Source:
    """A cited PDF with no public URL, larger than the channels in these tests attach."""
    path = tmp_path / "manual.pdf"
    path.write_bytes(b"%PDF" + b"x" * 200)
    return Source(id="m", title="Admin manual", path=str(path), filename="manual.pdf",
                  media_type="application/pdf", kind="file")  # fmt: skip


def only_token(text: str) -> str:
    """The one signed ``/files/`` token in ``text``."""
    tokens: set[str] = set(LINK.findall(text))
    assert len(tokens) == 1, text
    return tokens.pop()


async def discord_token(tmp_path: Path, **discord: Any) -> str:
    """Ask the bot on Discord; the token of the link its answer gives for the manual."""
    h = await start_harness(tmp_path, max_file_bytes=10, **discord)  # too large to attach
    try:
        h.connector.services.signer = signer_at(tmp_path, NOW)
        h.use([manual(tmp_path)], "See the manual [1].")
        question = h.fake.user_message(h.world.general, h.world.bob, "manual?", mention_bot=True)
        await h.deliver(question)
        return only_token(json.dumps(h.fake.messages_in(h.world.general)))
    finally:
        await stop_harness(h)


async def slack_token(tmp_path: Path, **slack: Any) -> str:
    """Ask the bot in a Slack thread; the token of the link its answer gives for the manual."""
    source = manual(tmp_path)
    answer = Answer(
        text="See the manual.[^1]", citations=(Citation(n=1, source=source, source_number=1),)
    )
    async with slack_world(tmp_path, CannedAnswerer(answer), max_file_bytes=10, **slack) as world:
        world.connector.services.signer = signer_at(tmp_path, NOW)
        await world.post_event(mention("manual?", ts="1600000000.040000"))
        messages = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.040000")
        return only_token(json.dumps(messages))


async def test_a_file_link_in_a_discord_answer_works_days_later(tmp_path: Path) -> None:
    token = await discord_token(tmp_path)
    grant = signer_at(tmp_path, NOW + 30 * DAY).verify(token)
    assert grant.expires_at == NOW + 365 * DAY


async def test_a_file_link_in_a_slack_answer_works_days_later(tmp_path: Path) -> None:
    token = await slack_token(tmp_path)
    grant = signer_at(tmp_path, NOW + 30 * DAY).verify(token)
    assert grant.expires_at == NOW + 365 * DAY


async def test_discord_file_links_set_to_zero_days_last_the_webs_hour(tmp_path: Path) -> None:
    token = await discord_token(tmp_path, file_link_ttl_days=0)
    assert signer_at(tmp_path, NOW).verify(token).expires_at == NOW + HOUR
    with pytest.raises(FileTokenError):
        signer_at(tmp_path, NOW + 2 * HOUR).verify(token)


async def test_slack_file_links_set_to_zero_days_last_the_webs_hour(tmp_path: Path) -> None:
    token = await slack_token(tmp_path, file_link_ttl_days=0)
    assert signer_at(tmp_path, NOW).verify(token).expires_at == NOW + HOUR
    with pytest.raises(FileTokenError):
        signer_at(tmp_path, NOW + 2 * HOUR).verify(token)


@pytest.mark.parametrize("section", [DiscordSettings, SlackSettings])
def test_file_link_days_are_bounded_as_emails(
    section: type[DiscordSettings | SlackSettings],
) -> None:
    assert section().file_link_ttl_days == 365
    assert section(file_link_ttl_days=3650).file_link_ttl_days == 3650
    for wrong in (-1, 3651):
        with pytest.raises(ValidationError, match="file_link_ttl_days"):
            section(file_link_ttl_days=wrong)
