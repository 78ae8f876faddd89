"""``index.url_templates`` values are checked when config.yaml loads.

Found by QA: ``"*.md": "docs.northwind.example/{stem}.html"`` (no scheme) or an ``ftp://``
template passed loading and ingest; the citations then had no link and every ``citecast ask``
printed "dropping unsafe URL from source …" lines on stderr. Every config problem must stop
citecast at start with one line naming the key, here with the glob too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config_file import load_settings
from bot.config_url_templates import url_template_problem
from bot.errors import ConfigError


def _config(tmp_path: Path, template: str, glob: str = "docs/*.md") -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f'index:\n  url_templates:\n    "{glob}": "{template}"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("template", "reason"),
    [
        ("docs.northwind.example/{stem}.html", "must be an absolute http:// or https:// URL"),
        ("ftp://files.example/{path}", "must be an absolute http:// or https:// URL"),
        ("https:///{path}", "must be an absolute http:// or https:// URL with a host"),
        ("mailto:docs@example.com", "must be an absolute http:// or https:// URL"),
        ("https://docs.example/{name}.html", "unknown placeholder {name}"),
        ("https://docs.example/{stem", "a lone '{'"),
        ("https://{path}.example.com/", "{path} cannot be in the host (a path holds /)"),
        ("https://{stem}@docs.example/{path}", "only in the host, not the user or port"),
        ("https://docs.example:{stem}/", "only in the host, not the user or port"),
        ("https://docs.example/my docs/{stem}", "must not contain spaces"),
    ],
)
def test_a_template_that_gives_no_web_address_stops_loading(
    tmp_path: Path, template: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(_config(tmp_path, template))
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'config.yaml'}: index.url_templates: 'docs/*.md': ")
    assert reason in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "template",
    [
        "https://docs.example.com/{stem}.html",
        "http://intranet.example:8080/kb/{path}",
        "https://docs.example.com/static/handbook.pdf",
        "HTTPS://docs.example.com/{path}#top",
        # yesterday's release made working links from it: one site per file
        "https://{stem}.docs.example.com/",
        "https://docs-{stem}.Example.com/{path}",
    ],
)
def test_a_web_address_template_loads(tmp_path: Path, template: str) -> None:
    settings = load_settings(_config(tmp_path, template, "*.md"))
    assert settings.index.url_templates == {"*.md": template}
    assert url_template_problem(template) is None


def test_ingest_refuses_the_config_before_reading_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "kb" / "docs").mkdir(parents=True)
    (tmp_path / "kb" / "docs" / "setup.md").write_text("# Setup\n\nRun it.\n", encoding="utf-8")
    _config(tmp_path, "docs.northwind.example/{stem}.html")
    assert main(["ingest", "kb"]) != 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "citecast ingest: config.yaml: index.url_templates: 'docs/*.md': must be an absolute "
        "http:// or https:// URL with a host, not 'docs.northwind.example/{stem}.html'"
    ]
    assert not (tmp_path / ".citecast").exists()
