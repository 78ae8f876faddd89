"""``citecast preview``: one answer as every channel would show it, side by side, in one page."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write an HTML page showing an answer as each channel would display it"
DESCRIPTION = """\
Render one answer for Slack, Discord, email, Discourse and the web and write a single
self-contained HTML page that shows them side by side, so a person can check every citation by
eye. Without --answer, a built-in sample answer is used (a PDF page, a web page, a record with
an action button and a file without a public URL). The page shows the answer as the --audience
viewer (default: the public) sees it: an answer citing a source they may not see is refused
(exit 2).

examples:
  citecast preview                              write preview.html from the sample answer
  citecast resolve --sources s.json < raw.txt > answer.json
  citecast preview --answer answer.json --out answer.html
  citecast resolve --sources s.json < raw.txt | citecast preview --answer - --out - > page.html
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's options."""
    parser.add_argument("--answer", metavar="A.json", help="Answer JSON file ('-' for stdin)")
    parser.add_argument(
        "--out", default="preview.html", help="output file ('-' for stdout; default: preview.html)"
    )
    parser.add_argument("--public-base-url", help="base URL of this deployment")
    from bot.commands.answer_audience import add_audience_argument

    add_audience_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Write the preview page; print its path."""
    from bot.assistant.own_replies import answer_language
    from bot.commands.answer_audience import check_answer_audience
    from bot.commands.answer_input import read_answer
    from bot.commands.output import read_file, read_stdin, viewer_groups, write_stdout
    from bot.commands.render import check_base_url
    from bot.commands.render_log import command_warnings
    from bot.commands.whole_file import write_whole
    from bot.config_file import load_settings
    from bot.errors import ValidationError
    from bot.path_lookup import resolved
    from renderers.base import RenderContext
    from renderers.preview import preview_page
    from renderers.sample import sample_answer

    check_base_url(args.public_base_url)
    viewer = viewer_groups(args.audience) or ["public"]  # a flag error before reading stdin
    if args.answer is not None and not args.answer.strip():
        # an unset "$ANSWER": showing the sample instead would look like success
        raise ValidationError("--answer: empty path; name an Answer JSON file, or - for stdin")
    if not args.out.strip():
        raise ValidationError("--out: empty path; name the HTML file to write")
    # a broken config.yaml stops every command at start, before stdin is read (as `resolve`)
    settings = load_settings(args.config)
    to_stdout = args.out == "-"  # as --answer - reads stdin; not a file named "-"
    if (
        args.answer not in (None, "-")
        and not to_stdout
        and resolved(args.out) == resolved(args.answer)
    ):
        # the page would overwrite the answer it shows, as `citecast eval` refuses for its data
        raise ValidationError(f"--out {args.out} is the --answer file itself")
    if args.answer:
        raw = read_stdin("preview") if args.answer == "-" else read_file(args.answer)
        # "citecast preview: dropping unsafe URL from source 'a'", as every line it prints
        with command_warnings("preview"):
            answer, _ = read_answer(raw, "stdin" if args.answer == "-" else args.answer)
    else:
        answer = sample_answer()
    # marked in that language as the channels mark it (bot.connectors.render_context)
    language = answer_language(answer, settings.assistant.language)
    context = RenderContext(
        public_base_url=args.public_base_url,
        language=language,
        audience=frozenset(viewer),
        # [n?] below grounding.threshold, as the channels mark it (0.35 without a config file)
        weak_below=settings.grounding.threshold,
    )
    # a staff answer's hidden source would leave its claim on the page beside a "restricted
    # source"
    check_answer_audience(answer, viewer, f"--audience {','.join(viewer)}")
    page = preview_page(answer, context)
    if to_stdout:
        write_stdout(page)
        return 0
    out = Path(args.out)
    try:
        write_whole(out, page)  # a write that fails part-way leaves the old page, not half
    except OSError as exc:
        # "No such file or directory" for a file about to be created: the folder is missing
        reason = f"no folder {out.parent}" if not out.parent.is_dir() else exc.strerror or exc
        raise ValidationError(f"cannot write {out}: {reason}") from None
    write_stdout(f"{out}\n")
    return 0
