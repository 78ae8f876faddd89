"""A ``<pre>``-like HTML block runs across blank lines to its closing tag, as mistune reads it.

The scanner ended every HTML block at a blank line, ``<pre>`` (and ``<script>``, ``<style>``,
``<textarea>``) too, but mistune reads such a block as raw HTML up to a line holding its closing
tag (or the end of the answer), and a ``[^n]`` in it is a citation: an indented line after a
blank line in it was taken for code, and a fence line for a fence, so a real marker there was
left as written (and showed raw). mistune closes the block only at a lower-case closing tag.

Each case goes through ``resolve()`` (and the stream in several splits, which cut the closing
tag at every place) and ``mask_code``.
"""

from __future__ import annotations

import pytest

from bot.claims import CITATION_RE, mask_code
from tests.core.resolver_splits import reads_as_mistune

# (raw answer, whether its "[^1]" is a citation in mistune's reading)
CASES = [
    ("<pre>\n\n      code [^1]", True),
    ("<pre>\nx\n\n```\ny [^1]", True),
    ("<PRE>\n\n    x [^1]", True),
    ("- <pre>\n\n      six [^1]", True),
    ("<script>\n\n    x [^1]\n</script>", True),
    ("<pre>\nab</PRE>\n\n    code [^1]", True),
    # closed: the block ends (at the blank line), and indented code may follow
    ("<pre>x</pre>\n\n    code [^1]", False),
    ("<pre>\nab</pre>\n\n    code [^1]", False),
    ("<pre>\n\n</pre>\n\n    code [^1]", False),
]


@pytest.mark.parametrize(("raw", "cited"), CASES)
def test_a_pre_block_runs_to_its_closing_tag(raw: str, cited: bool) -> None:
    reads_as_mistune(raw, cited)
    assert [int(m.group(1)) for m in CITATION_RE.finditer(mask_code(raw))] == ([1] if cited else [])
