"""Benchmark: rendering against baselines measured in the same run (issue 3).

Corpus: the golden answers (tests/renderers/answers) plus generated answers of 1, 4 and 16 KB
with headings, lists, code, tables, quotes and 0-40 citations. Ratios (targets):

- resolve + render for all five channels vs one ``mistune.html()`` of the same text: <= 2.0
- Slack rendering of the parsed tree vs ``markdown_to_mrkdwn``'s conversion: <= 1.0
  (install it only here: ``.venv/bin/pip install markdown-to-mrkdwn``; skipped when missing)
- streaming render (one event per 4 characters) vs a one-shot render, web/slack/discord: <= 3
- the worst of 16 KB hostile inputs (runs of brackets, code spans, link openers…), all five
  channels vs ``mistune.html()`` of the same text (or of an ordinary 16 KB answer, when that
  takes longer): <= 10, a guard against quadratic splitting and escaping

Each figure is the median CPU time over repetitions, summed over the corpus.
Run: .venv/bin/python bench/render.py [--quick]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import mistune  # noqa: E402

from bot.markdown import parse  # noqa: E402
from bot.models import Answer, Citation, CitationAdded, Source, TextDelta  # noqa: E402
from bot.registry import SourceRegistry  # noqa: E402
from bot.resolver import resolve  # noqa: E402
from renderers import CHANNELS, render, render_all, render_tokens  # noqa: E402
from renderers.base import RenderContext  # noqa: E402
from renderers.document import decide_forms  # noqa: E402
from renderers.email import block_renderer as email_blocks  # noqa: E402
from renderers.email_html import sanitize as email_sanitize  # noqa: E402
from renderers.streaming import StreamRenderer  # noqa: E402
from renderers.web import sanitize  # noqa: E402

PROSE = (
    "the gateway keeps a local cache of every policy it has seen so a restart does not lose "
    "state and the cache is rebuilt from the controller when it is older than one day"
)
WORDS = PROSE.split(" ")


def sentence(rng: random.Random, k: int) -> str:
    words = rng.choices(WORDS, k=rng.randint(8, 20))
    text = " ".join(words).capitalize() + "."
    return text + (f"[^{rng.randint(1, k)}]" if k and rng.random() < 0.6 else "")


def block(rng: random.Random, k: int) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return "## " + " ".join(rng.choices(WORDS, k=4)).title()
    if kind == 1:
        return "\n".join(f"- {sentence(rng, k)}" for _ in range(rng.randint(2, 5)))
    if kind == 2:
        return "\n".join(f"{i}. {sentence(rng, k)}" for i in range(1, rng.randint(3, 6)))
    if kind == 3:
        lines = [f"value_{i} = {rng.randint(1, 999)}" for i in range(rng.randint(3, 12))]
        return "```python\n" + "\n".join(lines) + "\n```"
    if kind == 4:
        rows = [f"| {rng.choice(WORDS)} | {rng.randint(1, 99)} |" for _ in range(4)]
        return "| name | value |\n|---|---|\n" + "\n".join(rows)
    if kind == 5:
        return "> " + sentence(rng, k)
    return " ".join(sentence(rng, k) for _ in range(rng.randint(2, 6)))


def generated(size: int, seed: int) -> Answer:
    rng = random.Random(seed)
    k = rng.randint(0, 40) if size > 1000 else rng.randint(0, 8)
    blocks: list[str] = []
    while sum(len(b) + 2 for b in blocks) < size:
        blocks.append(block(rng, k))
    text = "\n\n".join(blocks)
    used = sorted({int(n) for n in re.findall(r"\[\^(\d+)\]", text)})
    renumber = {old: new for new, old in enumerate(used, 1)}
    text = re.sub(r"\[\^(\d+)\]", lambda m: f"[^{renumber[int(m.group(1))]}]", text)
    citations = tuple(
        Citation(n, Source(id=f"s{n}", title=f"Source {n}", url=f"https://kb.example/{n}",
                           page=n, section="Setup > Linux"), n, quote="a quote")
        for n in range(1, len(used) + 1)
    )  # fmt: skip
    return Answer(text=text, citations=citations)


def corpus(quick: bool) -> list[tuple[str, Answer]]:
    answers = [
        (p.stem, Answer.from_json(json.loads(p.read_text("utf-8"))))
        for p in sorted((ROOT / "tests/renderers/answers").glob("*.json"))
    ]
    sizes = (1000, 4000, 16000)
    per_size = 2 if quick else 5
    answers += [
        (f"gen-{size}-{i}", generated(size, size + i)) for size in sizes for i in range(per_size)
    ]
    return answers


# 16 KB inputs that once made splitting or escaping quadratic (or worse): each is rendered for
# every channel and compared with mistune.html() of the same text
HOSTILE: dict[str, str] = {
    "brackets": "[" * 8000 + "a" + "]" * 8000,
    "link openers": "[a](" * 4000,
    "escaped link openers": "\\[a\\](" * 2700,
    "adjacent code spans": "`a a`" * 3200,
    "angle brackets": "<" * 8000 + ">" * 8000,
    "open parentheses": "[x](" + "(" * 16000,
    "bold runs": "*a a a* " * 2000,
    "one long word with @": "a@" * 8000,
}


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    """Median CPU time of ``repeat`` runs (seconds).

    CPU time of this process, not wall time: the machines this runs on are shared, and a
    neighbour's load must not show up as our slowness.
    """
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def model_raw(answer: Answer) -> tuple[str, SourceRegistry]:
    """What a model would have written ([n] markers) and the turn's registry."""
    registry = SourceRegistry()
    for citation in answer.citations:
        registry.register(citation.source)
    return re.sub(r"\[\^(\d+)\]", r"[\1]", answer.text), registry


def email_body(answer: Answer, tokens: list[Any], context: RenderContext) -> str:
    """The email's HTML body before its nh3 pass (what ``renderers.email`` sanitizes)."""
    forms = decide_forms(answer.citations, context.caps("email"), context)
    step = email_blocks(forms, context, "")
    return "\n".join(html for html, _ in (step(token) for token in tokens) if html)


def stream_once(channel: str, answer: Answer, context: RenderContext) -> dict[str, Any]:
    stream = StreamRenderer(channel, context)
    stream.feed([CitationAdded(c) for c in answer.citations])
    text = answer.text
    for i in range(0, len(text), 4):
        stream.feed([TextDelta(text[i : i + 4])])
    return stream.finish(answer)


def report(label: str, ratio: float, target: float) -> None:
    """One ratio line with its target and PASS/MISS."""
    verdict = "PASS" if ratio <= target else "MISS"
    print(f"  {label:<36} {ratio:6.2f}  target <= {target:.1f}  {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer answers and repetitions")
    args = parser.parse_args()
    repeat = 5 if args.quick else 15
    answers = corpus(args.quick)
    context = RenderContext(public_base_url="https://bot.example", turn_id="t")
    to_html = mistune.html
    # the same parser as mistune.html() without its HTML pass, so that pass can be timed alone
    to_tree = mistune.create_markdown(
        renderer=None, plugins=["strikethrough", "footnotes", "table"]
    )
    try:
        # imported by name: a benchmark-only tool, not a dependency (and untyped)
        converter: Any = importlib.import_module("markdown_to_mrkdwn").SlackMarkdownConverter()
    except ImportError:
        converter = None

    totals: defaultdict[str, float] = defaultdict(float)
    per_channel: dict[str, float] = dict.fromkeys(CHANNELS, 0.0)
    for _name, answer in answers:
        raw, registry = model_raw(answer)
        text = answer.text
        totals["html"] += median_time(lambda: to_html(text), repeat)  # noqa: B023
        tree, tree_state = to_tree.parse(text)
        assert isinstance(tree, list) and to_html.renderer is not None
        html_renderer = to_html.renderer
        totals["html_pass"] += median_time(
            lambda: html_renderer(tree, tree_state),  # noqa: B023
            repeat,
        )
        totals["pipeline"] += median_time(
            lambda: render_all(resolve(raw, registry), context),  # noqa: B023
            repeat,
        )
        tokens = parse(text)
        # the pipeline's parts, each alone: what every channel needs before it writes anything
        totals["parse"] += median_time(lambda: parse(text), repeat)  # noqa: B023
        totals["resolve"] += median_time(lambda: resolve(raw, registry), repeat)  # noqa: B023
        web_html = render_tokens("web", answer, tokens, context)["html"]
        totals["nh3"] += median_time(lambda: sanitize(web_html), repeat)  # noqa: B023
        body = email_body(answer, tokens, context)
        totals["nh3_email"] += median_time(lambda: email_sanitize(body), repeat)  # noqa: B023
        for channel in CHANNELS:
            per_channel[channel] += median_time(
                lambda: render_tokens(channel, answer, tokens, context),  # noqa: B023
                max(3, repeat // 3),
            )
        totals["slack"] += median_time(
            lambda: render_tokens("slack", answer, tokens, context),  # noqa: B023
            repeat,
        )
        if converter is not None:
            totals["mrkdwn"] += median_time(lambda: converter.convert(text), repeat)  # noqa: B023
        for channel in ("web", "slack", "discord"):
            totals["oneshot"] += median_time(
                lambda: render(channel, answer, context),  # noqa: B023
                max(3, repeat // 3),
            )
            totals["stream"] += median_time(
                lambda: stream_once(channel, answer, context),  # noqa: B023
                max(3, repeat // 3),
            )

    kb = sum(len(a.text) for _, a in answers) / 1000
    print(f"corpus: {len(answers)} answers, {kb:.0f} KB of markdown, {len(CHANNELS)} channels")
    print("medians summed over the corpus (ms):")
    for key, label in (
        ("html", "mistune.html()"),
        ("pipeline", "resolve + render x5"),
        ("slack", "slack render (parsed tree)"),
        ("mrkdwn", "markdown_to_mrkdwn"),
        ("oneshot", "one-shot render web+slack+discord"),
        ("stream", "streaming render, 4 chars/event"),
    ):
        if key == "mrkdwn" and converter is None:
            continue
        print(f"  {label:<36} {totals[key] * 1000:9.1f}")
    print("ratios:")
    report("resolve+render(5) / mistune.html", totals["pipeline"] / totals["html"], 2.0)
    html = totals["html"]
    parts = {
        "parse": totals["parse"] / html,
        "resolve": totals["resolve"] / html,
        "nh3 on the web HTML": totals["nh3"] / html,
        "nh3 on the email HTML": totals["nh3_email"] / html,
    }
    floor = sum(parts.values())
    print("    of which, each alone (x mistune.html): "
          + ", ".join(f"{name} {value:.2f}" for name, value in parts.items())
          + f" = {floor:.2f} before any channel writes")  # fmt: skip
    print("    rendering the parsed tree (nh3 included): "
          + ", ".join(f"{c} {t / html:.2f}" for c, t in per_channel.items()))  # fmt: skip
    html_pass = totals["html_pass"] / html
    print(f"    mistune's own HTML pass over its parsed tree alone: {html_pass:.2f}; the target "
          f"leaves {max(0.0, 2.0 - floor):.2f} for walking the tree and writing all five "
          f"channels, {max(0.0, 2.0 - floor) / html_pass:.1f} such bare passes")  # fmt: skip
    if converter is None:
        print("  slack / markdown_to_mrkdwn: skipped, markdown_to_mrkdwn is not installed")
        print("    (.venv/bin/pip install markdown-to-mrkdwn; benchmark only, not a dependency)")
    else:
        report("slack / markdown_to_mrkdwn", totals["slack"] / totals["mrkdwn"], 1.0)
    report("streaming / one-shot", totals["stream"] / totals["oneshot"], 3.0)
    # the baseline is never below mistune.html() of an ordinary answer of the same size: a text
    # mistune reads in no time (one long word) must not make a linear render look quadratic
    ordinary = generated(16000, 1).text
    floor_time = median_time(lambda: to_html(ordinary), repeat)
    ratios: dict[str, float] = {}
    for name, text in HOSTILE.items():
        hostile = Answer(text=text, citations=())
        base = max(floor_time, median_time(lambda: to_html(text), 3))  # noqa: B023
        ratios[name] = median_time(lambda: render_all(hostile, context), 3) / base  # noqa: B023
    worst = max(ratios, key=ratios.__getitem__)
    report(f"worst hostile / mistune.html ({worst})", ratios[worst], 10.0)
    print("    each: " + ", ".join(f"{name} {ratio:.1f}" for name, ratio in ratios.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
