"""``citecast render --channel NAME``: Answer JSON on stdin -> the channel's payload JSON."""

from __future__ import annotations

import argparse
import json

HELP = "render an Answer (JSON on stdin) as a channel's payload (JSON on stdout)"
DESCRIPTION = """\
Read a canonical Answer (the JSON that `citecast resolve` prints) on stdin and print what the
renderer of a channel would send: web {html, citations}, slack {messages, files}, discord
{messages, files}, email {subject, text, html, attachments, headers}, discourse {raw, uploads}.
With --channel all, print one object keyed by channel. Capability overrides come from the
`capabilities:` section of config.yaml. Bad input exits 2 with a one-line reason, and so does
an answer citing a source the --audience viewer may not see: resolve it for that audience.

examples:
  citecast resolve --sources s.json < raw.txt | citecast render --channel slack
  citecast render --channel all --public-base-url https://bot.example.com < answer.json
  citecast render --channel email --public-base-url https://bot.example.com --turn-key 7-ab12 \\
      < long-answer.json
"""

CHOICES = ("web", "slack", "email", "discord", "discourse", "all")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's options."""
    parser.add_argument("--channel", choices=CHOICES, default="all", help="default: all")
    parser.add_argument("--public-base-url", help="base URL of this deployment")
    parser.add_argument(
        "--turn-key",
        metavar="KEY",
        help="the turn's page key (the end of an answer's share_url): with --public-base-url, "
        "a shortened source list or email links the whole answer at URL/turns/KEY",
    )
    parser.add_argument(
        "--show",
        choices=("cited", "all", "none"),
        default="cited",
        help="which sources to list: cited ones (default), all, or none",
    )
    from bot.commands.answer_audience import add_audience_argument

    add_audience_argument(parser)


def check_base_url(url: str | None) -> None:
    """Refuse a ``--public-base-url`` that links could not be built on (``bot.example.com``):
    renderers drop every link that is not http(s), so it would lose them without a word."""
    from bot.commands.output import check_utf8
    from bot.config import base_url_problem
    from bot.errors import ValidationError

    if url is not None:
        check_utf8(url, "--public-base-url")  # else a host no link is built on, silently
    problem = None if url is None else base_url_problem(url)
    if problem:
        raise ValidationError(f"--public-base-url {problem}")


def check_turn_key(key: str | None, base_url: str | None) -> None:
    """Refuse a ``--turn-key`` no link could be built with: without ``--public-base-url`` it
    would do nothing, and a whole share_url or a mistyped key would give a link to no page."""
    import re

    from bot.errors import ValidationError

    if key is None:
        return
    if base_url is None:
        raise ValidationError("--turn-key needs --public-base-url: the link is built on it")
    if "/turns/" in key:
        raise ValidationError(
            f"--turn-key takes the end of the share_url (the part after /turns/), not {key!r}"
        )
    # FileSigner.turn_key: the turn id, a dash and its URL-safe base64 signature
    if not re.fullmatch(r"[0-9]+-[A-Za-z0-9_-]+", key):
        raise ValidationError(
            f"--turn-key must look like 7-AbC123 (turn id, dash, key), not {key!r}"
        )


def run(args: argparse.Namespace) -> int:
    """Render stdin's Answer; print the payload JSON."""
    import dataclasses

    from bot.assistant.own_replies import answer_language
    from bot.commands.answer_audience import check_answer_audience
    from bot.commands.answer_input import read_answer
    from bot.commands.output import read_stdin, viewer_groups, write_stdout
    from bot.commands.render_log import command_warnings
    from bot.config_file import load_settings
    from renderers import CHANNELS, render_tokens
    from renderers.base import RenderContext, capabilities_for

    check_base_url(args.public_base_url)
    check_turn_key(args.turn_key, args.public_base_url)
    viewer = viewer_groups(args.audience) or ["public"]  # a flag error before reading stdin
    # a config error before reading stdin too: typed at a prompt, the answer would be lost
    settings = load_settings(args.config)
    with command_warnings("render"):  # "citecast render: dropping unsafe URL from source 'a'"
        answer, tokens = read_answer(read_stdin("render"), "stdin")
    # resolved for a wider audience: the hidden source's claim would still be printed
    check_answer_audience(answer, viewer, f"--audience {','.join(viewer)}")
    context = RenderContext(
        public_base_url=args.public_base_url,
        turn_id=args.turn_key,
        show=args.show,
        audience=frozenset(viewer),
        # as the channels mark it (bot.connectors.render_context); "" without a config file
        language=answer_language(answer, settings.assistant.language),
        # [n?] below grounding.threshold, as the channels mark it (0.35 without a config file)
        weak_below=settings.grounding.threshold,
    )
    channels = CHANNELS if args.channel == "all" else (args.channel,)
    out = {}
    for channel in channels:
        caps = capabilities_for(channel, settings.capabilities.get(channel))
        channel_context = dataclasses.replace(context, capabilities=caps)
        out[channel] = render_tokens(channel, answer, tokens, channel_context)
    result = out if args.channel == "all" else out[args.channel]
    write_stdout(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0
