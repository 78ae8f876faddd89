"""``index.records[].column_labels``: the names people see a table's columns under.

A labelled column is shown under its label everywhere a record is: its citation in every
channel, its quote, the built-in answerer's line and the model's tool result (which is also what
the model attributes columns by). A label that cannot serve is refused at start, naming its key.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import RecordTable
from bot.config_file import load_settings
from bot.errors import ConfigError
from bot.grounding import verify
from bot.knowledge.records import RecordTables, check_tables
from bot.models import Answer, Citation, Source
from bot.registry import SourceRegistry
from bot.resolver import resolve
from renderers import CHANNELS, render
from renderers.base import RenderContext

ROOT = Path(__file__).resolve().parents[2]
PRODUCTS = ROOT / "examples" / "products.csv"
PUBLIC = frozenset({"public"})
LABELS = {"price_usd": "Price (USD)", "seats": "Seats"}


def _table(**fields: object) -> RecordTable:
    base: dict[str, object] = {
        "name": "plans",
        "csv": str(PRODUCTS),
        "id_column": "sku",
        "label_template": "{name} ({sku})",
        "columns": ["tier", "price_usd", "seats"],
        "column_labels": LABELS,
    }
    return RecordTable.model_validate({**base, **fields})


def _team(table: RecordTable | None = None) -> Source:
    tables = RecordTables([table or _table()])
    return tables.lookup("plans", "CC-TEAM", PUBLIC, limit=1)[0]


def _refusal(**fields: object) -> str:
    with pytest.raises(ConfigError) as caught:
        check_tables([_table(**fields)])
    return str(caught.value)


# -- what a labelled record holds ---------------------------------------------------------------


def test_a_record_carries_its_columns_under_their_labels_and_unlabelled_ones_as_named() -> None:
    team = _team()
    assert team.columns == {"tier": "team", "Price (USD)": "19", "Seats": "up to 50"}
    assert team.text == "citecast Team (CC-TEAM). tier: team. Price (USD): 19. Seats: up to 50"
    # the id, the label and the action are the row's, whatever the columns are called
    assert team.id == "plans/CC-TEAM" and team.label == "citecast Team (CC-TEAM)"


def test_the_tool_description_and_the_models_tool_result_name_the_labels() -> None:
    tables = RecordTables([_table(description="Plans and what they cost")])
    assert tables.describe(PUBLIC)["plans"].columns == ("tier", "Price (USD)", "Seats")
    registry = SourceRegistry(secret=b"labels")
    [row] = registry.format_records(tables.lookup("plans", "CC-TEAM", PUBLIC, limit=1))
    # the model refers to columns by these names (columns="Price (USD)"), so the raw
    # price_usd is never needed, and never shown
    assert row["columns"] == {"tier": "team", "Price (USD)": "19", "Seats": "up to 50"}
    assert "price_usd" not in json.dumps(row)


def test_a_question_about_the_whole_table_may_use_a_label_s_words() -> None:
    tables = RecordTables([_table(column_labels={"seats": "Licensed users"})])
    assert {"licens", "user", "seat"} <= tables.topic_terms("plans")


def test_search_and_lookup_by_id_are_unchanged_by_labels() -> None:
    plain = RecordTables([_table(column_labels={})])
    labelled = RecordTables([_table()])
    for query in ("up to 500", "CC-ENT", "enterprise", ""):
        found = [r.id for r in labelled.lookup("plans", query, PUBLIC)]
        assert found == [r.id for r in plain.lookup("plans", query, PUBLIC)]


# -- shown wherever a person sees the record ------------------------------------------------------


def test_a_column_the_model_attributes_by_its_label_shows_under_it_in_every_channel() -> None:
    team = _team()
    registry = SourceRegistry(secret=b"labels")
    registry.format_records([team])
    key = registry.key_for(1)
    answer = resolve(f'The Team plan costs 19 USD [[source key="{key}" columns="Price (USD)"]].',
                     registry)  # fmt: skip
    [citation] = answer.citations
    assert citation.columns == ("Price (USD)",)
    for channel in CHANNELS:
        payload = json.dumps(render(channel, answer, RenderContext()), ensure_ascii=False)
        # as people read it: Discord and Discourse escape Markdown ("Price \\(USD\\)")
        shown = re.sub(r"\\+(?=[()])", "", payload)
        assert "Price (USD): 19" in shown, channel
        assert "price_usd" not in shown, channel
    web = render("web", answer, RenderContext())
    # the web chat's record card reads the columns from here
    assert web["citations"][0]["record"]["columns"] == {"Price (USD)": "19"}


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The Team plan costs 19 [^1].", "Price (USD): 19"),
        ("The Team plan costs 19 USD a month [^1].", "Price (USD): 19"),
        ("The Team plan is 19 USD for up to 50 seats [^1].", "Price (USD): 19. Seats: up to 50"),
    ],
)
def test_a_claim_is_quoted_with_the_labelled_lines_and_supported_as_without_labels(
    claim: str, quote: str
) -> None:
    def checked(source: Source) -> Citation:
        answer = Answer(text=claim, citations=(Citation(n=1, source=source, source_number=1),))
        return verify(answer).citations[0]

    labelled, plain = checked(_team()), checked(_team(_table(column_labels={})))
    assert labelled.quote == quote
    assert plain.quote == quote.replace("Price (USD)", "price_usd").replace("Seats", "seats")
    assert labelled.support == plain.support


def test_the_built_in_answerer_writes_the_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n  records:\n    - name: products\n"
        f"      csv: {PRODUCTS}\n      id_column: sku\n"
        "      label_template: '{name} ({sku})'\n      columns: [tier, price_usd]\n"
        "      column_labels: {price_usd: Price (USD)}\n",
        encoding="utf-8",
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nInstall it with pip.\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "What does the Team plan cost?", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["text"] == "citecast Team (CC-TEAM): tier: team; Price (USD): 19 [^1]."
    assert answer["citations"][0]["quote"] == "tier: team. Price (USD): 19"


def test_the_sample_config_labels_the_products_columns() -> None:
    settings = load_settings(ROOT / "config.yaml")
    [products] = settings.index.records
    table = products.model_copy(update={"csv": str(PRODUCTS)})
    tables = check_tables([table])
    assert tables is not None
    team = tables.lookup("products", "CC-TEAM", PUBLIC, limit=1)[0]
    assert team.columns is not None and team.columns["Price (USD)"] == "19"
    assert not {"tier", "price_usd", "seats", "support"} & set(team.columns)


# -- refused at start, naming the key --------------------------------------------------------------


def test_a_label_for_a_column_the_table_lacks_is_named_like_a_missing_column() -> None:
    assert _refusal(column_labels={"price": "Price"}) == (
        "index.records.0.column_labels: no column 'price' in table 'plans' (columns: sku, "
        "name, tier, price_usd, seats, support, internal_cost)"
    )


def test_a_label_for_a_column_that_is_never_shown_is_refused() -> None:
    assert _refusal(column_labels={"internal_cost": "Cost"}) == (
        "index.records.0.column_labels: column 'internal_cost' is not in columns, so it is "
        "never shown; list it in columns to show it under this label, or remove the label"
    )


@pytest.mark.parametrize("label", ["", "   "])
def test_an_empty_label_is_refused(label: str) -> None:
    assert _refusal(column_labels={"seats": label}) == (
        "index.records.0.column_labels.seats: empty; write the name people see the column under"
    )


def test_a_label_longer_than_60_characters_is_refused() -> None:
    assert _team(_table(column_labels={"seats": "S" * 60})).columns == {
        "tier": "team",
        "price_usd": "19",
        "S" * 60: "up to 50",
    }
    long = "Seats " * 11  # 66 characters, 65 once trimmed
    assert _refusal(column_labels={"seats": long}) == (
        "index.records.0.column_labels.seats: 65 characters, over 60; a label is a column's "
        "name, shown beside its value in every citation"
    )


@pytest.mark.parametrize("label", ["Price, USD", 'Price "USD"', "Price's", "Price [USD]",
                                   "Price\nUSD", "Price\u202eUSD", "Price\u200bUSD"])  # fmt: skip
def test_a_label_a_record_key_cannot_carry_is_refused(label: str) -> None:
    message = _refusal(column_labels={"price_usd": label})
    assert message.startswith(f"index.records.0.column_labels.price_usd: {label!r} has ")
    assert message.endswith(
        '(columns="Price (USD), Seats"), which cannot hold commas, quotes, square brackets '
        "or invisible characters"
    )


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            {"price_usd": "Cost", "seats": "cost"},
            "index.records.0.column_labels.seats: columns 'price_usd' and 'seats' would both "
            "be shown as 'cost'; give each its own name",
        ),
        (
            {"price_usd": "Tier"},
            "index.records.0.column_labels.price_usd: columns 'tier' and 'price_usd' would "
            "both be shown as 'Tier'; give each its own name",
        ),
    ],
    ids=["two-labels", "a-label-and-a-column-name"],
)
def test_two_columns_are_never_shown_under_one_name(labels: dict[str, str], message: str) -> None:
    assert _refusal(column_labels=labels) == message


def test_a_label_that_is_not_text_is_refused_by_the_config_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    config = tmp_path / "config.yaml"
    config.write_text(
        f"index:\n  records:\n    - name: t\n      csv: {PRODUCTS}\n      columns: [seats]\n"
        "      column_labels: {seats: [a, b]}\n",
        encoding="utf-8",
    )
    assert main(["--config", str(config), "ask", "What does it cost?"]) == 2
    assert "index.records.0.column_labels.seats" in capsys.readouterr().err
