"""An ``openai`` backend pointed at OpenAI's own endpoint without a key stops the start.

Before, ``citecast ask`` with ``api_key: ${OPENAI_API_KEY}`` and the variable unset sent the
placeholder key, and (OpenAI being out of reach here, as on many a first try) every turn said
"cannot reach the model endpoint", naming no setting; where OpenAI was reachable, every turn was
a 401. A local OpenAI-compatible server may need no key, so only OpenAI's own endpoint (an
unset ``base_url``, or OpenAI's) is refused. The refusal of a key a server does check is driven
against the loopback fake (tests/assistant/test_openai_endpoint_reasons.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.assistant.openai_backend import OpenAIBackend
from bot.cli import main
from bot.config import Settings
from bot.config_file import load_settings
from bot.errors import ConfigError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, model_settings
from tests.fakes.openai_server import FakeOpenAI, text

OPENAI = (
    "; OpenAI's endpoint (https://api.openai.com/v1) refuses every request without one "
    "(for a local OpenAI-compatible server that needs none, set assistant.openai.base_url)"
)
NOT_SET = "assistant.openai.api_key: not set (set it to ${OPENAI_API_KEY})" + OPENAI
UNSET_VARIABLE = (
    "assistant.openai.api_key: not set: ${OPENAI_API_KEY} is not set in the environment" + OPENAI
)


@pytest.fixture(autouse=True)
def no_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # citecast reads neither (tests/assistant/test_openai_start_refusals.py): kept out anyway,
    # so that a variable of the machine running the tests cannot change what they test
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    # were a request sent anyway (the bug this guards against), it goes to a closed loopback
    # port, never to api.openai.com
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTPS_PROXY", "https_proxy"):  # OpenAI's is https; the local fake is not
        monkeypatch.setenv(name, "http://127.0.0.1:9")


@pytest.mark.parametrize(
    "base_url",
    [None, "", "https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"],
)
@pytest.mark.parametrize("key", ["", "  \r\n"])
def test_openais_endpoint_without_a_key_is_refused_naming_the_setting(
    kb_settings: Settings, base_url: str | None, key: str
) -> None:
    settings = model_settings(kb_settings, "", api_key=key)
    openai = settings.assistant.openai.model_copy(update={"base_url": base_url})
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(openai)
    assert str(caught.value) == NOT_SET


def test_openais_endpoint_named_by_the_environment_is_refused_too(
    kb_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    with pytest.raises(ConfigError, match=r"^assistant\.openai\.api_key: not set"):
        OpenAIBackend(model_settings(kb_settings, "", api_key="").assistant.openai)


def test_an_unset_variable_is_named(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "assistant:\n  backend: openai\n  openai:\n    api_key: ${OPENAI_API_KEY}\n",
        encoding="utf-8",
    )
    settings = load_settings(config)
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    assert str(caught.value) == UNSET_VARIABLE


async def test_a_local_server_needs_no_key(kb_settings: Settings, kb_index: KnowledgeIndex) -> None:
    async with FakeOpenAI(api_key="not-needed") as local:  # Ollama, llama.cpp, LM Studio
        local.add(text("Hello."))
        bot = assistant_for(kb_settings, kb_index, local.base_url, api_key="")
        assert (await run(bot, "hi", stream=False)).answer.text == "Hello."


def write_config(tmp_path: Path) -> Path:
    """An openai backend on OpenAI's endpoint, its key from an unset variable, and an index."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nHeron facts.\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\nstore:\n  path: {tmp_path / 'store.db'}\n"
        "web:\n  port: 0\n"
        "assistant:\n  backend: openai\n  openai:\n    api_key: ${OPENAI_API_KEY}\n",
        encoding="utf-8",
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    return config


def test_ask_names_the_missing_key_instead_of_an_unreachable_endpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "What about herons?"]) == 2
    assert capsys.readouterr() == ("", f"citecast ask: {config}: {UNSET_VARIABLE}\n")


def test_serve_refuses_to_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path)
    command = [sys.executable, "-m", "bot", "--config", str(config), "serve", "--port", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"citecast serve: {config}: {UNSET_VARIABLE}\n"
