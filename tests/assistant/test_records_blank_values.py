"""Extractive record lines leave out the columns a record has no value for."""

from __future__ import annotations

from bot.assistant.extractive_records import RecordPick, record_lines
from bot.models import Source
from bot.registry import SourceRegistry


def _record(key: str, label: str, columns: dict[str, str]) -> Source:
    return Source(id=f"t/{key}", label=label, columns=columns, kind="record", text=label)


def test_a_blank_value_is_not_shown_as_an_empty_column() -> None:
    pick = RecordPick(
        (
            _record("A1", "Alpha", {"page": "", "tier": "team"}),
            _record("B2", "Beta", {"page": " ", "tier": ""}),
        )
    )
    assert record_lines(pick, SourceRegistry()) == ["Alpha: tier: team [1].", "Beta [2]."]


def test_a_listing_leaves_out_blank_values_too() -> None:
    pick = RecordPick((_record("A1", "Alpha", {"page": "", "tier": "team"}),), listing=True)
    assert record_lines(pick, SourceRegistry()) == ["- Alpha: tier: team [1]."]
