"""Discord: ``@here``/``@everyone`` left as written in code ping nobody, streamed or final.

The renderer leaves them as written in code spans and blocks (a joiner would be copied with the
command); every message the bot sends or edits carries ``allowed_mentions: {parse: []}``, so the
fake Discord, which counts them wherever they stand (code included, as Discord's server reads
the raw content), notifies no one.
"""

from __future__ import annotations

from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]

GUIDE = Source(id="g", title="Guide", url="https://docs.example.com/g")
RAW = (
    "Install the maps package [1]:\n\n"
    "```sh\nnpm install @here/maps-api-for-javascript && echo @everyone\n```\n\n"
    "or run `npm install @here/maps-api-for-javascript` alone."
)


async def test_code_with_here_and_everyone_pings_nobody(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], RAW, chunk=20)
    question = h.fake.user_message(h.world.general, h.world.alice, "maps?", mention_bot=True)
    await h.deliver(question)
    [final] = h.fake.messages_in(h.world.general)
    assert "npm install @here/maps-api-for-javascript && echo @everyone" in final["content"]
    sent = h.fake.created + h.fake.edits
    assert all(r.payload["allowed_mentions"]["parse"] == [] for r in sent)
    assert all(r.pings == [] for r in sent)
