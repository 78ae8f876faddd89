"""Upload placeholders in a Discourse post body, found and replaced exactly.

The renderer writes a file to attach as ``[name|attachment](citecast-upload://n)``, one
placeholder per footnote (``renderers.discourse``). ``citecast-upload://1`` is also the start
of ``citecast-upload://10`` … ``citecast-upload://19`` (and ``…://2`` of ``…://20``), so a
placeholder counts only where no digit follows it: otherwise the first file's link would be
written into the footnotes from 10 on, and the files first cited there never uploaded.
"""

from __future__ import annotations

import re

# The link text as the renderer writes it: escaped characters (``\[``, ``\]``, ``\|``) and no
# unescaped bracket, so a title's escaped ``\[`` before the link is not taken for its start.
_LINK_TEXT = r"\[((?:\\.|[^\[\]\\\n])*)\]"


def _exactly(placeholder: str) -> str:
    """A pattern for ``placeholder`` that a longer placeholder (another digit) does not match."""
    return re.escape(placeholder) + r"(?![0-9])"


def occurs(raw: str, placeholder: str) -> bool:
    """Whether ``raw`` holds ``placeholder`` itself (not only a longer one it begins)."""
    return re.search(_exactly(placeholder), raw) is not None


def substitute(raw: str, placeholder: str, filename: str, url: str | None) -> str:
    """Put ``url`` where ``placeholder`` stands; without a URL, leave the file's name only.

    The renderer writes ``[name|attachment](placeholder)``: Discourse's attachment syntax, kept
    for an ``upload://`` URL; any other link loses the ``|attachment`` marker. A placeholder
    outside such a link (none is written today) becomes a whole link, or the name.
    """
    link = re.compile(_LINK_TEXT + r"\(\s*<?" + _exactly(placeholder) + r">?\s*\)")

    def replace(match: re.Match[str]) -> str:
        text = match.group(1)
        if url is not None and url.startswith("upload://"):
            return f"[{text}]({url})"
        text = text.removesuffix("|attachment") or label(filename)
        return f"[{text}]({url})" if url is not None else text

    raw = link.sub(replace, raw)
    if url is None:
        bare = label(filename)
    else:
        marker = "|attachment" if url.startswith("upload://") else ""
        bare = f"[{label(filename)}{marker}]({url})"
    # a function, not a template: a backslash in the URL is not a group reference
    return re.sub(_exactly(placeholder), lambda _: bare, raw)


def label(filename: str) -> str:
    """``filename`` as link text: brackets, pipes and backslashes would break Discourse's link
    syntax."""
    return re.sub(r"[\[\]|\\]", "_", filename)
