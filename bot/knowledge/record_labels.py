"""The names people see a record table's columns under (``index.records[].column_labels``).

A label replaces the column's name wherever a record is shown or read: the record's ``columns``
(so every citation, quote, answer line and the ``lookup_records`` result the model reads), its
text, and the columns the tool description lists. The column's name in the file stays what the
config refers to (``columns``, templates, ``id_column``), and is never shown once labelled.

Because the model attributes columns by the names it was shown, in a record key
(``[[source key="…" columns="Price (USD), Seats"]]``), a label cannot hold what that attribute
cannot: a comma (it separates the names), quotes, square brackets, or a line break or other
invisible character. Two columns are never shown under one name (letter case ignored).
"""

from __future__ import annotations

from bot.config import RecordTable
from bot.errors import ConfigError

# A label is written beside its value in every citation that shows the column (a Slack context
# element, a Discord line, a footnote): a name, not a sentence.
MAX_LABEL_CHARS = 60
# what a record key's columns="…" attribute cannot carry (see bot.marker_keys)
_REFUSED = ",\"'[]"


def shown_names(table: RecordTable) -> dict[str, str]:
    """Each of ``table.columns`` -> the name it is shown under: its label, else itself."""
    labels = table.column_labels
    return {
        column: labels[column].strip() if column in labels else column for column in table.columns
    }


def check_labels(table: RecordTable, where: str) -> None:
    """ConfigError naming the key (``index.records.0.column_labels.price_usd``) of the first
    label that cannot serve: one for a column not in ``columns`` (it would never show), a blank
    or overlong one, one with a character a record key cannot carry, or one that shows two
    columns under one name. Whether each labelled column is in the table's header is checked
    with the other configured columns (``check_header``)."""
    key = f"{where}.column_labels"
    for column, label in table.column_labels.items():
        if column not in table.columns:
            raise ConfigError(
                f"{key}: column {column!r} is not in columns, so it is never shown; "
                "list it in columns to show it under this label, or remove the label"
            )
        _check_text(label.strip(), f"{key}.{column}")
    seen: dict[str, str] = {}
    for column, name in shown_names(table).items():
        earlier = seen.setdefault(name.casefold(), column)
        if earlier != column:
            labelled = column if column in table.column_labels else earlier
            raise ConfigError(
                f"{key}.{labelled}: columns {earlier!r} and {column!r} would both be shown "
                f"as {name!r}; give each its own name"
            )


def _check_text(label: str, key: str) -> None:
    if not label:
        raise ConfigError(f"{key}: empty; write the name people see the column under")
    if len(label) > MAX_LABEL_CHARS:
        raise ConfigError(
            f"{key}: {len(label)} characters, over {MAX_LABEL_CHARS}; a label is a column's "
            "name, shown beside its value in every citation"
        )
    bad = next((ch for ch in label if ch in _REFUSED or not ch.isprintable()), None)
    if bad is not None:
        raise ConfigError(
            f"{key}: {label!r} has {bad!r}; the model names the columns it used in a record key "
            '(columns="Price (USD), Seats"), which cannot hold commas, quotes, square brackets '
            "or invisible characters"
        )
