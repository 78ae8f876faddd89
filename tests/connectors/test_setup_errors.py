"""The operator's log when citecast is not set up: one ERROR line per cause, naming it (and the
index's path when its message does not), then one INFO line per question that meets it again."""

from __future__ import annotations

import logging

import pytest

from bot.connectors.setup_errors import SetupAlarm, is_setup_error
from bot.errors import BackendConfigError, BackendError, KnowledgeIndexError


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [
        (r.levelno, r.getMessage())
        for r in caplog.records
        if r.name == "bot.connectors.setup_errors"
    ]


def test_each_cause_is_an_error_once_then_info(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors.setup_errors")
    alarm = SetupAlarm()
    key = BackendConfigError("the key in assistant.openai.api_key was refused")
    index = KnowledgeIndexError("no knowledge index has been built yet")
    assert alarm.report("slack", key, "/srv/index.db")
    assert not alarm.report("discord", key, "/srv/index.db")
    assert alarm.report("email", index, "/srv/index.db")  # a new cause: an error again
    logged = lines(caplog)
    assert [level for level, _ in logged] == [logging.ERROR, logging.INFO, logging.ERROR]
    assert "assistant.openai.api_key was refused" in logged[0][1] and "slack" in logged[0][1]
    assert "/srv/index.db" not in logged[0][1]  # the path only helps with an index problem
    assert logged[2][1].endswith(
        "no knowledge index has been built yet (index.path is /srv/index.db)"
    )


def test_an_index_message_naming_its_path_is_not_repeated(caplog: pytest.LogCaptureFixture) -> None:
    SetupAlarm().report(
        "discourse", KnowledgeIndexError("/srv/index.db is damaged"), "/srv/index.db"
    )
    [(_, line)] = lines(caplog)
    assert line.endswith(": /srv/index.db is damaged")


def test_only_what_the_operator_must_fix_is_a_setup_error() -> None:
    assert is_setup_error(BackendConfigError("refused")) and is_setup_error(
        KnowledgeIndexError("x")
    )
    assert not is_setup_error(BackendError("cannot reach the model endpoint"))
    assert not is_setup_error(RuntimeError("a bug"))
