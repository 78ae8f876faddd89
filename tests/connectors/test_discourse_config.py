"""Discourse settings an admin can get wrong: refused at start in one line, or named on failure.

A base URL that cannot work, an empty or ``@``-prefixed bot username, no category, or a
category map keyed by slug is refused when the connector is built (``citecast serve`` prints one
line and exits 2). A forum that redirects (``http://`` for an https forum) or refuses the API
key says which setting to fix.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_settings import check_settings
from bot.errors import ConfigError
from tests.connectors.discourse_harness import (
    PUBLIC,
    Harness,
    forum,
    harness,
    settings_for,
)
from tests.fakes.discourse_api import FakeDiscourse

__all__ = ["forum", "harness"]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"base_url": "https://forum.example.com:44x"}, "discourse.base_url: Invalid port"),
        ({"base_url": "https://"}, "discourse.base_url: has no host name: 'https://'"),
        ({"base_url": "https://forum example.com"}, "discourse.base_url: the host name is not"),
        ({"base_url": "https://forum.example.com/?x=1"}, "discourse.base_url: must be the forum's"),
        ({"api_username": ""}, "discourse.api_username: the bot user's username"),
        ({"api_username": "@citecast"}, "discourse.api_username: the bot user's username"),
        ({"categories": []}, "discourse.categories: list the ids of the categories"),
        ({"audience_by_category": {"staff": ["staff"]}}, "audience_by_category.staff: must be"),
        ({"audience_by_category": {"9": []}}, "discourse.audience_by_category.9: name the groups"),
    ],
    ids=[
        "port",
        "no-host",
        "space-in-host",
        "query",
        "empty-username",
        "at-username",
        "no-categories",
        "slug-key",
        "no-groups",
    ],
)
def test_unusable_settings_are_refused_with_the_key(
    forum: FakeDiscourse, tmp_path: Path, section: dict[str, Any], message: str
) -> None:
    settings = settings_for(forum, tmp_path, **section)
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_settings(settings.discourse)


@pytest.mark.parametrize(
    "base_url",
    ["https://forum.example.com", "https://forum.example.com/community/", "http://127.0.0.1:3000"],
)
def test_usable_base_urls_pass(forum: FakeDiscourse, tmp_path: Path, base_url: str) -> None:
    check_settings(settings_for(forum, tmp_path, base_url=base_url).discourse)


def test_serve_refuses_a_base_url_with_a_bad_port_in_one_line(tmp_path: Path) -> None:
    discourse = {
        "enabled": True,
        "base_url": "https://forum.example.com:44x",
        "api_key": "k",
        "webhook_secret": "s",
        "categories": [5],
    }
    path = tmp_path / "config.yaml"
    path.write_text(
        yaml.safe_dump({"store": {"path": str(tmp_path / "store.db")}, "discourse": discourse})
    )
    command = [sys.executable, "-m", "bot", "--config", str(path), "serve", "--port", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    start = f"citecast serve: {path}: discourse.base_url: Invalid port"
    assert done.stderr.startswith(start), done.stderr


async def test_a_redirecting_forum_names_the_base_url_setting(forum: FakeDiscourse) -> None:
    topic_id = forum.new_topic("Moved", "Is it https now?", category_id=PUBLIC)["topic_id"]
    forum.redirect_to = "https://forum.example"
    client = DiscourseClient(forum.url, forum.api_key, "citecast")
    try:
        with pytest.raises(DiscourseAPIError) as caught:
            await client.create_post(topic_id, "An answer that never arrives.", 1)
    finally:
        await client.aclose()
    assert caught.value.status == 301
    assert "redirected to https://forum.example/posts.json" in str(caught.value)
    assert "set discourse.base_url" in str(caught.value)
    assert forum.api_posts == []


async def test_a_refused_api_key_says_what_to_check(forum: FakeDiscourse) -> None:
    topic_id = forum.new_topic("Key", "Is the key right?", category_id=PUBLIC)["topic_id"]
    client = DiscourseClient(forum.url, "wrong-key", "citecast")
    try:
        with pytest.raises(DiscourseAPIError) as caught:
            await client.create_post(topic_id, "An answer that never arrives.", 1)
    finally:
        await client.aclose()
    assert caught.value.status == 403
    assert "check discourse.api_key and discourse.api_username" in str(caught.value)


async def test_a_redirect_keeps_the_reply_in_the_outbox_with_the_reason(
    harness: Harness,
) -> None:
    first = harness.forum.new_topic("Moved", "Is it https now?", category_id=PUBLIC)
    harness.forum.redirect_to = "https://forum.example"
    await harness.deliver(first)
    item = harness.store.outbox_item(f"discourse-{first['id']}")
    assert item is not None and item.status == "pending"
    assert "set discourse.base_url" in (item.last_error or "")


def test_an_unquoted_category_id_in_yaml_is_read_as_the_id(tmp_path: Path) -> None:
    from bot.config_file import load_settings

    path = tmp_path / "config.yaml"
    path.write_text("discourse:\n  audience_by_category:\n    12: [staff]\n")
    assert load_settings(path).discourse.audience_by_category == {"12": ["staff"]}
