"""A ``discourse.base_url`` refused at the start, or named when the forum's answer is not
JSON, is quoted without the credentials it carries (the old Discourse API took its key as
``?api_key=``; a forum behind a proxy may need ``user:password@``), or, when it came from a
``${NAME}``, named by the variable instead of quoted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.config import DiscourseSettings
from bot.config_file import load_settings
from bot.connectors.discourse_client import DiscourseAPIError, DiscourseClient
from bot.connectors.discourse_settings import check_settings
from bot.connectors.discourse_start import check_forum
from bot.errors import ConfigError
from tests.fakes.loopback_app import loopback_app

SECRET = "Sup3rS3cretPassw0rd"
REFUSED = [
    (f"https://forum.example.com/?api_key={SECRET}", "must be the forum's address"),
    (f"https://bot:{SECRET}@forum.example.com:44x", "Invalid port"),
    (f"ftp://bot:{SECRET}@forum.example.com", "must be the forum's http(s) address"),
]


def _settings(path: Path, written: str) -> DiscourseSettings:
    path.write_text(
        f"discourse:\n  enabled: true\n  base_url: {written}\n  api_key: k\n"
        "  webhook_secret: 0123456789abcdef0123456789abcdef\n  categories: [1]\n",
        encoding="utf-8",
    )
    return load_settings(path).discourse


@pytest.mark.parametrize(("url", "problem"), REFUSED, ids=["query", "port", "scheme"])
def test_a_refused_base_url_in_the_file_is_quoted_without_credentials(
    tmp_path: Path, url: str, problem: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        check_settings(_settings(tmp_path / "config.yaml", f"'{url}'"))
    message = str(caught.value)
    assert message.startswith(f"discourse.base_url: {problem}")
    assert "forum.example.com" in message and "…" in message
    assert SECRET not in message


@pytest.mark.parametrize(("url", "problem"), REFUSED, ids=["query", "port", "scheme"])
def test_a_refused_base_url_from_a_variable_is_named_not_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, problem: str
) -> None:
    monkeypatch.setenv("DISCOURSE_URL", url)
    with pytest.raises(ConfigError) as caught:
        check_settings(_settings(tmp_path / "config.yaml", "${DISCOURSE_URL}"))
    message = str(caught.value)
    assert message.endswith(": the value of ${DISCOURSE_URL}")
    assert SECRET not in message and "forum.example.com" not in message


async def _not_a_forum(request: web.Request) -> web.Response:
    return web.Response(text="<html>a sign-in page</html>", content_type="text/html")


@pytest.fixture
async def not_a_forum() -> AsyncIterator[str]:
    """A server that answers every request with a page, not JSON, behind user:password@."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", _not_a_forum)
    async with loopback_app(app) as root:
        yield root.replace("http://", f"http://bot:{SECRET}@", 1)


async def test_a_forum_that_answers_no_json_is_named_without_credentials(
    not_a_forum: str,
) -> None:
    client = DiscourseClient(not_a_forum, "k", "citecast")
    try:
        with pytest.raises(DiscourseAPIError) as caught:
            await client.create_post(1, "An answer that never arrives.", 1)
    finally:
        await client.aclose()
    assert "the forum answered non-JSON (is discourse.base_url 'http://…@127.0.0.1:" in str(
        caught.value
    )
    assert SECRET not in str(caught.value)


async def test_the_start_check_names_such_a_forum_without_credentials(
    not_a_forum: str,
) -> None:
    settings = DiscourseSettings(
        enabled=True, base_url=not_a_forum, api_key="k", webhook_secret="w" * 32, categories=[1]
    )
    with pytest.raises(ConfigError) as caught:
        await check_forum(settings)
    message = str(caught.value)
    assert message.startswith("discourse.base_url: 'http://…@127.0.0.1:")
    assert "does not answer as a Discourse forum" in message
    assert SECRET not in message
