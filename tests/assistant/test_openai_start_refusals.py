"""Settings the OpenAI-compatible backend cannot work with stop the start with one line.

A ``base_url`` with a user name and password beside an ``api_key`` (the HTTP client sent the
URL's Basic credentials in place of the key, and a 401 blamed the key), a blank ``model``
(sent as it is), and ``$OPENAI_BASE_URL``, which the ``openai`` client read when ``base_url``
was unset although citecast documents that as OpenAI's endpoint and no message could name it.
``$OPENAI_ORG_ID`` and ``$OPENAI_PROJECT_ID``, which the client sent as headers to any server,
are not read either.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.assistant.openai_backend import OpenAIBackend
from bot.cli import main
from bot.config import Settings
from bot.config_file import load_settings
from bot.errors import BackendConfigError, ConfigError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, model_settings
from tests.fakes.openai_server import FakeOpenAI, text

BOTH = (
    "assistant.openai.base_url: has a user name and password in it (user:password@), and "
    "assistant.openai.api_key is set too: a request has one Authorization header, and the URL's "
    "(Basic) would replace the key's (Bearer), so the key would never be sent; leave one of them "
    "out"
)


# -- a user name and password in base_url ---------------------------------------------------------


@pytest.mark.parametrize("userinfo", ["user:password@", "TOKEN@"])
def test_url_credentials_beside_a_key_are_refused(kb_settings: Settings, userinfo: str) -> None:
    settings = model_settings(kb_settings, f"https://{userinfo}llm.internal/v1", api_key="sk-x")
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    assert str(caught.value) == BOTH


def test_ask_refuses_them_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHeron facts.\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\nassistant:\n  backend: openai\n  openai:\n"
        "    base_url: https://user:password@llm.internal/v1\n    api_key: sk-x\n",
        encoding="utf-8",
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "anything?"]) == 2
    assert capsys.readouterr() == ("", f"citecast ask: {config}: {BOTH}\n")


async def test_url_credentials_alone_go_as_basic_and_a_refusal_names_them(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # the fake wants a Bearer key: to it, the Basic credentials are wrong ones
    url = fake.base_url.replace("://", "://user:s3cret-pw@")
    bot = assistant_for(kb_settings, kb_index, url, api_key="")
    with pytest.raises(BackendConfigError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=False), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url.replace('://', '://***@')} answered HTTP 401: "
        "Incorrect API key provided. (the user name and password in assistant.openai.base_url "
        "were refused; retrying will not help)"
    )


async def test_azure_sends_the_key_and_the_url_credentials_both(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # Azure's key goes in its own api-key header: nothing is lost, so nothing is refused
    async with FakeOpenAI(
        prefix="/openai/deployments/d",
        required_query=(("api-version", "2024-06-01"),),
        key_header="api-key",
    ) as azure:
        azure.add(text("Hello."))
        url = azure.base_url.replace("://", "://user:password@") + "?api-version=2024-06-01"
        bot = assistant_for(kb_settings, kb_index, url, api_key=azure.api_key)
        assert (await run(bot, "hi", stream=False)).answer.text == "Hello."


# -- a blank model --------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["", "  "])
def test_a_blank_model_is_refused(fake: FakeOpenAI, kb_settings: Settings, model: str) -> None:
    settings = model_settings(kb_settings, fake.base_url, model=model)
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    assert str(caught.value) == (
        "assistant.openai.model: empty (set it to the name the server knows the model by, or "
        "leave the key out for gpt-4o-mini)"
    )


def test_a_model_an_unset_variable_blanked_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LLM_MODEL", raising=False)
    config = tmp_path / "config.yaml"
    config.write_text(
        "assistant:\n  backend: openai\n  openai:\n    base_url: http://127.0.0.1:9/v1\n"
        "    model: ${LLM_MODEL}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(load_settings(config).assistant.openai)
    assert str(caught.value) == (
        "assistant.openai.model: empty: ${LLM_MODEL} is not set in the environment"
    )


# -- $OPENAI_BASE_URL -----------------------------------------------------------------------------


def test_an_unset_base_url_is_openai_whatever_the_environment_says(
    kb_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    backend = OpenAIBackend(model_settings(kb_settings, "", api_key="sk-x").assistant.openai)
    assert backend.where == "https://api.openai.com/v1"
    # and without a key, OpenAI's endpoint is refused at start as the README says
    with pytest.raises(ConfigError, match=r"^assistant\.openai\.api_key: not set"):
        OpenAIBackend(model_settings(kb_settings, "", api_key="").assistant.openai)


# -- $OPENAI_ORG_ID and $OPENAI_PROJECT_ID ---------------------------------------------------------


@pytest.mark.parametrize("on_azure", [False, True])
async def test_the_environments_organization_and_project_are_not_sent(
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    monkeypatch: pytest.MonkeyPatch,
    on_azure: bool,
) -> None:
    monkeypatch.setenv("OPENAI_ORG_ID", "org-from-another-tool")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_from_another_tool")
    version = "2024-06-01"
    server = (
        FakeOpenAI(
            prefix="/openai/deployments/d",
            required_query=(("api-version", version),),
            key_header="api-key",
        )
        if on_azure
        else FakeOpenAI()
    )
    async with server as fake:
        fake.add(text("Hello."))
        url = f"{fake.base_url}?api-version={version}" if on_azure else fake.base_url
        bot = assistant_for(kb_settings, kb_index, url)
        assert (await run(bot, "hi", stream=False)).answer.text == "Hello."
        assert fake.problems == []
        [sent] = fake.headers
        assert "openai-organization" not in sent
        assert "openai-project" not in sent
        assert sent["content-type"] == "application/json"
