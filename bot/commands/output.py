"""Commands' standard streams: reading stdin strictly, printing the result on stdout, and
counted nouns in their summaries; the viewer's ``--audience`` groups.

Not a command itself (``bot.cli.COMMANDS`` lists those); shared by the ones that print.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress


MAX_INPUT_BYTES = 50_000_000
"""Input larger than this (stdin, ``preview --answer``) is refused: it is read whole into
memory, and no answer is near it (``render < /dev/zero`` would fill the memory)."""

BOM = "\ufeff"
"""A UTF-8 byte order mark, as Notepad and Windows PowerShell write it at the start of a file or
a pipe: never part of an answer, and JSON with it in front would not parse."""


def read_stdin(command: str = "") -> str:
    """All of stdin as UTF-8 text, without a leading byte order mark; ValidationError when it is
    not UTF-8 or too large. ``command`` (``render``) names the command in the hint a terminal
    gets, as every other line it prints does.

    Read as bytes: under the C/POSIX locale Python decodes stdin with ``surrogateescape``, so a
    stray ``\\xff`` would pass through as a lone surrogate and reach the output unnoticed.
    """
    from bot.errors import ValidationError

    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise ValidationError("no input: stdin is closed")
    if sys.stdin.isatty():
        # run bare at a prompt (`citecast render`), the command would seem to hang
        name = f"citecast {command}" if command else "citecast"
        print(
            f"{name}: reading the input from the terminal; paste it, then press Ctrl-D "
            "(or give a file: < FILE)",
            file=sys.stderr,
        )
    buffer = getattr(sys.stdin, "buffer", None)
    raw = buffer.read(MAX_INPUT_BYTES + 1) if buffer is not None else sys.stdin.read()
    if len(raw) > MAX_INPUT_BYTES:
        raise ValidationError(f"stdin: larger than {MAX_INPUT_BYTES // 1_000_000} MB")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise ValidationError(f"stdin: not valid UTF-8: {exc.reason}") from None
    return text.removeprefix(BOM)


def read_file(path: str) -> str:
    """The UTF-8 text of the file at ``path`` (a leading byte order mark dropped); ValidationError
    naming it otherwise."""
    from bot.errors import ValidationError

    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise ValidationError(file_problem(path, exc)) from None
    if len(raw) > MAX_INPUT_BYTES:
        raise ValidationError(f"{path}: larger than {MAX_INPUT_BYTES // 1_000_000} MB")
    try:
        return raw.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{path}: not valid UTF-8: {exc.reason}") from None


def file_problem(path: str, exc: OSError) -> str:
    """Why the file at ``path`` cannot be read, in one line that names it once:
    ``a.json: no such file``, ``docs: is a folder, not a file``, ``a.json: cannot read:
    permission denied`` (Python's own text, ``[Errno 2] No such file or directory: 'a.json'``,
    names the path twice and the errno that helps nobody)."""
    if isinstance(exc, FileNotFoundError):
        return f"{path}: no such file"
    if isinstance(exc, IsADirectoryError):
        return f"{path}: is a folder, not a file"
    reason = exc.strerror or str(exc)
    return f"{path}: cannot read: {reason[:1].lower()}{reason[1:]}"


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout and flush; stop quietly when the reader has gone.

    ``citecast resolve ... | head -1`` closes the pipe after one line: the rest of the output
    is unwanted, not an error, so the command still ends normally (status 0, nothing on stderr).
    Any other failure (``> /dev/full``, a closed stdout) loses the result: a CitecastError, so
    one line on stderr and status 2 rather than a traceback.
    """
    from bot.errors import CitecastError

    if sys.stdout is None:  # started with stdout closed (`>&-`)
        raise CitecastError("cannot write the result: stdout is closed")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
    except OSError as exc:
        _discard_stdout()
        raise CitecastError(f"cannot write the result to stdout: {exc.strerror or exc}") from None


def _discard_stdout() -> None:
    # Point stdout at /dev/null: the interpreter flushes stdout again at exit, and that flush
    # would fail too and print "Exception ignored ... BrokenPipeError" on stderr.
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def stdout_console(*, highlight: bool = True, soft_wrap: bool = False) -> Console:
    """A rich Console as wide and as colourful as stdout, that writes into memory instead.

    Commands capture what they print on it and hand the text to :func:`write_stdout`: a
    Console on stdout itself writes (and flushes) when its capture ends, where a full disk or
    a closed pipe would raise inside rich, a traceback rather than one line.
    """
    import io

    from rich.console import Console

    probe = Console()  # sizes and colours for stdout (a terminal, or 80 columns when piped)
    return Console(
        file=io.StringIO(),
        width=probe.width,
        force_terminal=probe.is_terminal,
        color_system=probe.color_system,  # type: ignore[arg-type]  # one of the names it takes
        no_color=probe.no_color,
        highlight=highlight,
        soft_wrap=soft_wrap,
    )


# What a terminal acts on rather than shows, in text printed as lines: C0 controls but the line
# break and tab (ESC starts colour, title and screen-clearing sequences; a carriage return lets
# a line overwrite itself), DEL, C1 controls (0x9b is a one-byte CSI on some terminals), and the
# bidi overrides and isolates that reorder the rest of a line.
_TERMINAL_ACTS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_ACTED_ON = re.compile(f"[{_TERMINAL_ACTS}]")
# The left-to-right, right-to-left and Arabic letter marks only turn the neutral characters
# next to them: Arabic and Hebrew text uses them, so a document's text keeps them.
_ACTED_ON_OR_MARKS = re.compile(f"[{_TERMINAL_ACTS}\u061c\u200e\u200f]")


def terminal_text(text: str, *, marks: bool = False) -> str:
    """``text`` with each character a terminal would act on written as a visible escape
    (``\\x1b``, ``\\u202e``), line breaks and tabs kept; with ``marks``, the bidi marks too.

    An answer quotes documents, and a source's title is the document's: neither may recolour,
    retitle or clear the terminal it is printed in (``citecast ask``). A question in ``citecast
    report`` is anyone's text on one line, shown with ``marks``, as nothing of it needs them.
    """
    pattern = _ACTED_ON_OR_MARKS if marks else _ACTED_ON
    return pattern.sub(
        lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text
    )


_LINE_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_LINE_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_line(text: str) -> str:
    """``text`` kept on one line: line breaks and tabs written ``\\n``, ``\\r``, ``\\t``, other
    control characters as ``\\x1b``. A file name holding a line break ("a\\nb.md") would
    otherwise split a summary line or a Sources: entry, or forge one ("x.md\\n  skipped y.md")."""
    return _LINE_CONTROLS.sub(lambda m: _LINE_ESCAPES.get(m[0], f"\\x{ord(m[0]):02x}"), text)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 file``, ``0 files``, ``2 files`` (``nouns``: an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def check_utf8(value: str, what: str) -> None:
    """Refuse an argument the shell passed as bytes that are not UTF-8 (``$'staff\\xff'``).

    Python hands them on as lone surrogates (``\\udcff``), which pass every check until
    something encodes them: a traceback when an ingested file's fingerprint or a stored turn is
    written, or a group nobody is in, matched silently. ``what`` names the argument.
    """
    from bot.errors import ValidationError

    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(f"{what}: not valid UTF-8") from None


def viewer_groups(values: list[str] | None) -> list[str]:
    """The groups of ``--audience`` flags: repeatable, each also a comma-separated list
    (``--audience staff,hr``); a viewer without the flag is public.

    A blank value or name (``--audience ""``, ``--audience staff,``) is a ValidationError, as
    ``citecast ingest`` refuses one: it is most often an unset ``"$GROUP"``, and answering as
    the public instead would look like the groups' answer while leaving their sources out. So
    is a name holding ``|`` (``--audience 'staff|hr'``), which no document's group can match,
    or a control character or line break (a newline read into ``"$GROUP"`` with the name).
    """
    from bot.errors import ValidationError

    groups: list[str] = []
    for value in values or []:
        check_utf8(value, "--audience")
        names = [name.strip() for name in value.split(",")]
        if not any(names):
            raise ValidationError(
                f"--audience {value!r} names no group; leave --audience out to answer as the public"
            )
        if not all(names):
            raise ValidationError(f"empty group name in --audience {value!r}")
        if any("|" in name for name in names):
            # the index joins a document's groups with |: a viewer's `staff|hr` matches no
            # document's group and was dropped, answering as the public without a word
            raise ValidationError(
                f"| in a group name in --audience {value!r}; separate groups with commas"
            )
        if any(_breaks_a_name(character) for name in names for character in name):
            # a newline or tab in "$GROUP" (read from a file) is in no document's group name
            raise ValidationError(
                f"a control character or line break in a group name in --audience {value!r}; "
                "write each group's name on one line, as its documents do"
            )
        groups += names
    return groups


def _breaks_a_name(character: str) -> bool:
    """A control character (category Cc: a newline, a tab, an escape) or a Unicode line or
    paragraph separator. Other characters that do not print on their own are part of names:
    the zero-width non-joiner of Persian spelling, a no-break space, a soft hyphen."""
    return unicodedata.category(character) in ("Cc", "Zl", "Zp")


def progress_bar(verb: str, show: bool) -> Progress:
    """A rich progress bar on stderr ("ingesting ━━━ 12/40 docs/a.md"), shown only when ``show``
    and stderr is a terminal: piped, a bar leaves a stray newline behind."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    errors = Console(file=sys.stderr)
    return Progress(
        TextColumn(verb),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}", style="dim"),
        console=errors,
        transient=True,
        disable=not show or not errors.is_terminal,
    )
