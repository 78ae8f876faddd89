"""Record tables: templates, action URLs, audience, lookup by key, and what the model is told.

Only http, https and mailto URLs ever reach a citation; a staff-only table is, to anyone else,
a table that does not exist; a template the config got wrong stops the start in one line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.assistant import Assistant
from bot.assistant.tools import Toolbox, ToolCall
from bot.config import RecordTable, Settings
from bot.errors import ConfigError, KnowledgeIndexError
from bot.knowledge.record_sources import read_records
from bot.knowledge.records import RecordTables, check_tables
from bot.registry import SourceRegistry
from tests.knowledge.conftest import EXAMPLES

PUBLIC = frozenset({"public"})
STAFF = frozenset({"public", "staff"})
WHERE = "index.records.0"


def products(**fields: object) -> RecordTable:
    base: dict[str, object] = {
        "name": "products",
        "csv": str(EXAMPLES / "products.csv"),
        "id_column": "sku",
        "label_column": "name",
        "columns": ["tier", "price_usd"],
    }
    return RecordTable.model_validate({**base, **fields})


def write(folder: Path, text: str, name: str = "t.csv") -> str:
    path = folder / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


# -- templates ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"label_template": "{name ({sku})"}, f"{WHERE}.label_template: unexpected '{{'"),
        ({"label_template": "{name} ({sku)"}, f"{WHERE}.label_template: expected '}}'"),
        ({"action_url_template": "https://x.test/{sku"}, f"{WHERE}.action_url_template: exp"),
        ({"label_template": "{name.upper}"}, f"{WHERE}.label_template: {{name.upper}}: write"),
        ({"label_template": "{} plan"}, f"{WHERE}.label_template: {{}} names no column"),
    ],
)
def test_a_template_the_config_got_wrong_is_one_config_error(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([products(**fields)])


def test_a_template_can_name_a_column_with_a_dot_or_spaces(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,unit.price,Product name\nA1,5,Kettle\n")
    table = RecordTable(name="t", csv=csv, label_template="{Product name} at {unit.price}")
    check_tables([table])
    [record] = read_records(table, WHERE)
    assert record.label == "Kettle at 5"


def test_a_row_the_template_cannot_label_keeps_the_others(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name\nA1,Alpha\nA2,Be\nA3,Gamma\n")
    table = RecordTable(name="t", csv=csv, id_column="sku", label_template="{name[3]}")
    check_tables([table])
    assert [r.label for r in read_records(table, WHERE)] == ["h", "t A2", "m"]


def test_labels_are_one_line_without_control_characters(tmp_path: Path) -> None:
    csv = write(tmp_path, 'sku,name,note\nA1,"Multi\r\nline\x00 name","x\x07\r\ny"\nA2,,\n')
    table = RecordTable(name="t", csv=csv, id_column="sku", label_column="name", columns=["note"])
    first, second = read_records(table, WHERE)
    assert first.label == "Multi line name"
    assert first.columns == {"note": "x\ny"}
    assert first.text == "Multi line name. note: x\ny"
    assert second.label == "t A2"  # a blank label: the table name and the row's id


# -- action URLs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "javascript:alert('{sku}')",
        "{url}",
        "/buy/{sku}",
        "ftp://files.example.com/{sku}",
        "data:text/html,{sku}",
        "https:{sku}",
    ],
)
def test_an_action_template_that_cannot_make_a_safe_url_is_refused(
    tmp_path: Path, template: str
) -> None:
    csv = write(tmp_path, "sku,name,url\nA1,Kettle,https://shop.example.com/a1\n")
    table = RecordTable(name="t", csv=csv, label_column="name", action_url_template=template)
    message = f"{WHERE}.action_url_template: {template!r} is not an absolute http, https"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])


@pytest.mark.parametrize(
    "template",
    ["https://{sku}.example.com/buy", "https://shop.example.com{sku}", "http://{name}/x"],
)
def test_a_column_in_the_host_name_is_refused(tmp_path: Path, template: str) -> None:
    # a "/" in a value is kept (paths), so "evil.test/" as a value would choose the site
    csv = write(tmp_path, "sku,name\nevil.test/,Kettle\n")
    table = RecordTable(name="t", csv=csv, label_column="name", action_url_template=template)
    message = f"{WHERE}.action_url_template: {template!r}: a column may not be part of the host"
    with pytest.raises(ConfigError, match=re.escape(message)):
        check_tables([table])
    fine = table.model_copy(update={"action_url_template": "https://shop.example.com/{sku}"})
    assert check_tables([fine]) is not None


def test_action_values_are_percent_encoded(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name,to\nA 1,Café & Co #1?,sales team\n")
    table = RecordTable(
        name="t",
        csv=csv,
        label_column="name",
        action_url_template="https://shop.example.com/p/{sku}?q={name}",
    )
    [record] = read_records(table, WHERE)
    assert record.action is not None
    assert record.action.url == "https://shop.example.com/p/A%201?q=Caf%C3%A9%20%26%20Co%20%231%3F"
    mail = table.model_copy(update={"action_url_template": "mailto:sales@example.com?subject={to}"})
    [record] = read_records(mail, WHERE)
    assert record.action is not None
    assert record.action.url == "mailto:sales@example.com?subject=sales%20team"


# -- audience -----------------------------------------------------------------------------------


def staff_table(csv: str) -> RecordTable:
    return RecordTable(name="salaries", csv=csv, label_column="level", audience=["staff"])


def test_a_staff_table_is_an_unknown_table_to_a_public_viewer(tmp_path: Path) -> None:
    readable = write(tmp_path, "level\nL1\n")
    unknown = "no record table named {!r} (tables: products)"
    for csv in (readable, str(tmp_path / "gone.csv")):
        tables = RecordTables([products(), staff_table(csv)])
        with pytest.raises(KnowledgeIndexError) as raised:
            tables.lookup("salaries", "L1", PUBLIC)
        # the same answer as for a table that does not exist: not "no match", not its file
        assert str(raised.value) == unknown.format("salaries")
        with pytest.raises(KnowledgeIndexError, match=re.escape(unknown.format("nope"))):
            tables.lookup("nope", "L1", PUBLIC)
    tables = RecordTables([products(), staff_table(readable)])
    assert [r.label for r in tables.lookup("salaries", "L1", STAFF)] == ["L1"]


async def test_an_unreadable_staff_table_does_not_stop_public_answers(tmp_path: Path) -> None:
    tables = RecordTables([staff_table(str(tmp_path / "gone.csv")), products()])
    assert tables.distinctive_weights("salaries", ["team"]) == {}
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "no-index.db")}})
    bot = Assistant(settings, tmp_path / "no-index.db", records=tables)
    answer = await bot.answer("What does citecast Team cost?", PUBLIC)
    assert [c.source.label for c in answer.citations] == ["citecast Team"]


@pytest.mark.parametrize(
    "tables",
    [
        [products(), products(audience=["staff"], columns=["internal_cost"])],
        [products(name="")],
    ],
)
def test_table_names_must_be_set_and_unique(tables: list[RecordTable]) -> None:
    with pytest.raises(ConfigError, match=r"index\.records\.\d\.name: "):
        check_tables(tables)
    with pytest.raises(ConfigError, match=r"index\.records\.\d\.name: "):
        RecordTables(tables)


# -- searching ----------------------------------------------------------------------------------


def test_lookup_by_record_key(tmp_path: Path) -> None:
    csv = write(tmp_path, "sku,name\nK1,Kettle\nK2,Toaster\nK3,Blender\n")
    tables = RecordTables([RecordTable(name="t", csv=csv, id_column="sku", label_column="name")])
    assert [r.label for r in tables.lookup("t", "K3", PUBLIC)][:1] == ["Blender"]
    assert [r.label for r in tables.lookup("t", "k2", PUBLIC)][:1] == ["Toaster"]
    assert [r.label for r in tables.lookup("t", "blender", PUBLIC)] == ["Blender"]
    assert [r.label for r in tables.lookup("t", '"K1"', PUBLIC)][:1] == ["Kettle"]


def test_check_reads_every_table_once_and_keeps_it(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("sku,name\nK1,Kettle\n", encoding="utf-8")
    tables = RecordTables([RecordTable(name="t", csv=str(csv), label_column="name")])
    tables.check()
    csv.unlink()  # what check read is what lookups use
    assert [r.label for r in tables.lookup("t", "kettle", PUBLIC)] == ["Kettle"]
    broken = RecordTables([RecordTable(name="t", csv=str(csv), label_column="name")])
    with pytest.raises(ConfigError, match=re.escape(f"{WHERE}.csv: cannot read {csv}")):
        broken.check()


async def test_the_assistant_answers_from_the_tables_the_start_up_check_read(
    tmp_path: Path,
) -> None:
    # serve, ask and eval read every table at start; the assistant uses what was read rather
    # than reading a (possibly large) table again on the first question
    csv = tmp_path / "t.csv"
    csv.write_text("sku,name,price\nK1,Kettle,40\n", encoding="utf-8")
    table = RecordTable(name="t", csv=str(csv), label_column="name", columns=["price"])
    settings = Settings.model_validate(
        {"index": {"path": str(tmp_path / "no-index.db"), "records": [table.model_dump()]}}
    )
    checked = check_tables(settings.index.records)
    csv.unlink()
    answer = await Assistant.from_settings(settings, checked).answer("Kettle price?", PUBLIC)
    assert [c.source.label for c in answer.citations] == ["Kettle"]
    assert check_tables([]) is None


# -- what the model reads -----------------------------------------------------------------------


async def test_the_model_never_reads_a_table_file_path(tmp_path: Path) -> None:
    gone = tmp_path / "secret-folder" / "plans.csv"
    tables = RecordTables([products(csv=str(gone))])
    registry = SourceRegistry(PUBLIC)
    [result] = await Toolbox(None, tables).run_calls(
        [ToolCall("1", "lookup_records", '{"table": "products", "query": "team"}')], registry
    )
    assert result.startswith("error: ") and "secret-folder" not in result
    assert "products" in result


async def test_a_call_without_a_table_says_so() -> None:
    registry = SourceRegistry(PUBLIC)
    with_tables, without = (
        await Toolbox(None, RecordTables([products()])).run_calls(
            [ToolCall("1", "lookup_records", '{"query": "team"}')], registry
        ),
        await Toolbox(None, None).run_calls(
            [ToolCall("2", "lookup_records", '{"table": "products", "query": "team"}')], registry
        ),
    )
    assert with_tables == [
        "error: lookup_records needs a string argument 'table' (tables: products)"
    ]
    assert without == ["error: no record tables are configured"]


async def test_a_staff_table_before_a_public_one_changes_nothing_for_a_public_viewer(
    tmp_path: Path,
) -> None:
    costs = write(tmp_path, "plan,cost\nTeam,4\nBusiness,11\n")
    hidden = RecordTable(
        name="plan_costs",
        csv=costs,
        label_column="plan",
        columns=["cost"],
        audience=["staff"],
        description="What each plan costs us internally",
    )
    public = products(description="Plans and pricing (what each plan costs)")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "no-index.db")}})
    question = "Which plans are available and what do they cost?"
    answers = [
        await Assistant(settings, tmp_path / "no-index.db", records=RecordTables(t)).answer(
            question, PUBLIC
        )
        for t in ([public], [hidden, public])
    ]
    alone, after_hidden = ([c.source.id for c in a.citations] for a in answers)
    assert alone and alone[0] == "products/CC-FREE"
    assert after_hidden == alone
