"""``grounding.backend: lexica`` is refused with the name meant, as any mistyped choice is.

Found in a README-as-reference QA pass: ``assistant.backend: openia`` got ``(did you mean
openai?)``, but ``grounding.backend`` takes ``lexical`` or any ``module:factory``, so it is no
fixed choice, and a misspelt ``lexical`` was refused only when a command first scored, with no
hint.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

EXPECTED = "grounding.backend: expected 'lexical' or 'module:factory', got"


@pytest.mark.parametrize(
    ("written", "tail"),
    [
        ("lexica", "'lexica' (did you mean lexical?)"),
        ("Lexical", "'Lexical' (did you mean lexical?)"),
        ("nli", "'nli'"),
        ("mypackage:", "'mypackage:'"),
    ],
)
def test_a_backend_that_is_neither_form_is_refused_when_the_file_is_read(
    tmp_path: Path, written: str, tail: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"grounding:\n  backend: '{written}'\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(config)
    assert str(refused.value) == f"{config}: {EXPECTED} {tail}"


@pytest.mark.parametrize("written", ["lexical", "tests.grounding.plugin_scorer:make_scorer"])
def test_lexical_and_a_factory_load(tmp_path: Path, written: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"grounding:\n  backend: {written}\n", encoding="utf-8")
    assert load_settings(config).grounding.backend == written
