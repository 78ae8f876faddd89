"""A stored SourceRegistry (to_json/from_json) keeps the numbers of documents sharing a URL."""

from __future__ import annotations

import json
from typing import Any

from bot.models import Source
from bot.registry import SourceRegistry

FAQ = "https://docs.example.com/faq"


def faq(name: str) -> dict[str, Any]:
    return {
        "id": f"kb/{name}.md#1",
        "title": f"{name.title()} FAQ",
        "url": f"{FAQ}#{name}",
        "filename": f"{name}.md",
        "path": f"/srv/kb/{name}.md",
        "chunk": 1,
        "text": f"What the {name} connector needs.",
        "audience": ["public"],
        "kind": "passage",
    }


GUIDE = {
    "id": "g",
    "title": "Guide",
    "url": "https://docs.example.com/guide",
    "audience": ["public"],
    "kind": "passage",
}

# written by the registry before two files stopped sharing a number: the Slack FAQ was
# registered second and given the Discord FAQ's number 1
OLD_STORED: dict[str, Any] = {
    "version": 1,
    "audience": ["public"],
    "secret": "00" * 16,
    "numbered": [{"n": 1, "source": faq("discord")}, {"n": 2, "source": GUIDE}],
    "aliases": {"kb/slack.md#1": 1},
    "evidence": [faq("discord"), faq("slack"), GUIDE],
    "uncitable": [],
    "forbidden": [],
}


def test_a_registry_of_anchored_files_round_trips() -> None:
    registry = SourceRegistry(secret=bytes(16))
    numbers = registry.register_all(
        [
            Source.from_json(faq("discord")),
            Source.from_json(faq("slack")),
            Source("w1", url="https://blog.example/post#top"),
            Source("w2", url="https://blog.example/post"),
        ]
    )
    assert numbers == [1, 2, 3, 3]
    copy = SourceRegistry.from_json(json.loads(json.dumps(registry.to_json())))
    assert copy.to_json() == registry.to_json()
    assert copy.numbered() == registry.numbered()
    assert copy.numbers_for_url(f"{FAQ}#slack") == [2]
    assert copy.numbers_for_url(FAQ) == [1, 2]
    assert copy.number_for_id("w2") == 3
    assert copy.numbers_for_url("https://blog.example/post#elsewhere") == [3]
    assert copy.register(Source.from_json(faq("telegram"))) == 4


def test_a_registry_stored_before_the_change_reads_the_same() -> None:
    copy = SourceRegistry.from_json(OLD_STORED)
    assert copy.to_json() == OLD_STORED
    assert [(n, s.id) for n, s in copy.numbered().items()] == [(1, "kb/discord.md#1"), (2, "g")]
    assert copy.number_for_id("kb/slack.md#1") == 1
    assert copy.number_for_key(copy.key_for(1)) == 1
    # the model of that turn was shown the Slack FAQ under [cite: 1]: its link still says 1
    assert copy.numbers_for_url(f"{FAQ}#slack") == [1]
    assert copy.numbers_for_url(f"{FAQ}#discord") == [1]
    assert copy.numbers_for_url("https://docs.example.com/guide#install") == [2]
    assert copy.number_of(Source.from_json(faq("slack"))) == 1
