"""A weak footnote moved out of its post reads ``\\[n?\\]``, as every other plain form.

When a post cannot define all the footnotes it references (``discourse.max_post_length: 300``),
``discourse_spill`` turns the references it moves into plain numbers. A weakly supported one
became ``\\[n\\]``: its "weak support?" moved with its definition to the post after, and the
sentence read as well supported. The renderer's plain form (sources hidden) and the other
channels write ``[n?]`` for a weak citation.
"""

from __future__ import annotations

import re

from bot.models import Answer, Citation, Source
from renderers.base import RenderContext, capabilities_for
from renderers.discourse import render_posts
from renderers.discourse_spill import spill

LIMIT = 300


def _answer(weak: set[int]) -> Answer:
    citations = tuple(
        Citation(
            n=n,
            source=Source(
                id=f"s{n}",
                title=f"Configuration notes part {n}",
                url=f"https://docs.example/{'x' * 20}/{n}",
            ),
            source_number=n,
            support=0.1 if n in weak else 0.9,
        )
        for n in range(1, 7)
    )
    text = "The settings are described in the notes " + "".join(f"[^{n}]" for n in range(1, 7))
    return Answer(text=text + ".", citations=citations)


def _spilled(weak: set[int]) -> list[str]:
    caps = capabilities_for("discourse", {"max_chars": LIMIT})
    # the connector's entry: a sentence kept whole, its post over the limit by definitions
    payload = render_posts(_answer(weak), RenderContext(capabilities=caps), 0)
    assert "continued" not in payload  # one body; its definitions are what does not fit
    return spill(str(payload["raw"]), LIMIT, {})


def test_a_weak_reference_moved_out_of_its_post_is_marked_weak() -> None:
    head, *rest = _spilled({5, 6})
    assert rest and all(len(post) <= LIMIT for post in [head, *rest])
    moved = [int(n) for n in re.findall(r"\\\[(\d+)\??\\\]", head.split("\n\n")[0])]
    assert 5 in moved and 6 in moved  # the weak ones are among those moved
    for n in moved:
        mark = f"\\[{n}?\\]" if n in (5, 6) else f"\\[{n}\\]"
        assert mark in head, (n, head)
    listed = "\n".join(rest)
    assert "- \\[5\\] " in listed and "weak support?" in listed  # the list says why


def test_well_supported_references_stay_plain_numbers() -> None:
    head, *_ = _spilled(set())
    assert "?\\]" not in head
    assert re.search(r"\\\[6\\\]", head)
