"""A ``${NAME}`` in an item of a list still says so when the list is refused: ``web.audience:
["${GROUP}"]`` with ``GROUP`` unset or empty is refused with the same note as
``web.audience: ${GROUP}``, though the note was made at ``web.audience.0`` and the error is
reported for ``web.audience``. An item of a longer list is named in its note, which must not
read as the reason for another item's error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.config_refusals import refused

VARIABLE = "CITECAST_TEST_LIST_GROUP"
EMPTY_GROUP = "web.audience: empty group name in ['']; name each group, or write public"


def refusal(tmp_path: Path, yaml: str) -> str:
    path, message = refused(tmp_path, yaml)
    return message.removeprefix(f"{path}: ")


@pytest.mark.parametrize(
    "audience",
    ["${CITECAST_TEST_LIST_GROUP}", '["${CITECAST_TEST_LIST_GROUP}"]'],
    ids=["alone", "in-a-list"],
)
def test_an_unset_group_variable_is_named_written_alone_or_in_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, audience: str
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    assert refusal(tmp_path, f"web:\n  audience: {audience}\n") == (
        f"{EMPTY_GROUP} (${{{VARIABLE}}} is not set)"
    )


@pytest.mark.parametrize(
    "audience",
    ["${CITECAST_TEST_LIST_GROUP}", '["${CITECAST_TEST_LIST_GROUP}"]'],
    ids=["alone", "in-a-list"],
)
def test_an_empty_group_variable_is_named_written_alone_or_in_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, audience: str
) -> None:
    monkeypatch.setenv(VARIABLE, "")
    assert refusal(tmp_path, f"web:\n  audience: {audience}\n") == (
        f"{EMPTY_GROUP} (${{{VARIABLE}}} is empty)"
    )


def test_an_item_of_a_longer_list_is_named_with_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    yaml = f'web:\n  audience: [staff, "${{{VARIABLE}}}"]\n'
    assert refusal(tmp_path, yaml) == (
        "web.audience: empty group name in ['staff', '']; name each group, or write public "
        f"(web.audience.1: ${{{VARIABLE}}} is not set)"
    )


def test_a_variable_is_not_given_as_the_reason_for_another_items_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the blank first root is the error; the second, from the variable, is fine
    monkeypatch.setenv(VARIABLE, "docs")
    refused = refusal(tmp_path, f'web:\n  file_roots: ["", "${{{VARIABLE}}}"]\n')
    assert refused.startswith("web.file_roots.0: must not be blank")
    assert f"(from ${{{VARIABLE}}})" not in refused
    assert refused.endswith(f"(web.file_roots.1: from ${{{VARIABLE}}})")


def test_an_items_own_error_keeps_its_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    assert refusal(tmp_path, f'web:\n  file_roots: ["${{{VARIABLE}}}"]\n') == (
        f"web.file_roots.0: must not be blank (${{{VARIABLE}}} is not set)"
    )


def test_a_section_in_a_list_keeps_its_notes_at_its_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    yaml = f'index:\n  audience_rules:\n    - glob: "${{{VARIABLE}}}"\n      audience: [staff]\n'
    assert refusal(tmp_path, yaml) == (
        "index.audience_rules.0.glob: '' names no file; write a glob such as internal/* "
        f"(${{{VARIABLE}}} is not set)"
    )
