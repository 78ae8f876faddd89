"""Hugo's TOML front matter (``+++``) is read like YAML's: its audience keeps a file private."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.markdown_reader import read_markdown

# The package exports the function `ingest` under the module's name.
ingest_module = importlib.import_module("bot.knowledge.ingest_file")

BODY = "# Payroll\n\nThe okapi salary is 450000 euros per year.\n"
TOML = '+++\ntitle = "Payroll plan"\naudience = ["staff"]\nurl = "https://hr.example/pay"\n+++\n'


def test_toml_front_matter_gives_title_audience_and_url() -> None:
    doc = read_markdown(TOML + BODY, "payroll.md")
    assert (doc.title, doc.audience, doc.url) == (
        "Payroll plan",
        ("staff",),
        "https://hr.example/pay",
    )
    assert [b.text for b in doc.blocks] == ["The okapi salary is 450000 euros per year."]


def test_a_staff_file_with_toml_front_matter_never_reaches_the_public(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "payroll.md").write_text(TOML + BODY, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert index.search("okapi salary") == []
    [found] = index.search("okapi salary", audience={"public", "staff"})
    assert found.audience == ("staff",) and found.title == "Payroll plan"
    assert "+++" not in (found.text or "")  # the block is not body text


@pytest.mark.parametrize(
    ("front_matter", "reason"),
    [
        (
            'title = "Pay"\naudience = staff',
            "front matter is not valid TOML: Invalid value (line 3",
        ),
        ('audience = ["staff"]\naudience = "public"', "front matter is not valid TOML: Cannot"),
        ("audience = []", "front matter audience"),
    ],
)
def test_toml_front_matter_that_cannot_be_read_skips_the_file(
    front_matter: str, reason: str
) -> None:
    with pytest.raises(Unreadable, match=r"^" + reason.replace("(", r"\(")):
        read_markdown(f"+++\n{front_matter}\n+++\n{BODY}", "payroll.md")


def test_an_index_that_took_toml_front_matter_for_text_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index written before TOML front matter was read holds the file as public text; the
    next run re-reads it (the reader version is part of every fingerprint)."""
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "payroll.md").write_text(TOML + BODY, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    as_text = read_markdown(BODY, "payroll.md")
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "3")
        old.setattr(ingest_module, "read_document", lambda path, data: as_text)
        assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("okapi salary")] == ["payroll.md"]
    assert ingest([kb], settings).indexed == 1
    assert index.search("okapi salary") == []


@pytest.mark.parametrize(
    "front_matter",
    ['+++\n[params]\naudience = ["staff"]\n+++\n', "---\nparams:\n  audience: [staff]\n---\n"],
)
def test_hugo_params_audience_keeps_the_page_private(front_matter: str) -> None:
    assert read_markdown(front_matter + BODY, "payroll.md").audience == ("staff",)


def test_an_empty_params_audience_skips_the_file() -> None:
    with pytest.raises(Unreadable, match=r"^front matter params\.audience"):
        read_markdown("+++\n[params]\naudience = []\n+++\n" + BODY, "payroll.md")
