"""An answer the forum got as several posts is one exchange of the topic's history.

A reply longer than ``max_post_length`` is posted in parts. The history made each part an
exchange of its own with an empty question, so the model saw ``user ''`` turns and, with a
bounded history, lost the real questions sooner. A part after a part left out (an answer its
readers may no longer see) is left out with it.
"""

from __future__ import annotations

from pathlib import Path

from bot.connectors.discourse_topic import history_from_posts
from bot.models import Exchange
from tests.connectors.discourse_harness import GUIDE, PUBLIC, forum, make_harness
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum"]

LONG = "\n\n".join(f"Part {k}: install with pip [1]." + " More detail here." * 8 for k in range(9))


async def test_a_split_answer_is_one_exchange_of_the_history(
    forum: FakeDiscourse, tmp_path: Path
) -> None:
    h = await make_harness(forum, tmp_path, max_post_length=1000)
    try:
        h.script([GUIDE], LONG)
        first = forum.new_topic("Installing", "How do I install citecast?", category_id=PUBLIC)
        await h.deliver(first)
        assert len(forum.bot_posts()) >= 2  # the answer took several posts
        h.script([GUIDE], "Then run it [1].")
        last = forum.bot_posts()[-1]["post_number"]
        follow = forum.user_posts(first["topic_id"], "@citecast and then?", reply_to=last)
        await h.deliver(follow)
        ((_, _, history),) = h.answerer.calls
        assert [e.question for e in history] == ["@alice: Installing\n\nHow do I install citecast?"]
        assert "Part 0" in history[0].answer and "Part 8" in history[0].answer
    finally:
        await h.http.aclose()
        await h.connector.stop()
        h.store.close()


def _post(number: int, username: str, raw: str) -> dict[str, object]:
    return {"post_number": number, "username": username, "raw": raw}


def test_replies_in_a_row_after_two_questions_are_one_answer() -> None:
    posts = [
        _post(1, "alice", "How do I install?"),
        _post(2, "bob", "And upgrade?"),
        _post(3, "citecast", "Install with pip."),
        _post(4, "citecast", "Upgrade with pip -U."),
        _post(5, "alice", "Thanks, and then?"),
    ]
    assert history_from_posts(posts, "citecast", 5) == [
        Exchange(
            question="@alice: How do I install?\n\n@bob: And upgrade?",
            answer="Install with pip.\n\nUpgrade with pip -U.",
        )
    ]


def test_a_part_after_a_part_left_out_is_left_out_too() -> None:
    posts = [
        _post(1, "alice", "What is the plan?"),
        _post(2, "citecast", "The plan, part one: SECRET."),
        _post(3, "citecast", "Part two: MORE-SECRET."),
        _post(4, "bob", "Where is the guide?"),
        _post(5, "citecast", "In the docs."),
        _post(6, "alice", "And now?"),
    ]
    history = history_from_posts(posts, "citecast", 6, left_out={2})
    assert history == [Exchange(question="@bob: Where is the guide?", answer="In the docs.")]
