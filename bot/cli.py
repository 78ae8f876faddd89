"""The ``citecast`` command: one sub-command per module in ``bot/commands/``.

Each command module exposes ``HELP`` (one line), ``DESCRIPTION`` (the ``--help`` text, with an
example), ``add_arguments(parser)`` and ``run(args) -> int``. Modules keep heavy imports inside
``run`` so ``citecast --help`` stays fast. Every :class:`bot.errors.CitecastError` becomes one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from bot.errors import CitecastError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

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


# argparse writes an invalid choice's value and each choice as repr() of a str: one quoted
# literal, its quote escaped inside. Quantifiers that cannot overlap: linear on any message.
_QUOTED = r"""'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*\""""
_INVALID_CHOICE = "invalid choice: "
_COMMAND_METAVAR = "COMMAND"
# argparse names a mistyped command by the metavar of the commands' place in the usage line,
# a word the reader never typed ("COMMAND: invalid choice: 'askk'")
_COMMAND_CHOICE = f"{_COMMAND_METAVAR}: {_INVALID_CHOICE}"
_CHOICE_TAIL = re.compile(
    rf"({_QUOTED})( \(choose from ((?:{_QUOTED})(?:, (?:{_QUOTED}))*)\))", re.DOTALL
)


def choice_hint(message: str) -> str:
    """argparse's ``invalid choice`` error with the closest choice, as a misspelt option gets:
    ``argument COMMAND: invalid choice: 'injest', did you mean ingest? (choose from ...)``.

    Any other message is returned as it is. The message is read, never evaluated: an
    "unrecognized arguments" error repeats the user's own words, which may look like one
    (``invalid choice: {[]: 1} (choose from 1)``), and only argparse's first "invalid choice"
    is its own (a value may repeat the words). Choices are compared as written inside their
    quotes, which for the commands' plain names is the name.
    """
    import difflib

    at = message.find(_INVALID_CHOICE)
    if at < 0:
        return message
    head = at + len(_INVALID_CHOICE)
    found = _CHOICE_TAIL.fullmatch(message, head)
    if found is None:
        return message
    names = [choice[1:-1] for choice in re.findall(_QUOTED, found[3])]
    close = difflib.get_close_matches(found[1][1:-1], names, n=1, cutoff=0.6)
    if not close:
        return message
    return f"{message[:head]}{found[1]}, did you mean {close[0]}?{found[2]}"


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line, as every other error of a command
    is, and whose ``invalid choice`` errors name the closest choice; the commands' parsers are
    of this class too (``add_subparsers`` makes them of the parent's class)."""

    def error(self, message: str) -> NoReturn:
        """``citecast eval: --runs: invalid int value: 'abc' (see citecast eval --help)`` on
        stderr, status 2: argparse's usage lines before it buried the reason, and the
        ``--help`` it points to says more than the usage did. A mistyped command is
        ``citecast: invalid command 'askk', did you mean ask? (choose from ...)``."""
        reason = choice_hint(message).removeprefix("argument ")
        if reason.startswith(_COMMAND_CHOICE):
            reason = "invalid command " + reason.removeprefix(_COMMAND_CHOICE)
        self.exit(2, f"{self.prog}: {reason} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Write ``--help`` and ``--version`` as the commands write their results: argparse
        drops an OSError, so ``citecast --help > /dev/full`` said nothing and exited 0.

        With stdout closed (``>&-``) ``sys.stdout`` is None, so argparse hands ``--help`` and
        ``--version`` over as ``file=None`` and would write them to stderr, status 0; every
        message meant for stderr names it (``exit``, ``print_usage(sys.stderr)``)."""
        to_stdout = file is sys.stdout or (file is None and sys.stdout is None)
        if not message or not to_stdout:
            super()._print_message(message, file)
            return
        from bot.commands.output import write_stdout

        try:
            write_stdout(message)  # a reader gone away (`| head -1`) ends quietly, status 0
        except CitecastError as exc:
            print(f"{self.prog}: {exc}", file=sys.stderr)
            raise SystemExit(2) from None


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (used by ``main`` and by the tests)."""
    parser = _Parser(
        prog="citecast",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", help=CONFIG_HELP)
    parser.add_argument("--version", action="version", version=f"citecast {_version()}")
    sub = parser.add_subparsers(dest="command", metavar=_COMMAND_METAVAR)
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


STRAY_VALUE_HINTS = {
    "ask": 'put the whole question in quotes: citecast ask "How do I install it?"',
    "render": "the Answer JSON goes on stdin: citecast render < A.json",
    "resolve": "the raw answer goes on stdin: citecast resolve --sources S.json < raw.txt",
    "preview": "name the Answer file with --answer: citecast preview --answer A.json",
}
"""What a command says about a value it has no place for: people type a file name after
``render``, or a question without its quotes."""

NUMBER_OPTIONS = {"serve": "--port", "report": "--days"}
"""The option a bare number after a command was most likely meant for (``citecast serve
9110``, ``citecast report 7``)."""


def _command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            command: argparse.ArgumentParser = action.choices[name]
            return command
    return parser


def _stray_values(extras: list[str]) -> list[int]:
    """The positions of ``extras`` that are values: not an option, and not the value of a
    misspelt option (``--chanel slack``)."""
    positions: list[int] = []
    after_option = False
    for position, extra in enumerate(extras):
        if not (extra.startswith("-") and len(extra) > 1) and not after_option:
            positions.append(position)
        after_option = extra.startswith("-") and "=" not in extra
    return positions


def unrecognized_message(
    command: argparse.ArgumentParser, name: str, extras: list[str], question: str | None = None
) -> str:
    """``unrecognized arguments: --chanel slack (did you mean --channel?)`` for ``extras``.

    Each misspelt option is named with the command's closest option, as a misspelt config key
    is; a stray value (``citecast render A.json``) says where that command's input goes. The
    words of an unquoted question (``question``, ``ask``'s first word) are quoted back whole.
    """
    import difflib

    from bot.commands.ask import unquoted_question_hint

    known = [option for option in command._option_string_actions if option.startswith("--")]
    stray = _stray_values(extras)
    stray_hint = STRAY_VALUE_HINTS.get(name)
    if name == "ask" and question and stray:
        stray_hint = unquoted_question_hint([question, *(extras[at] for at in stray)])
    hints: list[str] = []
    for position, extra in enumerate(extras):
        hint = None
        if extra.startswith("-") and len(extra) > 1:
            guess = difflib.get_close_matches(extra.partition("=")[0], known, n=1, cutoff=0.6)
            hint = f"did you mean {guess[0]}?" if guess else None
        elif position in stray:
            option = NUMBER_OPTIONS.get(name) if extra.isdecimal() else None
            hint = f"did you mean {option} {extra}?" if option else stray_hint
        if hint and hint not in hints:
            hints.append(hint)
    message = "unrecognized arguments: " + " ".join(extras)
    return message + (f" ({'; '.join(hints)})" if hints else "")


def _choose_a_command(parser: argparse.ArgumentParser) -> None:
    """Say on stderr, as argparse says any other usage error, that a command is missing.

    Nothing was done, so the status is 2 and stdout stays empty: ``citecast $CMD`` with an
    unset variable fails in a script rather than passing, and piped on (``| citecast render``)
    it hands the next command nothing instead of the help text. ``--help`` prints the help.
    """
    names = ", ".join(
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    )
    parser.print_usage(sys.stderr)
    print(
        f"{parser.prog}: error: choose a command: {names} (citecast --help explains each)",
        file=sys.stderr,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citecast`` console script."""
    name: str | None = None
    try:
        # Ctrl-C while the command modules are still importing is an interrupt like any other
        # (status 130, nothing on stderr), not a traceback through importlib.
        parser = build_parser()
        args, extras = parser.parse_known_args(argv)
        name = getattr(args, "command", None)
        if extras:
            # argparse would name the top-level parser and its usage, not the command's
            command = _command_parser(parser, name) if name else parser
            question = getattr(args, "question", None) if name == "ask" else None
            command.error(unrecognized_message(command, name or "", extras, question))
        if not name:
            _choose_a_command(parser)
            return 2
        return int(args.run(args))
    except CitecastError as exc:
        for line in str(exc).splitlines() or [""]:  # several problems: a line each
            print(f"citecast {name}: {line}", file=sys.stderr)
        return 2
    except OSError as exc:
        # the last resort for a file that could not be looked up or read where no check named
        # it (a folder this user cannot search): one line and the status of any refusal, not a
        # traceback with eval's missed-gate status 1
        reason = exc.strerror or str(exc)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"citecast {name}: {where}{reason[:1].lower()}{reason[1:]}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        # pathlib's resolve() says a symlink loop so ("Symlink loop from '/srv/loop'"), where
        # no check named the path: one line and status 2 like an OSError; any other
        # RuntimeError is a bug, whose traceback is wanted
        loop = str(exc).removeprefix("Symlink loop from ")
        if loop == str(exc):
            raise
        where = loop[1:-1] if loop[:1] == loop[-1:] and loop[:1] in ("'", '"') else loop
        print(f"citecast {name}: {where}: cannot look it up: a symlink loop", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
