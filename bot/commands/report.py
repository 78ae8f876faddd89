"""``citecast report``: questions, answers without sources and votes per channel, from the store."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from bot.usage_report import UsageReport

HELP = "show what people asked, what went unanswered and how answers were rated"
DESCRIPTION = """\
Sum the store's turns per channel over the last --days: questions asked, answers that cite
their sources, answers without sources (the knowledge base had nothing), answers whose every
citation was dropped for a wrong marker, failures, pending answers (still being written, or
written but waiting in a channel's outbox to be sent, e.g. behind a rate limit), and the
helpful / not helpful votes from the web chat and Slack. Then list the questions asked most
often without an answer (the documents to write next), those answered with every citation
dropped (the model's markers to check) and the latest answers rated not helpful.
The store is the one `citecast serve` writes (store.path); reading it while the server runs is
safe.

examples:
  citecast report                 the last 30 days
  citecast report --days 7 --json the last week, as JSON
"""


HEADERS = {"without_sources": "no sources", "unfinished": "pending", "not_helpful": "unhelpful"}


MAX_DAYS = 36500
"""The longest period (a century): the store holds nothing older, and dates stay printable."""


def shown(text: str) -> str:
    """``text`` with every character a terminal would act on written as a visible escape
    (``\\x1b``, ``\\u202e``): a question is anyone's text, and must not recolour, retitle or
    clear the operator's terminal, or reverse the line it is on (whitespace is gone already:
    ``one_line``)."""
    from bot.commands.output import terminal_text

    return terminal_text(text, marks=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--days``, ``--limit`` and ``--json``."""
    parser.add_argument(
        "--days", type=float, default=30.0, help="period in days (default 30, at most 36500)"
    )
    parser.add_argument(
        "--limit", type=int, default=10, help="questions and ratings listed (default 10)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def check_days(days: float) -> None:
    """Refuse a period that is not a number of days from just over 0 to :data:`MAX_DAYS`.

    ``--days`` is a float, so argparse also accepts ``nan``, ``inf`` and ``1e308``; those would
    make the start of the period unprintable (a traceback) or invalid JSON (``-Infinity``).
    """
    from bot.errors import ConfigError

    if math.isnan(days):
        raise ConfigError("--days must be a number of days, not nan")
    if days <= 0:
        raise ConfigError(f"--days must be more than 0, not {days:g}")
    if days > MAX_DAYS:
        raise ConfigError(f"--days must be at most {MAX_DAYS} (100 years), not {days:g}")


def run(args: argparse.Namespace) -> int:
    """Print the report (see :func:`_run`); an error names the ``--config`` given (see
    :mod:`bot.commands.config_named`)."""
    from bot.commands.config_named import naming_config

    with naming_config(args.config):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Read the store and print the report."""
    from bot.commands.output import write_stdout
    from bot.config_file import load_settings, without_config_note
    from bot.errors import ConfigError
    from bot.path_lookup import path_state
    from bot.store import Store
    from bot.usage_report import build_report

    check_days(args.days)
    if args.limit < 0:
        raise ConfigError(f"--limit must be 0 or more, not {args.limit}")
    path = load_settings(args.config, opens_data=True).store.path
    found = path_state(path, shown=f"store.path {path}", error=ConfigError)
    if path != ":memory:" and not found.exists:
        note = without_config_note(args.config)
        raise ConfigError(
            f"no store at {path} yet: citecast serve creates it" + (f" ({note})" if note else "")
        )
    if path != ":memory:" and found.is_dir:
        raise ConfigError(f"store.path {path} is a folder, not a store file")
    # read-only (SQLite mode=ro): never creates tables, switches the journal or prunes, and
    # works for a user who may only read the store file
    store = Store.open_read_only(path)
    try:
        report = build_report(store, time.time() - args.days * 86400, args.days, args.limit)
    finally:
        store.close()
    if args.json:
        data = dataclasses.asdict(report)
        data["total"] = dataclasses.asdict(report.total)
        # --days 30 is 30, not 30.0: a float only when the period has a fraction of a day
        data["days"] = int(report.days) if float(report.days).is_integer() else report.days
        write_stdout(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        write_stdout(format_report(report))
    return 0


def format_report(report: UsageReport) -> str:
    """The report as tables and lists, sized for the terminal (80 columns when piped)."""
    from bot.commands.output import stdout_console

    console = stdout_console(highlight=False)
    with console.capture() as capture:
        _print_report(report, console)
    # rich pads the table's blank lines to the full width: nothing to copy or diff
    return "".join(line.rstrip() + "\n" for line in capture.get().splitlines())


def _print_report(report: UsageReport, console: Console) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from bot.usage_report import COLUMNS, one_line

    start = datetime.fromtimestamp(report.since, UTC).strftime("%Y-%m-%d %H:%M UTC")
    period = "day" if report.days == 1 else f"{report.days:g} days"
    console.print(f"citecast report: the last {period} (since {start})")
    if not report.channels:
        console.print("No questions and no votes in this period.")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("channel", no_wrap=True)
    # small talk and dropped citations are lines under the table: a ninth column would not fit
    # 80 characters
    columns = [column for column in COLUMNS if column not in ("small_talk", "citations_dropped")]
    for column in columns:
        table.add_column(
            HEADERS.get(column, column.replace("_", " ")), justify="right", no_wrap=True
        )
    for usage in (*report.channels, report.total):
        # Text, not a str: a cell string would be read as rich markup ("[bold]…")
        table.add_row(Text(shown(usage.channel)), *(str(getattr(usage, c)) for c in columns))
    console.print(table)
    if report.total.small_talk:
        console.print(
            f"Small talk (greetings, thanks): {report.total.small_talk}, answered without "
            "sources by design.",
            markup=False,
        )
    if report.total.citations_dropped:
        console.print(
            "Every citation dropped (wrong markers, not missing documents): "
            f"{report.total.citations_dropped}.",
            markup=False,
        )
    # One line per question, cut with an ellipsis at the terminal's edge: a question pasted
    # with a whole log in it must not push the rest of the report off the screen.
    _questions(
        console,
        "Asked most often without sources (the documents to write next):",
        report.unanswered,
        report.unanswered_more,
    )
    _questions(
        console,
        "Answered, but every citation was dropped (check the model's citation markers):",
        report.citations_dropped,
        report.citations_dropped_more,
    )
    if report.not_helpful or report.not_helpful_more:
        console.print("Latest answers rated not helpful:")
        for turn_id, channel, question in report.not_helpful:
            console.print(
                f"  turn {turn_id} ({shown(channel)}): {shown(one_line(question))}",
                markup=False,
                no_wrap=True,
                overflow="ellipsis",
            )
        _more(console, report.not_helpful_more, "answer")


def _questions(
    console: Console, heading: str, questions: tuple[tuple[str, int], ...], more: int
) -> None:
    """``heading`` and one line per question with the times it was asked, when there are any."""
    from bot.usage_report import one_line

    if not questions and not more:  # --limit 0 lists none, but says how many there are
        return
    console.print(heading, markup=False)
    # one width for the list: "1010×" must not push its question past the others' ("987×")
    width = max((len(str(times)) for _, times in questions), default=3)
    for question, times in questions:
        console.print(
            f"  {times:>{max(width, 3)}}×  {shown(one_line(question))}",
            markup=False,
            no_wrap=True,
            overflow="ellipsis",
        )
    _more(console, more, "question")


def _more(console: Console, more: int, noun: str) -> None:
    """ "  … and 4 more questions (--limit lists more)" under a list cut at ``--limit``."""
    if more:
        nouns = noun if more == 1 else f"{noun}s"
        console.print(f"  … and {more} more {nouns} (--limit lists more)", markup=False)
