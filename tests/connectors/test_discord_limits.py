"""Big and hostile answers reach Discord whole and inside its limits (the fake enforces them)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from bot.models import RecordAction, Source
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.fakes.discord_api import CONTENT_LIMIT, would_ping

__all__ = ["harness"]


def contents(h: Harness, channel: int) -> list[str]:
    return [m["content"] for m in h.fake.messages_in(channel)]


async def ask(h: Harness, text: str = "tell me everything") -> dict[str, object]:
    question = h.fake.user_message(h.world.general, h.world.alice, text, mention_bot=True)
    await h.deliver(question)
    return question


async def test_sixty_citations_all_arrive_within_limits(harness: Harness) -> None:
    h = harness
    sources = [
        Source(id=f"s{k}", title=f"Source number {k}", url=f"https://docs.example.com/{k}")
        for k in range(1, 61)
    ]
    raw = "\n\n".join(f"Fact {k} is documented [{k}]." for k in range(1, 61))
    h.use(sources, raw, chunk=40)
    await ask(h)
    texts = contents(h, h.world.general)
    assert all(len(t) <= CONTENT_LIMIT for t in texts)
    joined = "\n".join(texts)
    for k in range(1, 61):
        assert f"[Source number {k}](<https://docs.example.com/{k}>)" in joined
        assert f"Fact {k} is documented" in joined
    assert "more" not in joined.split("**Sources**")[-1]


async def test_sixty_long_titled_sources_all_arrive_each_whole_in_one_message(
    harness: Harness,
) -> None:
    h = harness
    subtitle = "with a long descriptive subtitle " * 6
    sources = [
        Source(id=f"s{k}", title=f"Source {k} {subtitle}", url=f"https://docs.example.com/{k}")
        for k in range(1, 61)
    ]
    h.use(sources, "\n\n".join(f"Fact {k} is documented [{k}]." for k in range(1, 61)), chunk=40)
    await ask(h)
    texts = contents(h, h.world.general)
    assert all(len(t) <= CONTENT_LIMIT for t in texts)
    for k in range(1, 61):
        entry = re.compile(
            rf"^\\\[{k}\\\] \[Source {k} with .*\]\(<https://docs\.example\.com/{k}>\)$", re.M
        )
        assert sum(len(entry.findall(t)) for t in texts) == 1, k


async def test_record_actions_past_twenty_five_buttons_become_links(harness: Harness) -> None:
    h = harness
    sources = [
        Source(id=f"r{k}", kind="record", label=f"Plan {k}", columns={"price": str(k)},
               action=RecordAction("See plan", f"https://shop.example/p/{k}"))
        for k in range(1, 31)
    ]  # fmt: skip
    h.use(sources, " ".join(f"Plan {k} costs {k} [{k}]." for k in range(1, 31)))
    await ask(h)  # the fake refuses more than 5 rows of 5 buttons
    messages = h.fake.messages_in(h.world.general)
    buttons = [
        b["url"] for m in messages for r in m.get("components") or [] for b in r["components"]
    ]
    assert buttons == [f"https://shop.example/p/{k}" for k in range(1, 26)]
    joined = "\n".join(contents(h, h.world.general))
    for k in range(26, 31):
        assert f"[See plan](<https://shop.example/p/{k}>)" in joined


async def test_a_seven_thousand_character_answer_continues_in_follow_ups(harness: Harness) -> None:
    h = harness
    sources = [
        Source(id=f"d{k}", title=f"Chapter {k}", url=f"https://docs.example.com/ch{k}")
        for k in range(1, 6)
    ]
    paragraphs = [
        f"Paragraph {i}: "
        + ("citecast keeps every citation right. " * 9).strip()
        + f" [{i % 5 + 1}]"
        for i in range(20)
    ]
    raw = "\n\n".join(paragraphs)
    assert len(raw) >= 7000
    h.use(sources, raw, chunk=50)
    question = await ask(h)
    messages = h.fake.messages_in(h.world.general)
    assert len(messages) >= 4
    assert all(len(m["content"]) <= CONTENT_LIMIT for m in messages)
    assert messages[0]["message_reference"]["message_id"] == question["id"]
    # each part replies to the one before, so a reply to any part leads back to the question
    for before, part in itertools.pairwise(messages):
        assert part["message_reference"]["message_id"] == before["id"]
    joined = "\n".join(m["content"] for m in messages)
    positions = [joined.index(f"Paragraph {i}:") for i in range(20)]
    assert positions == sorted(positions)
    # the sources are complete and no entry is split between two messages
    for k in range(1, 6):
        entry = f"[Chapter {k}](<https://docs.example.com/ch{k}>)"
        assert sum(entry in m["content"] for m in messages) == 1
    # the list starts once, after the last paragraph, and runs to the end
    (start,) = [i for i, m in enumerate(messages) if "**Sources**" in m["content"]]
    assert "Paragraph 19:" in "".join(m["content"] for m in messages[: start + 1])
    assert joined.index("Paragraph 19:") < joined.index("**Sources**")
    assert all(r.pings == [] for r in h.fake.created + h.fake.edits)


@pytest.mark.parametrize("part", [-1, 0], ids=["last part", "first part"])
async def test_a_reply_to_any_part_of_a_long_answer_has_the_whole_answer_as_history(
    harness: Harness, part: int
) -> None:
    # from the first part the walk back never meets the later ones: the stored turn has them
    h = harness
    sources = [Source(id="d1", title="Chapter 1", url="https://docs.example.com/ch1")]
    paragraphs = [
        f"Paragraph {i}: " + ("citecast keeps every citation right. " * 9).strip() + " [1]"
        for i in range(20)
    ]
    h.use(sources, "\n\n".join(paragraphs), chunk=50)
    question = await ask(h, "tell me everything")
    messages = h.fake.messages_in(h.world.general)
    assert len(messages) >= 4

    follow_up = h.use(sources, "Yes [1].")
    reply = h.fake.user_message(
        h.world.general, h.world.alice, "and then?", reply_to=int(messages[part]["id"])
    )
    await h.deliver(reply)
    (call,) = follow_up.calls
    (exchange,) = call[2]
    assert exchange.question == "tell me everything"
    for i in range(20):
        assert f"Paragraph {i}:" in exchange.answer
    assert "Sources" not in exchange.answer and "docs.example.com" not in exchange.answer
    # the follow-up belongs to the same conversation as the question
    turns = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert [t.question for t in turns] == ["tell me everything", "and then?"]


async def test_hostile_titles_cannot_ping_or_break_links(harness: Harness) -> None:
    h = harness
    sources = [
        Source(id="a", title="@everyone read this @here", url="https://x.example/a"),
        Source(id="b", title="<@&123> and <@456> team notes", url="https://x.example/b"),
        Source(id="c", title="[x](https://evil.example)|*_ odd", url="https://x.example/c"),
    ]
    raw = "Ping @everyone and <@&123> and <@456> [1][2][3]."
    h.use(sources, raw)
    await ask(h)
    texts = contents(h, h.world.general)
    for record in h.fake.created + h.fake.edits:
        assert record.pings == []
        # even under Discord's default mention parsing the text itself pings nobody
        assert would_ping({"content": record.content}, None) == []
    joined = "\n".join(texts)
    for letter in "abc":
        assert joined.count(f"](<https://x.example/{letter}>)") == 1
    # the title's own link syntax did not become a link
    assert "](https://evil.example)" not in joined
    assert not re.search(r"(?<!\\)\[x\]\(", joined)


async def test_cited_files_without_a_url_are_attached(harness: Harness, tmp_path: Path) -> None:
    h = harness
    manual = tmp_path / "manual.pdf"
    manual.write_bytes(b"%PDF-1.4 manual")
    sheet = tmp_path / "prices.csv"
    sheet.write_bytes(b"name,price\nwidget,3\n")
    sources = [
        Source(id="m", title="Manual", path=str(manual), filename="manual.pdf",
               media_type="application/pdf", kind="file", page=4),
        Source(id="p", title="Price list", path=str(sheet), filename="prices.csv",
               media_type="text/csv", kind="file"),
        Source(id="w", title="Website", url="https://example.com/"),
    ]  # fmt: skip
    h.use(sources, "See page 4 [1], the prices [2] and the site [3].")
    await ask(h)
    (message,) = h.fake.messages_in(h.world.general)
    uploads = [f for r in h.fake.created + h.fake.edits for f in r.files]
    assert sorted((f.filename, f.data) for f in uploads) == [
        ("manual.pdf", b"%PDF-1.4 manual"),
        ("prices.csv", b"name,price\nwidget,3\n"),
    ]
    assert sorted(a["filename"] for a in message["attachments"]) == ["manual.pdf", "prices.csv"]
    assert "attached: manual.pdf" in message["content"]
    assert "[Website](<https://example.com/>)" in message["content"]


async def test_a_file_over_the_upload_limit_falls_back_to_its_name(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, max_file_bytes=100)
    try:
        big = tmp_path / "big.bin"
        big.write_bytes(b"x" * 500)
        h.use([Source(id="big", title="Big dump", path=str(big), filename="big.bin")], "Here [1].")
        await ask(h)
        (message,) = h.fake.messages_in(h.world.general)
        assert message["attachments"] == []
        assert "Big dump" in message["content"]
        assert all(r.files == [] for r in h.fake.created + h.fake.edits)
    finally:
        await stop_harness(h)


async def test_embed_layout_and_record_buttons(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, embeds=True)
    try:
        sources = [
            Source(id="r1", title="Widget", kind="record", label="Widget", columns={"price": "3"},
                   action=RecordAction("Buy", "https://shop.example/widget")),
            Source(id="g", title="Guide", url="https://docs.example.com/g"),
        ]  # fmt: skip
        h.use(sources, "Widgets cost 3 [1], see the guide [2].")
        await ask(h)
        messages = h.fake.messages_in(h.world.general)
        last = messages[-1]
        assert last["embeds"] and last["embeds"][0]["title"] == "Sources"
        assert "Guide" in last["embeds"][0]["description"]
        assert not last["flags"] & 4
        buttons = [b for row in last["components"] for b in row["components"]]
        assert [(b["style"], b["url"]) for b in buttons] == [(5, "https://shop.example/widget")]
    finally:
        await stop_harness(h)


async def test_sixty_citations_in_the_embed_layout_stay_within_embed_limits(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, embeds=True)
    try:
        sources = [
            Source(id=f"s{k}", title=f"Source {k} " + "t" * 80, url=f"https://docs.example.com/{k}")
            for k in range(1, 61)
        ]
        h.use(sources, " ".join(f"Fact {k} [{k}]." for k in range(1, 61)), chunk=60)
        await ask(h)
        messages = h.fake.messages_in(h.world.general)
        embeds = [e for m in messages for e in m["embeds"]]
        assert embeds and all(len(m["embeds"]) <= 10 for m in messages)
        described = "\n".join(e["description"] for e in embeds)
        shown = [k for k in range(1, 61) if f"(<https://docs.example.com/{k}>)" in described]
        assert shown == list(range(1, 61))  # every source is listed, none compacted away
    finally:
        await stop_harness(h)


async def test_at_most_ten_files_are_attached_and_the_rest_are_named(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    sources = []
    for k in range(1, 13):
        path = tmp_path / f"doc{k}.txt"
        path.write_text(f"document {k}")
        sources.append(Source(id=f"f{k}", title=f"Doc {k}", path=str(path), filename=path.name))
    h.use(sources, " ".join(f"Part {k} [{k}]." for k in range(1, 13)))
    await ask(h)
    uploads = [f for r in h.fake.created + h.fake.edits for f in r.files]
    assert len(uploads) == 10
    assert all(len(r.files) <= 10 for r in h.fake.created + h.fake.edits)
    joined = "\n".join(contents(h, h.world.general))
    for k in range(1, 13):
        assert f"Doc {k}" in joined
