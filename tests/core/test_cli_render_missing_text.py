"""``citecast render`` given an Answer JSON without ``text`` names the missing field.

``echo '{}' | citecast render`` said "answer text must be a string", which reads as a wrong
type in a field the user never wrote; the field is missing, and the message says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ValidationError
from bot.models import Answer
from tests.core.cli_runner import run_cli


@pytest.mark.parametrize("stdin", ["{}", '{"text": null}', '{"citations": []}'])
def test_render_of_an_answer_without_text_says_the_field_is_missing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    stdin: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    code, out, err = run_cli(monkeypatch, capsys, ["render", "--channel", "slack"], stdin)
    assert (code, out, err) == (2, "", "citecast render: answer is missing field: text\n")


def test_a_text_of_the_wrong_type_is_still_called_so() -> None:
    with pytest.raises(ValidationError, match=r"^answer text must be a string$"):
        Answer.from_json({"text": 3})
    assert Answer.from_json({"text": ""}).text == ""  # empty is text, not missing
