"""A YAML alias inside its own anchor is one line naming the key, not a RecursionError.

Found in a QA pass of the configuration: ``a: &x [*x]`` builds a list that contains itself,
and expanding ``${NAME}`` in it recursed until Python gave up, a traceback at every command.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings
from bot.errors import ConfigError


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a: &x [*x]\n", "a.0"),
        ("web: &x\n  port: *x\n", "web.port"),
        ("web: &x\n  suggested_prompts: [ok, *x]\n", "web.suggested_prompts.1"),
        ("&x {index: *x}\n", "index"),
    ],
    ids=["list", "section", "nested", "top-level"],
)
def test_a_self_referencing_alias_is_one_config_error(
    tmp_path: Path, text: str, where: str
) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    assert str(raised.value) == (
        f"{config}: {where}: a YAML alias inside its own anchor (&x ... *x)"
    )


def test_the_command_reports_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text("web: &w\n  port: *w\n", encoding="utf-8")
    assert main(["report"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "citecast report: config.yaml: web.port: a YAML alias inside its own anchor (&x ... *x)\n"
    )


def test_an_alias_used_twice_is_shared_not_recursive(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(
        "web:\n  cors_origins: &o [https://a.example]\nslack:\n  suggested_prompts: *o\n",
        encoding="utf-8",
    )
    settings = load_settings(config)
    assert settings.web.cors_origins == settings.slack.suggested_prompts == ["https://a.example"]
