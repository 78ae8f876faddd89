"""Front matter that names an audience in another spelling keeps the file private.

Found by a security QA pass: only a lower-case ``audience`` key (or ``params.audience``) was
read, so ``Audience: staff``, ``AUDIENCE: staff``, TOML ``Audience = "staff"`` and Hugo's
``[Params]`` / ``audience`` (Hugo lower-cases every key, so to Hugo these are the audience) left
the file public, silently; so did ``audiences: staff``, front matter after a blank line (read as
a rule and a setext heading titled "audience: staff") and Hugo's JSON front matter (indexed as
text). Keys are now matched in any case, a near miss skips the file with a reason naming the
key, and a block after blank lines or a JSON object that names an audience is front matter.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Document, Unreadable
from bot.knowledge.markdown_reader import read_markdown
from bot.knowledge.readers import read_document

# The package exports the function `ingest` under the module's name.
ingest_module = importlib.import_module("bot.knowledge.ingest_file")

BODY = "# Payroll\n\nThe okapi salary is 450000 euros per year.\n"


@pytest.mark.parametrize(
    "front_matter",
    [
        '+++\n[Params]\naudience = "staff"\n+++\n',
        '+++\nAudience = "staff"\n+++\n',
        "---\nAudience: staff\n---\n",
        "---\nAUDIENCE: staff\n---\n",
        "---\nPARAMS:\n  Audience: [staff]\n---\n",
        "\n---\naudience: staff\n---\n",
        "\n\n  \n---\nAudience: staff\ntitle: Pay\n---\n",
        '\n+++\naudience = "staff"\n+++\n',
        '{\n  "title": "Pay",\n  "Audience": "staff"\n}\n',
        '\n{ "params": { "audience": ["staff"] } }\n',
    ],
)
def test_an_audience_key_written_another_way_keeps_the_file_private(front_matter: str) -> None:
    doc = read_markdown(front_matter + BODY, "payroll.md")
    assert doc.audience == ("staff",), (doc.audience, doc.title)
    assert [b.text for b in doc.blocks] == ["The okapi salary is 450000 euros per year."]


def test_front_matter_after_a_blank_line_is_read_whole() -> None:
    """Its title and URL count too, and a YAML error names the line in the file."""
    doc = read_markdown(
        "\n\n---\naudience: staff\ntitle: Pay plan\nurl: https://hr.example/pay\n---\n" + BODY,
        "payroll.md",
    )
    assert (doc.title, doc.url) == ("Pay plan", "https://hr.example/pay")
    with pytest.raises(Unreadable, match=r"front matter is not valid YAML: .*\(line 5, col"):
        read_markdown("\n\n---\naudience: staff\ntitle: Pay: plan\n---\n" + BODY, "pay.md")


@pytest.mark.parametrize(
    ("front_matter", "key"),
    [
        ("---\naudiences: staff\n---\n", "audiences"),
        ("---\naudience_groups: [staff]\n---\n", "audience_groups"),
        ("---\nAudiance: staff\n---\n", "Audiance"),
        ("---\ncitecast:audience: staff\n---\n", "citecast:audience"),
        ('+++\n[params]\naudiences = "staff"\n+++\n', "params.audiences"),
        ("\n---\naudiences: staff\n---\n", "audiences"),
        ('{ "audiences": "staff" }\n', "audiences"),
    ],
)
def test_a_near_miss_of_the_audience_key_skips_the_file_naming_it(
    front_matter: str, key: str
) -> None:
    with pytest.raises(Unreadable, match=rf"^front matter key '{key}' is not citecast's audience"):
        read_markdown(front_matter + BODY, "payroll.md")


@pytest.mark.parametrize(
    "front_matter",
    [
        "---\ntarget_audience: developers\n---\n",
        "---\nambience: calm\n---\n",
        "---\ntitle: Pay\n---\n",
    ],
)
def test_a_key_that_only_mentions_an_audience_is_no_audience(front_matter: str) -> None:
    assert read_markdown(front_matter + BODY, "payroll.md").audience is None


def test_several_audience_keys_give_what_all_of_them_allow() -> None:
    both = "---\naudience: public\nparams:\n  audience: [staff, hr]\nAudience: staff\n---\n"
    assert read_markdown(both + BODY, "payroll.md").audience == ("staff",)
    with pytest.raises(
        Unreadable, match=r"^front matter audience staff and Audience hr: no group may see all"
    ):
        read_markdown("---\naudience: staff\nAudience: hr\n---\n" + BODY, "payroll.md")


@pytest.mark.parametrize(
    ("text", "title", "first"),
    [
        # a rule, then a setext heading: no audience named, so read as before
        ("\n---\nSupport hours\n---\n\nThe desk opens at nine.\n", "Support hours", None),
        ("\n---\ntitle: Hours\n---\n\nThe desk opens at nine.\n", "title: Hours", None),
        # a sentence is not a key, even where it says "audience"
        ("\n---\nOur audience: all: of you\n---\n\nHello.\n", "Our audience: all: of you", None),
        # braces that are no JSON object naming an audience (an MDX expression, a sample)
        ('{ "title": "Hours" }\n\nThe desk opens at nine.\n', "payroll.md", '{ "title"'),
        ("{not json}\n\nThe desk opens at nine.\n", "payroll.md", "{not json}"),
    ],
)
def test_a_later_block_or_braces_naming_no_audience_read_as_before(
    text: str, title: str, first: str | None
) -> None:
    doc = read_markdown(text, "payroll.md")
    assert (doc.title, doc.audience) == (title, None)
    if first is not None:
        assert doc.blocks[0].text.startswith(first)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("\n---\naudience: staff\ntitle: Pay: plan\n---\n", "front matter is not valid YAML"),
        ("\n+++\nAudience = staff\n+++\n", "front matter is not valid TOML"),
        ('{\n  "audience": "staff",\n}\n', "front matter is not valid JSON: .*line 3"),
        ('{ "audience": "staff", "audience": "public" }\n', "front matter is not valid JSON: key"),
    ],
)
def test_a_later_or_json_block_naming_an_audience_that_cannot_be_read_skips_the_file(
    text: str, reason: str
) -> None:
    with pytest.raises(Unreadable, match=rf"^{reason}"):
        read_markdown(text + BODY, "payroll.md")


@pytest.mark.parametrize("name", ["pay.html", "pay.txt", "pay.rst"])
def test_other_readers_read_the_key_in_any_case_too(name: str) -> None:
    body = "<p>The okapi salary is high.</p>" if name.endswith(".html") else "The okapi salary."
    for front_matter in ("---\nAudience: staff\n---\n", "\n---\naudience: staff\n---\n"):
        doc = read_document(Path(name), (front_matter + body).encode())
        assert doc.audience == ("staff",), (name, front_matter)


def test_a_file_with_a_near_miss_key_is_skipped_in_the_summary(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.md").write_text("---\naudiences: staff\n---\n" + BODY, encoding="utf-8")
    (kb / "hr.md").write_text("---\nAudience: staff\n---\n" + BODY, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([kb], settings)
    assert report.indexed == 1
    [skipped] = report.skipped
    assert skipped.path == "kb/pay.md"
    assert skipped.reason.startswith("front matter key 'audiences' is not citecast's audience")
    index = KnowledgeIndex(settings.path)
    assert index.search("okapi salary") == []
    assert [s.filename for s in index.search("okapi salary", audience={"staff"})] == ["hr.md"]


def test_an_index_that_read_the_key_as_public_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older citecast indexed ``Audience: staff`` as public; the reader version is part of
    every fingerprint, so the next run reads the file again and makes it private."""
    kb = tmp_path / "kb"
    kb.mkdir()
    text = "---\nAudience: staff\n---\n" + BODY
    (kb / "pay.md").write_text(text, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    public = Document(
        title="Payroll", media_type="text/markdown", blocks=read_markdown(text, "pay.md").blocks
    )
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "17")
        old.setattr(ingest_module, "read_document", lambda path, data: public)
        assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert [s.filename for s in index.search("okapi salary")] == ["pay.md"]
    assert ingest([kb], settings).indexed == 1
    assert index.search("okapi salary") == []
