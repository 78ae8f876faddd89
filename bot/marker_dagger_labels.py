"""The source a file-search dagger's label names: ``【4:0†handbook.md】`` (DESIGN §5).

OpenAI's file search writes ``【N:M†label】`` with the label the file's name (or a title), and
the number before the colon is a message index, not a registry number, as often as it is one.
When the label names exactly one source of this turn by its filename (or the file's name at the
end of it) or its title, that source is the one meant, whatever the number says; a label naming
none, or several, leaves the number to decide (``bot.marker_parse_tags.parse_cjk``). Only the
numbered sources are searched: a source the viewer may not see is never named this way.
"""

from __future__ import annotations

from bot.registry import SourceRegistry

_SEVERAL = 0  # (in the index: a name two sources have names none; no source is numbered 0)


class DaggerLabels:
    """``Grammar.source_named`` for one turn's registry: labels looked up in an index of the
    numbered sources' names, rebuilt when the registry has grown (tools add sources mid-turn)."""

    def __init__(self, registry: SourceRegistry) -> None:
        self._registry = registry
        self._indexed = -1  # how many sources the index holds
        self._index: dict[str, int] = {}

    def __call__(self, label: str) -> int | None:
        """The registry number of the one source ``label`` names by filename or title, or None."""
        wanted = label.strip(" \t").casefold()
        if not wanted:
            return None
        if len(self._registry) != self._indexed:
            self._index = _name_index(self._registry)
            self._indexed = len(self._registry)
        found = {self._index.get(wanted), self._index.get(_file_name(wanted))} - {None}
        # "docs/handbook.md" names "handbook.md" too; two different sources name none
        return found.pop() if len(found) == 1 and _SEVERAL not in found else None


def dagger_label_source(registry: SourceRegistry, label: str) -> int | None:
    """The registry number of the one source ``label`` names by filename or title, or None."""
    return DaggerLabels(registry)(label)


def _name_index(registry: SourceRegistry) -> dict[str, int]:
    """Each name a numbered source goes by (its title, its filename and that file's name),
    with its number (``_SEVERAL`` when two sources share it)."""
    index: dict[str, int] = {}
    for number, source in registry.numbered().items():
        names = [source.title.casefold()] if source.title else []
        if source.filename:
            path = source.filename.casefold()
            names += (path, _file_name(path))
        for name in names:
            index[name] = number if index.setdefault(name, number) == number else _SEVERAL
    return index


def _file_name(path: str) -> str:
    """The last part of a file path, with either slash."""
    return path.replace("\\", "/").rpartition("/")[2]
