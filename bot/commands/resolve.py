"""``citecast resolve --sources S.json``: a raw model answer on stdin -> Answer JSON on stdout."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.models import Source

HELP = "resolve a raw model answer (stdin) against a list of sources into Answer JSON"
DESCRIPTION = """\
Read the raw answer a model wrote on stdin, resolve its citation markers against the sources,
and print the canonical Answer as JSON: {"text", "citations", "dropped"}. The text is CommonMark
with each citation written [^n]; "dropped" lists every removed marker with its reason (unknown,
out_of_range, forbidden, uncitable, invalid_token, placeholder, over_limit).

The sources file is a JSON list of Source objects, registered in order: each new citable entry
gets the next number (1, 2, ...), a duplicate (same id, or same URL + page + chunk) shares the
number of its first occurrence, and an uncitable entry or one the viewer may not see gets none.
Source fields: id (required), title, url, filename, path, media_type, page, page_end, section,
chunk, text, citable, audience, kind, key, label, columns, action.

Markers understood: [1] [1, 3-5] [^1] <citation>1 | quote</citation> <CIT id /> [cite: 2]
[Source 2] 【2】 [[source key="..." columns="a, b"]] [1](url) and private-use markers; never
inside code or math. Resolve policy comes from the `resolve:` section of config.yaml.

example:
  $ cat sources.json
  [{"id": "guide", "title": "Install guide", "url": "https://example.com/install"},
   {"id": "manual", "title": "Manual", "url": "https://example.com/manual.pdf", "page": 12}]
  $ echo 'Run the installer [2]. It needs Python 3.11 <CIT guide />.' \\
      | citecast resolve --sources sources.json
  {"text": "Run the installer [^1]. It needs Python 3.11 [^2].", "citations": [...], ...}

A malformed file or entry (also one nested too deeply or larger than 50 MB), or empty stdin,
exits with status 2 and one line naming it, e.g.
  citecast resolve: sources.json: entry 3: page must be an integer
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``citecast resolve``."""
    parser.add_argument(
        "--sources", required=True, metavar="S.json", help="JSON list of Source objects"
    )
    parser.add_argument(
        "--audience",
        nargs="+",
        action="extend",
        metavar="GROUP",
        help="groups the viewer belongs to (default: public)",
    )
    parser.add_argument(
        "--numbering",
        choices=("appearance", "registry"),
        help="display numbers by first appearance (default) or keep the registry's numbers",
    )


MAX_SOURCES_BYTES = 50_000_000
"""A sources file larger than this is refused (it is read whole into memory)."""


def load_sources(path: str) -> list[Source]:
    """The sources of ``path``; a ValidationError naming the file and the entry otherwise."""
    import json
    import sys

    from bot.commands.output import file_problem
    from bot.errors import ValidationError
    from bot.models import Source

    if not path.strip():  # an unset "$SOURCES"
        raise ValidationError("--sources: empty path; name a JSON file of sources")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SOURCES_BYTES + 1)
    except OSError as exc:
        raise ValidationError(file_problem(path, exc)) from None
    if len(raw) > MAX_SOURCES_BYTES:
        raise ValidationError(f"{path}: larger than {MAX_SOURCES_BYTES // 1_000_000} MB")
    try:
        data: Any = json.loads(raw.decode("utf-8-sig"))  # as Notepad saves it, BOM first
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{path}: not valid UTF-8: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        # the stdlib decoder recurses once per nesting level; no valid sources file nests deeply
        raise ValidationError(f"{path}: JSON nested too deeply") from None
    except ValueError:  # an integer longer than sys.get_int_max_str_digits() (4300)
        digits = sys.get_int_max_str_digits()
        raise ValidationError(f"{path}: a number in it has more than {digits} digits") from None
    if not isinstance(data, list):
        raise ValidationError(f"{path}: must be a JSON list of sources")
    sources: list[Source] = []
    for index, entry in enumerate(data, start=1):
        try:
            source = Source.from_json(entry)
        except ValidationError as exc:
            raise ValidationError(f"{path}: entry {index}: {exc}") from None
        if source.page_end is not None and (source.page is None or source.page_end < source.page):
            # "pages 7-3" would be cited as written: a page range must run forwards
            needs = "a page" if source.page is None else f"page ({source.page}) or more"
            raise ValidationError(
                f"{path}: entry {index}: source {source.id!r}: page_end ({source.page_end}) "
                f"needs {needs}"
            )
        sources.append(source)
    return sources


def run(args: argparse.Namespace) -> int:
    """Resolve stdin against the sources and print the Answer JSON (see :func:`_run`)."""
    from bot.commands.render_log import command_warnings

    # "citecast resolve: dropping unsafe URL from source 'a'", as every line it prints
    with command_warnings("resolve"):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Read the sources and the raw answer, resolve, print."""
    import dataclasses
    import json

    from bot.commands.output import read_stdin, viewer_groups, write_stdout
    from bot.config_file import load_settings
    from bot.errors import ValidationError
    from bot.registry import SourceRegistry
    from bot.resolver import ResolvePolicy, resolve

    viewer = viewer_groups(args.audience) or ["public"]  # a flag error before reading stdin
    sources = load_sources(args.sources)
    settings = load_settings(getattr(args, "config", None)).resolve
    policy = ResolvePolicy.from_settings(settings)
    if args.numbering:
        policy = dataclasses.replace(policy, numbering=args.numbering)
    raw = read_stdin("resolve")
    if not raw.strip():
        # as `render` refuses one: an empty answer is a pipe whose first command failed, and
        # an Answer of no text would pass it on as if the model had said nothing
        raise ValidationError("no input: stdin is empty; give it the model's raw answer")
    registry = SourceRegistry(viewer)
    registry.register_all(sources)
    answer = resolve(raw, registry, policy)
    write_stdout(json.dumps(answer.to_json(), ensure_ascii=False, indent=2) + "\n")
    return 0
