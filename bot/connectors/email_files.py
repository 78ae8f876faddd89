"""Which cited files an email reply attaches, settled before rendering (``max_attachment_bytes``).

``email.max_attachment_bytes`` caps the attachments of one reply *in total*, counted as they
travel (base64 in 76-character lines: a file grows by about 37%), since that is what the
outbound server's message size limit sees: Postfix's default ``message_size_limit`` is
10,240,000 bytes, which 10 MB of files counted by their own size overran. The renderer decides
each citation on its own (``renderers.base.citation_form``: type, count and per-file size), so it
cannot keep a running total. The connector settles the total first: the files the renderer would
attach are taken in citation order, each file once, while the sum of their sizes fits; every
other cited file is then rendered as not attachable, so it shows as a signed download link when
the deployment has one, else by name, never as "(attached: …)" in a message that does not carry
it. "Every other" matters: reporting only the files that did not fit left room under
``max_files`` for a file the first decision had no count left for (the 11th of 12), which the
renderer then called attached although it would break the budget.
"""

from __future__ import annotations

import dataclasses

from bot.models import Answer, Source
from renderers.base import RenderContext


def wire_size(size: int) -> int:
    """The bytes a file of ``size`` bytes adds to the message: base64, 76 characters a line
    and a CRLF after each (RFC 2045), part headers not counted."""
    chars = -(-size // 3) * 4
    return chars + 2 * -(-chars // 76)


def within_attachment_budget(answer: Answer, context: RenderContext, budget: int) -> RenderContext:
    """``context`` changed so that the renderer attaches only files that fit ``budget`` bytes
    together; files whose size cannot be read are not attached either (they could not be sent).
    """
    from renderers.document import decide_forms

    caps = context.caps("email")
    sizes = context.file_size
    if sizes is None:
        return context
    forms = decide_forms(answer.citations, caps, context)
    fitting: set[str] = set()
    seen: set[str] = set()
    used = 0
    for citation in sorted(answer.citations, key=lambda c: c.n):
        form = forms.get(citation.n)
        path = citation.source.path
        if form is None or form.kind != "attachment" or not path or path in seen:
            continue
        seen.add(path)
        size = sizes(citation.source)
        if size is not None and used + wire_size(size) <= budget:
            fitting.add(path)
            used += wire_size(size)
    if fitting == seen and len(seen) < caps.max_files:
        # nothing was left out, and no file was passed over for want of a count
        return context
    too_big = caps.max_file_bytes + 1

    def counted_size(source: Source) -> int | None:
        # The renderer's one per-file test is "size <= max_file_bytes": a file that is not to
        # travel is reported over it, which makes it a download link or a name. Only the
        # fitting files pass, so the renderer attaches exactly them, whatever room it has.
        if source.path not in fitting:
            return too_big
        return sizes(source)

    return dataclasses.replace(context, file_size=counted_size)
