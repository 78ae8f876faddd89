"""How a page or a span of pages is written: ``p. 12``, or ``pp. 12–13`` with an en dash.

One form for every place that names pages (each channel's source list and tooltips through
``renderers.base.source_detail``, the passages the model reads from ``bot.registry``), so a
reader and the model see a span the same way. A span that ends on its first page is one page.
"""

from __future__ import annotations


def page_label(page: int | None, page_end: int | None = None) -> str | None:
    """``p. 12`` or ``pp. 12–13`` (en dash), or None when ``page`` is unknown."""
    if page is None:
        return None
    if page_end is not None and page_end != page:
        return f"pp. {page}\u2013{page_end}"
    return f"p. {page}"
