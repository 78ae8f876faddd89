"""The ``citecast`` command: one sub-command per module in ``bot/commands/``.

Each command module exposes ``HELP`` (one line), ``DESCRIPTION`` (the ``--help`` text, with an
example), ``add_arguments(parser)`` and ``run(args) -> int``. Modules keep heavy imports inside
``run`` so ``citecast --help`` stays fast. Every :class:`bot.errors.CitecastError` becomes one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from bot.errors import CitecastError

COMMANDS = ("serve", "ask", "ingest", "resolve", "render", "preview", "eval", "report")

DESCRIPTION = """\
citecast answers questions from a knowledge base and delivers each answer, with citations that
always point at the right source, to the web, Slack, email, Discord and Discourse.

examples:
  citecast ingest examples/            build the search index from the sample knowledge base
  citecast ask "How do I install it?"  answer with a Sources: list
  echo 'Fact [1].' | citecast resolve --sources sources.json
  citecast resolve --sources s.json < raw.txt | citecast render --channel slack
  citecast report --days 7             what people asked last week, and what went unanswered
"""

CONFIG_HELP = "path to config.yaml (default: $CITECAST_CONFIG, else ./config.yaml)"


def _command_modules() -> list[tuple[str, ModuleType]]:
    found: list[tuple[str, ModuleType]] = []
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"bot.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bot.commands.{name}":
                continue  # a command not built yet in this checkout
            raise
        found.append((name, module))
    return found


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("citecast")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (used by ``main`` and by the tests)."""
    parser = argparse.ArgumentParser(
        prog="citecast",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", help=CONFIG_HELP)
    parser.add_argument("--version", action="version", version=f"citecast {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in _command_modules():
        command = sub.add_parser(
            name,
            help=module.HELP,
            description=module.DESCRIPTION,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command)
        # also after the command (`citecast serve --config x.yaml`), as people type it;
        # SUPPRESS keeps a --config given before the command when this one is absent
        command.add_argument(
            "--config",
            default=argparse.SUPPRESS,
            help=CONFIG_HELP,
        )
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citecast`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except CitecastError as exc:
        print(f"citecast {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
