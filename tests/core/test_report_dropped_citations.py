"""``citecast report``: an answer whose every citation marker the resolver dropped for a fault of
the marker was answered from documents that exist; it is counted and listed apart from the
answers without sources (the documents to write next)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from bot.cli import main
from bot.models import DROP_REASONS, Answer, Dropped, DropReason, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from bot.store import Store
from bot.store_usage import MARKER_FAULTS, NO_SOURCE_DROPS
from bot.usage_report import COLUMNS, build_report
from tests.core.eight_sources import eight_sources

NOTHING = {"text": "I could not find anything about that in the knowledge base.", "citations": []}
RESET = "How do I reset my password?"
EXPORT = "How do I export my data?"


def _forbidden_only() -> dict[str, Any]:
    """A model answer whose only source is one the viewer may not see: none, for them."""
    registry = SourceRegistry(["public"])
    registry.register_all(
        [Source("pub", title="Handbook"), Source("hr-id", title="Salaries", audience=("hr",))]
    )
    answer = resolve("Salaries are reviewed in May <CIT hr-id />.", registry)
    assert [d.reason for d in answer.dropped] == ["forbidden"]
    return answer.to_json()


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"store:\n  path: {tmp_path / 'store.db'}\n", encoding="utf-8")
    return path


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """Web turns: a cited answer, two answers whose model cited numbers this turn never gave
    (the resolver dropped them as ``out_of_range``), one without sources, one citing only a
    source the viewer may not see; a Slack answer whose model wrote a placeholder marker."""
    store = Store(tmp_path / "store.db")
    cited = resolve("Open Settings [1].", eight_sources())
    out_of_range = resolve("Open Settings > Security and choose Reset [9][12].", eight_sources())
    assert (len(out_of_range.citations), [d.reason for d in out_of_range.dropped]) == (
        0,
        ["out_of_range", "out_of_range"],
    )
    placeholder = resolve("Use Settings > Export [source].", eight_sources())
    assert [d.reason for d in placeholder.dropped] == ["placeholder"]
    store.add_turn("c1", "web", "How do I install it?", cited.to_json())
    store.add_turn("c2", "web", RESET, out_of_range.to_json())
    store.add_turn("c3", "web", " how do I RESET my password", out_of_range.to_json())
    store.add_turn("c4", "web", "Where is the office?", NOTHING)
    store.add_turn("c5", "web", "What does the CEO earn?", _forbidden_only())
    store.add_turn("c6", "slack", EXPORT, placeholder.to_json())
    store.close()
    return _config(tmp_path)


def test_json_counts_answers_with_every_citation_dropped_apart(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # they counted as without sources and topped the documents to write, which exist
    assert main(["--config", str(config), "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    web, slack = report["channels"]
    assert (web["asked"], web["cited"], web["without_sources"], web["citations_dropped"]) == (
        5,
        1,
        2,
        2,
    )
    assert (slack["without_sources"], slack["citations_dropped"]) == (0, 1)
    assert report["total"]["citations_dropped"] == 3
    # the forbidden source is none for its viewer: a document to write for them
    assert report["unanswered"] == [["Where is the office?", 1], ["What does the CEO earn?", 1]]
    assert report["citations_dropped"] == [[RESET, 2], [EXPORT, 1]]
    assert report["citations_dropped_more"] == 0


def test_the_counts_still_add_up(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(config), "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    parts = [c for c in COLUMNS if c not in ("asked", "helpful", "not_helpful")]
    assert "citations_dropped" in parts
    for usage in (*report["channels"], report["total"]):
        assert usage["asked"] == sum(usage[part] for part in parts)


def test_text_lists_them_under_their_own_heading(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--config", str(config), "report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Every citation dropped (wrong markers, not missing documents): 3." in lines
    unanswered = lines.index("Asked most often without sources (the documents to write next):")
    dropped = lines.index(
        "Answered, but every citation was dropped (check the model's citation markers):"
    )
    assert lines[unanswered + 1 : dropped] == [
        "    1×  Where is the office?",
        "    1×  What does the CEO earn?",
    ]
    assert lines[dropped + 1 : dropped + 3] == [f"    2×  {RESET}", f"    1×  {EXPORT}"]
    assert all(len(line) <= 80 for line in lines)


def test_a_list_cut_at_the_limit_says_how_many_more(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--config", str(config), "report", "--json", "--limit", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["citations_dropped"], report["citations_dropped_more"]) == ([[RESET, 2]], 1)
    assert main(["--config", str(config), "report", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("  … and 1 more question (--limit lists more)\n") == 2


@pytest.mark.parametrize("reason", DROP_REASONS)
def test_each_drop_reason_is_either_a_marker_fault_or_no_source(
    tmp_path: Path, reason: str
) -> None:
    store = Store(tmp_path / "store.db")
    answer = Answer(
        "Reset it in Settings.", dropped=(Dropped("[3]", cast(DropReason, reason), 20),)
    )
    store.add_turn("c1", "web", RESET, answer.to_json())
    usage = build_report(store, 0.0, 30.0).total
    store.close()
    if reason in ("forbidden", "unsupported"):
        assert (usage.without_sources, usage.citations_dropped) == (1, 0)
    else:
        assert (usage.without_sources, usage.citations_dropped) == (0, 1)


def test_every_drop_reason_is_classified_once() -> None:
    # a new reason must be placed on purpose, not fall into "without sources" unseen
    assert sorted(MARKER_FAULTS + NO_SOURCE_DROPS) == sorted(DROP_REASONS)


def test_a_fault_beside_a_forbidden_source_still_counts_as_dropped(tmp_path: Path) -> None:
    # "[2]" names no source of this turn: the model's marker was wrong, whatever else it cited
    registry = SourceRegistry(["public"])
    registry.register_all([Source("pub"), Source("hr-id", audience=("hr",))])
    answer = resolve("Pay is reviewed <CIT hr-id />, in May [2].", registry)
    assert [d.reason for d in answer.dropped] == ["forbidden", "out_of_range"]
    store = Store(tmp_path / "store.db")
    store.add_turn("c1", "web", "When is pay reviewed?", answer.to_json())
    assert store.outcomes_since(0.0)[0][4] == 0
    report = build_report(store, 0.0, 30.0)
    store.close()
    assert report.citations_dropped == (("When is pay reviewed?", 1),)
    assert report.unanswered == ()


def test_a_cited_answer_with_some_markers_dropped_is_cited(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    store.add_turn(
        "c1", "web", RESET, resolve("Open Settings [1] and Reset [9].", eight_sources()).to_json()
    )
    report = build_report(store, 0.0, 30.0)
    store.close()
    assert (report.total.cited, report.total.citations_dropped, report.citations_dropped) == (
        1,
        0,
        (),
    )


@pytest.mark.parametrize(
    "dropped",
    ['"out_of_range"', '["out_of_range", 5, null]', '{"reason": "out_of_range"}', "[[1]]"],
)
def test_a_damaged_dropped_list_never_stops_the_report(tmp_path: Path, dropped: str) -> None:
    store = Store(tmp_path / "store.db")
    turn = store.add_turn("c1", "web", RESET, NOTHING)
    with store._tx() as db:  # written by hand, or by an older release
        db.execute(
            "UPDATE turns SET answer_json = ? WHERE id = ?",
            (f'{{"text": "x", "citations": [], "dropped": {dropped}}}', turn),
        )
    report = build_report(store, 0.0, 30.0)
    store.close()
    # no entry there is a dropped marker: nothing says the model cited anything
    assert (report.total.without_sources, report.total.citations_dropped) == (1, 0)


def test_drops_are_counted_only_for_an_answer_citing_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.db")
    store.add_turn("c1", "web", RESET, status="pending")
    store.add_turn("c2", "web", "Is it down?", status="failed")
    partly = resolve("Open Settings [1] and Reset [9].", eight_sources())
    store.add_turn("c3", "web", RESET, partly.to_json())
    wholly = resolve("Open Settings [9] and Reset [10].", eight_sources())
    store.add_turn("c4", "web", RESET, wholly.to_json())
    turns = list(store.iter_report_turns_since(0.0, page=3))
    store.close()
    assert [turn[4:] for turn in turns] == [(None, 0), (None, 0), (1, 0), (0, 2)]
