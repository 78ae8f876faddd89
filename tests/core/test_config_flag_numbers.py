"""``true``/``yes``/``on`` (and their opposites) are no number in any numeric setting.

Found in a README-as-reference QA pass: pydantic read YAML's flags as 1 and 0, so
``web.max_question_chars: yes`` refused every question longer than one character and ``port:
true`` listened on port 1, without a word. Every section is checked by their shared base.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError as PydanticValidationError

from bot.config import GroundingSettings, IndexSettings
from bot.config_file import load_settings
from bot.config_section import Section
from bot.errors import ConfigError

YAML_FLAGS = "(YAML reads yes, on, no and off as true or false)"


@pytest.mark.parametrize(
    ("yaml_text", "key", "refusal"),
    [
        ("web:\n  max_question_chars: yes\n", "web.max_question_chars", "integer, not true"),
        ("web:\n  port: true\n", "web.port", "integer, not true"),
        ("web:\n  sse_heartbeat: on\n", "web.sse_heartbeat", "number, not true"),
        (
            "assistant:\n  openai:\n    temperature: no\n",
            "assistant.openai.temperature",
            "number, not false",
        ),
        ("resolve:\n  max_citations: off\n", "resolve.max_citations", "integer, not false"),
        ("discourse:\n  categories: [4, yes]\n", "discourse.categories", "integer, not true"),
        (
            "index:\n  records:\n    - {name: t, csv: t.csv, max_rows: yes}\n",
            "index.records.0.max_rows",
            "integer, not true",
        ),
    ],
    ids=[
        "max_question_chars",
        "port",
        "float",
        "optional float",
        "optional int",
        "list",
        "records",
    ],
)
def test_a_flag_for_a_number_is_refused_in_one_line(
    tmp_path: Path, yaml_text: str, key: str, refusal: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(yaml_text, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(config)
    assert str(refused.value) == f"{config}: {key}: Input should be a valid {refusal} {YAML_FLAGS}"


def test_numbers_and_flags_where_they_belong_still_load(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "web:\n  port: 8001\n  sse_heartbeat: 5\nresolve:\n  infer_from_mentions: yes\n"
        "grounding:\n  threshold: 0.5\n",
        encoding="utf-8",
    )
    settings = load_settings(config)
    assert (settings.web.port, settings.web.sse_heartbeat) == (8001, 5.0)
    assert settings.resolve.infer_from_mentions is True
    assert IndexSettings(chunk_chars=300).chunk_chars == 300


def _sections(base: type[Section] = Section) -> list[type[Section]]:
    found = []
    for section in base.__subclasses__():
        found += [section, *_sections(section)]
    return found


def test_every_numeric_setting_of_every_section_refuses_a_flag() -> None:
    # the one place sections are built: a section or number added later cannot leave it out
    checked = 0
    for section in _sections():
        for name, field in section.model_fields.items():
            if field.annotation not in (int, float, int | None, float | None):
                continue
            with pytest.raises(PydanticValidationError) as refused:
                section.model_validate({name: True})
            mine = [e for e in refused.value.errors() if e["loc"] == (name,)]
            assert mine, (section.__name__, name)
            assert "not true" in mine[0]["msg"] or "number of days" in mine[0]["msg"]
            checked += 1
    assert checked >= 60  # every section's numbers, channels' included
    assert GroundingSettings(threshold=0).threshold == 0.0  # a plain 0 is still a number
