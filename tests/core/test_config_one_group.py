"""An audience setting takes one group written alone (``audience: staff``), as front matter does."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config_file import load_settings
from bot.errors import ConfigError

CONFIG = """\
web:
  audience: staff
index:
  audience_rules:
    - glob: "internal/*"
      audience: staff
slack:
  public_audience: everyone
  audience_by_channel:
    C1: staff
    C2: [staff, hr]
email:
  default_audience: [public]
  audience_by_domain:
    example.com: staff
discourse:
  audience_by_category:
    12: moderators
"""


def test_one_group_written_alone_is_a_list_of_it(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    settings = load_settings(path)
    assert settings.web.audience == ["staff"]
    assert settings.index.audience_rules[0].audience == ["staff"]
    assert settings.slack.public_audience == ["everyone"]
    assert settings.slack.audience_by_channel == {"C1": ["staff"], "C2": ["staff", "hr"]}
    assert settings.email.audience_by_domain == {"example.com": ["staff"]}
    assert settings.discourse.audience_by_category == {"12": ["moderators"]}


def test_an_audience_that_is_no_group_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("web:\n  audience: 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"web\.audience"):
        load_settings(path)
