"""The web chat's "not set up" failures in the operator's log, as on every other channel: the
deployment's one ``SetupAlarm`` writes one ERROR line per cause (prefixed, naming the fix and, for
an index problem, ``index.path``), then one INFO line per question that meets it again, whether
asked by POST or by the stream. The viewers' 503s are unchanged (test_web_no_index,
test_web_refused_key).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.connectors.setup_errors import report_setup_error
from bot.errors import KnowledgeIndexError
from tests.connectors.web.conftest import build_harness, cited_answer, make_settings, passage
from tests.connectors.web.test_web_refused_key import NoIndex, assistant
from tests.fakes.openai_server import FakeOpenAI, failure

PREFIX = "citecast is not set up correctly"
ALARM = "bot.connectors.setup_errors"


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def alarm_infos(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == ALARM and r.levelno == logging.INFO]


async def test_web_questions_without_an_index_log_one_error_then_info(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tmp_path)
    services, client = build_harness(tmp_path, Assistant.from_settings(settings))
    with caplog.at_level(logging.INFO):
        async with client:
            for question in ("How do I install it?", "And on Linux?", "And on macOS?"):
                posted = await client.post("/api/ask", json={"question": question})
                assert posted.status_code == 503
    services.store.close()
    logged = errors(caplog)
    assert len(logged) == 1, logged
    assert logged[0].startswith(PREFIX)
    assert "first on web" in logged[0]
    assert "no knowledge index has been built yet" in logged[0]
    assert f"(index.path is {settings.index.path})" in logged[0]
    infos = alarm_infos(caplog)
    assert len(infos) == 2, infos
    assert all(line.startswith("web: question not answered") for line in infos)


async def test_streamed_and_posted_questions_share_the_one_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # QA's reproduction: the stream first, then two POSTs, in an empty folder
    settings = make_settings(tmp_path)
    services, client = build_harness(tmp_path, Assistant.from_settings(settings))
    with caplog.at_level(logging.INFO):
        async with client:
            streamed = await client.get("/api/ask/stream", params={"question": "How?"})
            for question in ("And on Linux?", "And on macOS?"):
                await client.post("/api/ask", json={"question": question})
    turns = [services.store.turn(n) for n in (1, 2, 3)]
    services.store.close()
    assert "event: error" in streamed.text
    assert [turn.status if turn else None for turn in turns] == ["failed"] * 3
    logged = errors(caplog)
    assert len(logged) == 1, logged
    assert logged[0].startswith(PREFIX)
    assert f"(index.path is {settings.index.path})" in logged[0]
    assert len(alarm_infos(caplog)) == 2


async def test_a_refused_key_is_one_error_then_info(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        async with FakeOpenAI() as fake:
            bot = assistant(tmp_path, fake.base_url, "sk-wrong")
            services, client = build_harness(tmp_path, bot)
            async with client:
                for question in ("How do I install it?", "And on Linux?"):
                    posted = await client.post("/api/ask", json={"question": question})
                    assert posted.status_code == 503
                await client.get("/api/ask/stream", params={"question": "And on macOS?"})
    services.store.close()
    logged = errors(caplog)
    assert len(logged) == 1, logged
    assert logged[0].startswith(PREFIX)
    assert "assistant.openai.api_key was refused" in logged[0]
    assert "index.path" not in logged[0]  # the path only helps with an index problem
    assert "sk-wrong" not in logged[0]
    assert len(alarm_infos(caplog)) == 2


async def test_a_model_the_endpoint_lacks_is_one_error_then_info(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = failure(404, 'model "llama9" not found, try pulling it first', code="api_error")
    with caplog.at_level(logging.INFO):
        async with FakeOpenAI() as fake:
            fake.add(missing, missing, missing)
            bot = assistant(tmp_path, fake.base_url, "test-key", "llama9")
            services, client = build_harness(tmp_path, bot)
            async with client:
                await client.get("/api/ask/stream", params={"question": "How do I install it?"})
                for question in ("And on Linux?", "And on macOS?"):
                    posted = await client.post("/api/ask", json={"question": question})
                    assert posted.status_code == 503
    services.store.close()
    logged = errors(caplog)
    assert len(logged) == 1, logged
    assert logged[0].startswith(PREFIX)
    assert "llama9" in logged[0]
    assert len(alarm_infos(caplog)) == 2


async def test_a_cause_another_channel_reported_is_info_on_the_web(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # one alarm per deployment: Slack met the missing index first, so the web adds no ERROR
    services, client = build_harness(tmp_path, NoIndex(cited_answer(passage(1))))
    cause = KnowledgeIndexError("no index at index.db; run citecast ingest")
    with caplog.at_level(logging.INFO):
        report_setup_error(services, "slack", cause)
        async with client:
            await client.post("/api/ask", json={"question": "How do I install it?"})
    services.store.close()
    logged = errors(caplog)
    assert len(logged) == 1, logged
    assert "first on slack" in logged[0]
    [info] = alarm_infos(caplog)
    assert info.startswith("web: question not answered")
