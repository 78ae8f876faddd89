"""A long private ``/citecast`` answer fits the five messages one ``response_url`` takes.

Slack takes at most five messages through a command's response_url (within 30 minutes), and
/citecast answers through it so that it works where the bot has not joined (there
``chat.postEphemeral`` is refused: ``channel_not_found``). Its sources always arrive.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.filetokens import FileSigner
from bot.models import Source
from tests.connectors.slack_harness import context_texts, slack_world, slash
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.slack_api import RESPONSE_URL_USES
from tests.fakes.slack_blocks import validate_blocks

NOT_JOINED = "C0NOTJOINED"
BASE = "https://citecast.example.com"


def sources(count: int, title: str = "Guide") -> list[Source]:
    return [
        Source(
            id=f"s{k}",
            title=f"{title} #{k}",
            url=f"https://docs.example.com/p/{k}",
            section="Setup > Linux",
        )
        for k in range(1, count + 1)
    ]


def long_answer(size: int, cites: int) -> str:
    """Some ``size`` characters of paragraphs, citing each of ``cites`` sources in turn."""
    parts: list[str] = []
    k = 0
    while sum(len(p) + 2 for p in parts) < size:
        k += 1
        parts.append(
            f"Paragraph {k}: the system keeps citations right across message boundaries,"
            f" with [a link](https://docs.example.com/x/{k}) in it [{k % cites + 1}]."
        )
    parts.append("All: " + " ".join(f"[{n}]" for n in range(1, cites + 1)))
    return "\n\n".join(parts)


def section_texts(messages: list[dict[str, Any]]) -> list[str]:
    return [b["text"]["text"] for m in messages for b in m["blocks"] if b["type"] == "section"]


def arrived(world: Any) -> list[dict[str, Any]]:
    return list(world.fake.responses)


async def test_a_long_private_answer_fits_the_five_uses_of_a_response_url(
    tmp_path: Path,
) -> None:
    answerer = ScriptedAnswerer(sources(200), long_answer(40_000, 200), chunk=500)
    async with slack_world(tmp_path, answerer) as world:
        # a channel the bot is not in: Slack knows no such conversation for the bot
        assert await slash(world, "everything", channel=NOT_JOINED) == 200
        delivered = arrived(world)
        entries = context_texts(delivered)
        assert len(entries) == 200, f"{len(delivered)} messages arrived, {len(entries)} sources"
        assert [e.split("|[")[1].split("]")[0] for e in entries] == [str(n) for n in range(1, 201)]
        assert len(delivered) <= RESPONSE_URL_USES
        assert all(validate_blocks(m["blocks"]) == [] for m in delivered)
        # the text stops with a note saying so, and the buttons still come last
        sections = [
            b["text"]["text"] for m in delivered for b in m["blocks"] if b["type"] == "section"
        ]
        assert sections[0].startswith("Paragraph 1:")
        assert "does not fit in a private message" in sections[-1]
        buttons = [b.get("block_id") for b in delivered[-1]["blocks"] if b["type"] == "actions"]
        assert buttons == ["citecast_feedback", "citecast_share"]
        assert world.fake.calls_to("chat.postEphemeral") == []
        [turn] = world.store.turns(f"slack:T0TEAM:{NOT_JOINED}:private:U0ASKER")
        assert turn.status != "failed"


async def test_the_cut_answer_links_the_whole_answer_with_a_public_base_url(
    tmp_path: Path,
) -> None:
    answerer = ScriptedAnswerer(sources(200), long_answer(40_000, 200), chunk=500)
    async with slack_world(tmp_path, answerer) as world:
        services = world.connector.services
        web = services.settings.web.model_copy(update={"public_base_url": BASE})
        services.settings = services.settings.model_copy(update={"web": web})
        services.signer = FileSigner(b"s" * 32, BASE, 3600, [tmp_path])
        services.signer.bind_store(world.store)
        await slash(world, "everything", channel=NOT_JOINED)
        delivered = arrived(world)
        sections = [
            b["text"]["text"] for m in delivered for b in m["blocks"] if b["type"] == "section"
        ]
        [turn] = world.store.turns(f"slack:T0TEAM:{NOT_JOINED}:private:U0ASKER")
        page = f"{BASE}/turns/{services.signer.turn_key(turn.id)}"
        assert sections[-1].endswith(f"<{page}|read the whole answer>.)_")
        assert len(context_texts(delivered)) == 200


async def test_a_source_list_too_long_for_the_posts_is_compacted_to_and_n_more(
    tmp_path: Path,
) -> None:
    long_title = "A guide with a long descriptive title " * 5
    answerer = ScriptedAnswerer(sources(600, long_title), long_answer(20_000, 600), chunk=500)
    async with slack_world(tmp_path, answerer) as world:
        await slash(world, "everything", channel=NOT_JOINED)
        delivered = arrived(world)
        assert len(delivered) <= RESPONSE_URL_USES
        entries = context_texts(delivered)
        assert 100 < len(entries) < 600
        kept = len(entries) - 1
        assert entries[-1] == f"and {600 - kept} more"
        # the answer's text still begins it
        assert delivered[0]["blocks"][0]["text"]["text"].startswith("Paragraph 1:")


async def test_a_private_answer_of_five_messages_is_sent_as_rendered(tmp_path: Path) -> None:
    answerer = ScriptedAnswerer(sources(3), long_answer(12_000, 3), chunk=500)
    async with slack_world(tmp_path, answerer) as world:
        await slash(world, "a little", channel=NOT_JOINED)
        delivered = arrived(world)
        assert 1 < len(delivered) <= RESPONSE_URL_USES
        sections = [
            b["text"]["text"] for m in delivered for b in m["blocks"] if b["type"] == "section"
        ]
        assert not any("does not fit" in s for s in sections)
        assert "All:\xa0" in sections[-1]
        assert len(context_texts(delivered)) == 3


async def test_the_fake_takes_five_messages_through_one_response_url(tmp_path: Path) -> None:
    import httpx

    async with slack_world(tmp_path, ScriptedAnswerer([], "x")) as world:
        url = world.fake.response_url("probe")
        async with httpx.AsyncClient() as http:
            codes = [(await http.post(url, json={"text": f"m{i}"})).status_code for i in range(6)]
        assert codes == [200] * RESPONSE_URL_USES + [404]
        assert world.fake.response_url("probe") != url
