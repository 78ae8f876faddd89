"""``store.retention`` in config.yaml: the days the store keeps what only serves to deliver once.

Each period is a number of days (0 keeps that class of rows forever); a store opened from the
settings (``Store.from_settings``, what ``citecast serve`` opens) prunes with them, and the
read-only ``citecast report`` never prunes at all.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import StoreSettings
from bot.config_file import load_settings
from bot.errors import ConfigError
from bot.store import Store
from bot.store_retention import DEFAULT_RETENTION
from tests.core.test_store_retention import Clock, rows

ROOT = Path(__file__).resolve().parents[2]


def settings_of(tmp_path: Path, retention: str) -> StoreSettings:
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  path: store.db\n  retention:\n{retention}", encoding="utf-8")
    return load_settings(config).store


# -- parsing ---------------------------------------------------------------------------------


def test_without_the_section_the_periods_are_the_defaults(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("store:\n  path: store.db\n", encoding="utf-8")
    days = load_settings(config).store.retention
    assert (days.claim_days, days.sent_days, days.dead_days, days.message_days) == (
        DEFAULT_RETENTION.claim_days,
        DEFAULT_RETENTION.sent_days,
        DEFAULT_RETENTION.dead_days,
        DEFAULT_RETENTION.message_days,
    )
    assert (days.claim_days, days.sent_days, days.dead_days, days.message_days) == (60, 7, 30, 90)


def test_each_period_is_read_and_a_number_from_the_environment_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_SENT_DAYS", "2")
    days = settings_of(
        tmp_path,
        "    claim_days: 14\n    sent_days: ${CITECAST_TEST_SENT_DAYS}\n"
        "    dead_days: 0.5\n    message_days: 0\n",
    ).retention
    assert (days.claim_days, days.sent_days, days.dead_days, days.message_days) == (14, 2, 0.5, 0)


def test_a_blank_retention_section_is_its_defaults(tmp_path: Path) -> None:
    assert settings_of(tmp_path, "    # claim_days: 10\n").retention.claim_days == 60


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("-1", "must be 0 or more days (0 keeps these rows forever), not -1"),
        ("-0.5", "must be 0 or more days (0 keeps these rows forever), not -0.5"),
        ("two weeks", "must be a number of days (0 keeps these rows forever), not 'two weeks'"),
        ("true", "must be a number of days (0 keeps these rows forever), not true"),
        (".nan", "must be a number of days (0 keeps these rows forever), not nan"),
        ("'inf'", "must be a number of days (0 keeps these rows forever), not 'inf'"),
        ("[7]", "must be a number of days (0 keeps these rows forever), not [7]"),
        (
            "1" + "0" * 400,
            "must be a number of days (0 keeps these rows forever), not " + "1" + "0" * 36 + "...",
        ),
        ("", "is blank; give it a value, or leave the key out for the default"),
    ],
    ids=["negative", "negative-fraction", "words", "flag", "nan", "inf", "list", "huge", "blank"],
)
def test_a_bad_period_is_one_line_naming_the_key(tmp_path: Path, value: str, reason: str) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_of(tmp_path, f"    sent_days: {value}\n")
    config = tmp_path / "config.yaml"
    assert str(caught.value) == f"{config}: store.retention.sent_days: {reason}"


def test_an_unset_variable_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITECAST_TEST_CLAIM_DAYS", raising=False)
    with pytest.raises(ConfigError) as caught:
        settings_of(tmp_path, "    claim_days: ${CITECAST_TEST_CLAIM_DAYS}\n")
    assert str(caught.value).endswith(
        "store.retention.claim_days: must be a number of days (0 keeps these rows forever),"
        " not '' (${CITECAST_TEST_CLAIM_DAYS} is not set)"
    )


def test_a_misspelt_period_gets_the_closest_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_of(tmp_path, "    claims_days: 10\n")
    assert str(caught.value).endswith(
        "store.retention.claims_days: unknown key (did you mean claim_days?)"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("    batch: 10\n", "store.retention.batch: unknown key"),
        ("    sent_day: 1\n", "store.retention.sent_day: unknown key (did you mean sent_days?)"),
    ],
    ids=["internal-knob", "typo"],
)
def test_keys_other_than_the_four_periods_are_refused(
    tmp_path: Path, text: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_of(tmp_path, text)
    assert str(caught.value).endswith(reason)


def test_the_command_line_shows_a_bad_period_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("store:\n  retention:\n    dead_days: -3\n", encoding="utf-8")
    assert main(["--config", str(config), "report"]) == 2
    assert capsys.readouterr().err == (
        f"citecast report: {config}: store.retention.dead_days: "
        "must be 0 or more days (0 keeps these rows forever), not -3\n"
    )


def test_the_shipped_config_documents_the_defaults(tmp_path: Path) -> None:
    shipped = (ROOT / "config.yaml").read_text(encoding="utf-8").splitlines()
    start = shipped.index("# store:")
    block: list[str] = []
    for line in shipped[start:]:
        if not line.startswith("#"):
            break
        block.append(line[2:])
    config = tmp_path / "config.yaml"
    config.write_text("\n".join(block) + "\n", encoding="utf-8")
    assert load_settings(config).store.retention == StoreSettings().retention
    assert "retention:" in block[2]


# -- a store opened from the settings ----------------------------------------------------------


def test_a_store_from_settings_prunes_each_class_after_its_configured_days(
    tmp_path: Path,
) -> None:
    settings = settings_of(
        tmp_path,
        "    claim_days: 2\n    sent_days: 1\n    dead_days: 3\n    message_days: 4\n",
    )
    clock = Clock()
    store = Store.from_settings(settings, clock=clock)
    assert store.claim_once("email-message", "<1@example.com>")
    sent = store.enqueue("email", {"text": "sent"})
    store.mark_sent(sent)
    dead = store.enqueue("email", {"text": "refused"})
    store.mark_failed_attempt(dead, "550 no such user", retry_in=0, max_attempts=1)
    store.remember_messages("discord", ["1:10"], "discord:1:9")

    clock.days_later(0.9)
    assert store.prune() == 0  # nothing is a day old yet
    clock.days_later(0.2)
    assert store.prune() == 1
    assert store.outbox_item(sent) is None
    clock.days_later(1)  # 2.1 days
    assert store.prune() == 1
    assert store.claim_once("email-message", "<1@example.com>")  # claim gone: claimable again
    clock.days_later(1)  # 3.1 days
    assert store.prune() == 1
    assert store.outbox_item(dead) is None
    assert store.conversation_of("discord", "1:10") == "discord:1:9"
    clock.days_later(1)  # 4.1 days
    assert store.prune() == 1
    assert store.conversation_of("discord", "1:10") is None
    assert store.path == str(tmp_path / "store.db")


def test_pruning_after_a_write_uses_the_configured_days(tmp_path: Path) -> None:
    settings = settings_of(tmp_path, "    claim_days: 1\n")
    clock = Clock()
    store = Store.from_settings(settings, clock=clock)
    assert store.claim_once("slack-event", "Ev1")
    clock.days_later(1.5)
    assert store.claim_once("slack-event", "Ev2")  # a write: a pruning round is due
    assert rows(store.path, "dedupe") == 1
    assert store.claim_once("slack-event", "Ev1")


def test_zero_days_keeps_that_class_forever_and_the_others_still_go(tmp_path: Path) -> None:
    settings = settings_of(tmp_path, "    claim_days: 0\n    sent_days: 0\n    message_days: 0\n")
    clock = Clock()
    store = Store.from_settings(settings, clock=clock)
    assert store.claim_once("slack-event", "Ev1")
    sent = store.enqueue("slack", {"text": "sent"})
    store.mark_sent(sent)
    dead = store.enqueue("slack", {"text": "refused"})
    store.mark_failed_attempt(dead, "channel_not_found", retry_in=0, max_attempts=1)
    store.remember_messages("discord", ["1:10"], "discord:1:9")
    clock.days_later(100 * 365)
    assert store.prune() == 1  # only the dead reply: dead_days is still 30
    assert store.outbox_item(dead) is None
    assert not store.claim_once("slack-event", "Ev1")
    item = store.outbox_item(sent)
    assert item is not None and item.status == "sent"
    assert store.conversation_of("discord", "1:10") == "discord:1:9"


def test_default_settings_open_a_store_that_prunes_as_before(tmp_path: Path) -> None:
    clock = Clock()
    store = Store.from_settings(StoreSettings(path=str(tmp_path / "s.db")), clock=clock)
    assert store.claim_once("discourse-post", "12")
    clock.days_later(59.9)
    assert store.prune() == 0
    clock.days_later(0.2)
    assert store.prune() == 1


# -- read-only commands ----------------------------------------------------------------------


@pytest.mark.parametrize("claim_days", ["0", "1"], ids=["forever", "one-day"])
def test_report_never_prunes_whatever_the_periods(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], claim_days: str
) -> None:
    db = tmp_path / "store.db"
    store = Store(db, retention=None)
    store.claim_once("slack-event", "Ev1")
    sent = store.enqueue("slack", {"text": "sent"})
    store.mark_sent(sent)
    store.remember_messages("discord", ["1:10"], "discord:1:9")
    store.close()
    with sqlite3.connect(db) as raw:  # all of it a year old
        raw.execute("UPDATE dedupe SET created_at = created_at - 365 * 86400")
        raw.execute("UPDATE outbox SET sent_at = sent_at - 365 * 86400")
        raw.execute("UPDATE message_conversations SET created_at = created_at - 365 * 86400")
    config = tmp_path / "config.yaml"
    config.write_text(
        f"store:\n  path: store.db\n  retention:\n    claim_days: {claim_days}\n"
        "    sent_days: 0\n    message_days: 0\n",
        encoding="utf-8",
    )
    assert main(["--config", str(config), "report", "--json"]) == 0
    capsys.readouterr()
    assert (rows(str(db), "dedupe"), rows(str(db), "outbox")) == (1, 1)
    assert rows(str(db), "message_conversations") == 1
