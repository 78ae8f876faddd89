"""The one rule for who a viewer is: the ``public`` group plus the viewer's own groups.

Public documents are meant for everyone, so a viewer's groups widen what they see and never
replace ``public``: a staff member sees public pages as well as staff ones. Every place that
turns a list of groups into an audience (the ``ask`` command, the Assistant's registry, index
search, record lookup) goes through :func:`viewer_audience`.
"""

from __future__ import annotations

from collections.abc import Iterable

PUBLIC = "public"


def viewer_audience(groups: Iterable[str] = ()) -> frozenset[str]:
    """``groups`` (blank names dropped, a bare string taken as one group) plus ``public``."""
    if isinstance(groups, str):
        groups = (groups,)
    return frozenset(g for g in groups if g.strip()) | {PUBLIC}
