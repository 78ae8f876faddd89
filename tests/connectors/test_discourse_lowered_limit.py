"""Discourse: a forum whose admin lowered "max post length" below ``discourse.max_post_length``.

The forum refuses a longer reply with 422 "Body is limited to 1000 characters; you entered 3102."
(worded in its language); the reply is split again to fit and arrives whole, with every source,
and later replies are split to the learned limit at once. Driven through the connector's real
httpx client against the loopback fake forum.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from aiohttp import web

from bot.connectors.discourse_limits import MAX_REFITS, limit_named
from bot.models import Source
from tests.connectors.discourse_harness import PUBLIC, Harness, footnotes, forum, opened_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

FORUM_LIMIT = 1000
SOURCES = [
    Source(
        id=f"s{n}",
        title=f"Operations handbook chapter {n}",
        url=f"https://docs.example/handbook/chapter-{n}",
        text="Text.",
        page=n,
    )
    for n in range(1, 6)
]


@pytest.fixture(autouse=True)
def bot_moderates_the_category(forum: FakeDiscourse) -> None:
    # These replies take four or five posts: the bot moderates the category (category group
    # moderation), which exempts it from max_consecutive_replies (test_discourse_consecutive).
    forum.category_moderators = {PUBLIC: {"citecast"}}


def long_answer(tag: str = "a", words_per_paragraph: int = 95) -> tuple[str, list[str]]:
    """About 3,000 characters in five cited paragraphs, and the unique words that must arrive
    (``tag`` makes two answers differ: the forum refuses a body it was just sent)."""
    paragraphs: list[str] = []
    words: list[str] = []
    for n in range(1, 6):
        chunk = [f"{tag}{n}w{i:03d}" for i in range(words_per_paragraph)]
        words += chunk
        paragraphs.append(" ".join(chunk) + f" [{n}].")
    return "\n\n".join(paragraphs), words


def posted(forum: FakeDiscourse, topic_id: int) -> list[str]:
    return [str(p["raw"]) for p in forum.bot_posts() if p["topic_id"] == topic_id]


def refused_posts(forum: FakeDiscourse) -> int:
    return sum(1 for m, path, status in forum.requests if path == "/posts.json" and status == 422)


def assert_whole(raws: list[str], words: list[str], limit: int = FORUM_LIMIT) -> None:
    """Every word and every source arrived, in posts the forum takes, each defining the
    footnotes it cites."""
    assert raws and all(len(raw) <= limit for raw in raws), [len(raw) for raw in raws]
    text = "\n".join(raws)
    found = re.findall(r"[a-z]\dw\d{3}", text)
    assert found == words  # all of them, once each, in order
    urls: set[str] = set()
    for raw in raws:
        refs, links = footnotes(raw)
        assert {ref for ref in refs} <= set(links), raw
        urls |= {url for entries in links.values() for _, url in entries}
    assert {str(s.url) for s in SOURCES} <= urls


async def answer_one(h: Harness, title: str, tag: str = "a") -> int:
    text, _ = long_answer(tag)
    h.script(SOURCES, text)
    question = h.forum.new_topic(title, "Tell me everything about it.", category_id=PUBLIC)
    await h.deliver(question)
    return int(question["topic_id"])


async def test_a_long_answer_arrives_whole_on_a_forum_with_a_lower_limit(
    forum: FakeDiscourse, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    forum.max_post_length = FORUM_LIMIT
    _, words = long_answer()
    caplog.set_level(logging.INFO)
    async with opened_harness(forum, tmp_path) as h:
        topic = await answer_one(h, "Operations")
        raws = posted(forum, topic)
        assert len(raws) >= 3
        assert_whole(raws, words)
        assert refused_posts(forum) == 1  # once: the refusal named the limit
        assert h.store.pending("discourse") == []
        turns = h.store.turns(f"discourse-topic-{topic}")
        assert [t.status for t in turns] == ["done"]
        advice = [r for r in caplog.records if "set discourse.max_post_length" in r.getMessage()]
        assert len(advice) == 1 and "1000" in advice[0].getMessage()

        # the next reply is split to the learned limit without a refusal, and not logged again
        second = await answer_one(h, "Operations again", "b")
        assert_whole(posted(forum, second), long_answer("b")[1])
        assert refused_posts(forum) == 1
        advice = [r for r in caplog.records if "set discourse.max_post_length" in r.getMessage()]
        assert len(advice) == 1


async def test_a_refusal_in_another_language_is_read_by_its_digits(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    forum.max_post_length = FORUM_LIMIT
    forum.too_long = "Beitrag ist auf {count} Zeichen begrenzt; du hast {length} eingegeben."
    _, words = long_answer()
    async with opened_harness(forum, tmp_path) as h:
        topic = await answer_one(h, "Betrieb")
        assert_whole(posted(forum, topic), words)
        assert refused_posts(forum) == 1


async def test_a_refusal_without_a_number_splits_the_reply_in_halves(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # a plugin or proxy wording the refusal without the limit: the reply is tried at half its
    # length (after the suffixed body, in case it was "too similar"), until the forum takes it
    forum.max_post_length = FORUM_LIMIT
    forum.too_long = "Dieser Beitrag ist zu lang."
    _, words = long_answer()
    async with opened_harness(forum, tmp_path) as h:
        topic = await answer_one(h, "Operations")
        raws = posted(forum, topic)
        assert_whole(raws, words)
        refused = refused_posts(forum)
        assert refused <= 2 * MAX_REFITS
        assert h.store.pending("discourse") == []
        learned = h.connector._delivery.limit.value
        assert learned is not None and learned <= FORUM_LIMIT

        # the limit that worked is kept: the next reply is not refused
        second = await answer_one(h, "Operations again", "b")
        assert_whole(posted(forum, second), long_answer("b")[1])
        assert refused_posts(forum) == refused


@pytest.mark.parametrize(
    "message",
    [
        "Dieser Beitrag ist zu lang.",  # no number: halved until too short to halve
        "Body is limited to 900 characters; you entered {length}.",  # a limit it does not keep
    ],
)
async def test_a_forum_that_refuses_every_size_ends_the_reply(
    forum: FakeDiscourse, tmp_path: Path, message: str
) -> None:
    forum.max_post_length = 1  # every size is refused, however the reply is split
    forum.too_long = message
    async with opened_harness(forum, tmp_path) as h:
        topic = await answer_one(h, "Operations")
        assert posted(forum, topic) == []
        # each round posts the body and its suffixed twin at most: bounded, not a loop
        assert refused_posts(forum) <= 2 * (MAX_REFITS + 1)
        assert h.store.pending("discourse") == []
        turns = h.store.turns(f"discourse-topic-{topic}")
        assert [t.status for t in turns] == ["failed"]


@pytest.mark.parametrize(
    ("errors", "length", "limit"),
    [
        (["Body is limited to 1000 characters; you entered 3102."], 3102, 1000),
        (["Body is limited to 32,000 characters; you entered 32,454."], 32_500, 32_000),
        (["Body is limited to 32000 characters, you entered 32454."], 32_454, 32_000),
        (["Le message est limité à 1 000 caractères ; vous en avez saisi 3 102."], 3102, 1000),
        (["Body is limited to ۱۰۰۰ characters; you entered ۳۱۰۲."], 3102, 1000),
        # the entered length is below the body's when the forum counts fewer characters
        (["Body is limited to 1000 characters; you entered 3102."], 3166, 1000),
        (["Sorry, new users can only put 2 links in a post."], 3102, None),
        (["Body is too short (minimum is 20 characters)"], 3, None),
        (["Body is too similar to what you recently posted"], 3102, None),
    ],
)
def test_the_limit_named_by_a_refusal(errors: list[str], length: int, limit: int | None) -> None:
    assert limit_named(errors, length) == limit


async def test_a_configured_limit_below_a_thousand_splits_without_a_refusal(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    # the admin followed the log's advice for a forum limited to 500 characters
    forum.max_post_length = 500
    _, words = long_answer()
    async with opened_harness(forum, tmp_path, max_post_length=500) as h:
        topic = await answer_one(h, "Operations")
        assert_whole(posted(forum, topic), words, limit=500)
        assert refused_posts(forum) == 0


class LoweredMeanwhile(FakeDiscourse):
    """A forum whose admin lowers "max post length" right after the bot's first post."""

    async def _create_post(self, request: web.Request) -> web.Response:
        response = await super()._create_post(request)
        if response.status == 200:
            self.max_post_length = FORUM_LIMIT
        return response


async def test_a_later_part_refused_as_too_long_is_not_lost(tmp_path: Path) -> None:
    # Part 1 was taken; part 2 is refused: the whole answer is posted again, split to the new
    # limit (part 1's text twice rather than part 2's never).
    _, words = long_answer()
    async with (
        LoweredMeanwhile(category_moderators={PUBLIC: ("citecast",)}) as forum,
        opened_harness(forum, tmp_path, max_post_length=2000) as h,
    ):
        topic = await answer_one(h, "Operations")
        raws = posted(forum, topic)
        first, again = raws[0], raws[1:]
        assert len(first) > FORUM_LIMIT
        assert_whole(again, words)
        assert refused_posts(forum) == 1
        assert h.store.pending("discourse") == []
        assert [t.status for t in h.store.turns(f"discourse-topic-{topic}")] == ["done"]
