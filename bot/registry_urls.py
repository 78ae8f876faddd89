"""A registry's numbers by source URL: the duplicate check and ``numbers_for_url`` (DESIGN §4).

Two sources are one duplicate by URL when they have the same page URL (``canonical_url``), the
same ``page`` and ``chunk``, the same file (``path`` and ``filename``, both absent for a web-style
source), and fragments that do not tell them apart: equal, or one of them absent. Every indexed
file has its own ``path``, and every file's first passage is chunk 1, so two files sharing a URL
(HTML copies with one ``<link rel="canonical">``, a front matter ``url:`` per anchor of one page)
keep their own numbers; the same web page returned twice, with or without an anchor, keeps one.

A text fragment (``#:~:text=…``, or what follows ``:~:`` in a fragment) points at words on the
page, never at another document, so it is not part of the fragment compared here.
"""

from __future__ import annotations

import functools
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bot.models import Source

_TEXT_DIRECTIVE = ":~:"

# page URL, page, chunk, path, filename: what must be equal for two sources to be one
_Place = tuple[str, int | None, int | None, str | None, str | None]


@functools.lru_cache(maxsize=4096)
def canonical_url(url: str) -> str:
    """The URL of the page: lower-case scheme and host, no fragment, no utm_*."""
    parts = urlsplit(url.strip())
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo}@{host.lower()}"
    else:
        netloc = netloc.lower()
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith("utm_")
    ]
    return urlunsplit((parts.scheme.lower(), netloc, parts.path, urlencode(query), ""))


@functools.lru_cache(maxsize=4096)
def document_url(url: str) -> tuple[str, str]:
    """``(canonical_url(url), fragment)``; the fragment without any text directive, "" for none.

    Raises ValueError for a URL that cannot be parsed.
    """
    fragment = urlsplit(url.strip()).fragment.partition(_TEXT_DIRECTIVE)[0]
    return canonical_url(url), fragment


class UrlNumbers:
    """The numbers of one registry's sources by URL.

    Not locked: the registry calls the changing methods under its own lock.
    """

    def __init__(self) -> None:
        # per place, the fragment and number of each numbered source, in number order
        self._numbered: dict[_Place, list[tuple[str, int]]] = {}
        # per page URL, the fragment and number of each source numbered or merged into a number
        self._by_page: dict[str, list[tuple[str, int]]] = {}

    def claim(self, source: Source, new_number: int) -> int:
        """The number of the numbered source that ``source`` duplicates by URL, else
        ``new_number``, which then becomes the number of ``source``.

        A duplicate is recorded for ``numbers_for_url`` only: what the model was shown under
        ``[cite: N]`` answers to N, while later sources are compared with numbered ones alone
        (a duplicate without a fragment must not make two different anchors agree).
        """
        found = _place(source)
        if found is None:
            return new_number
        place, fragment = found
        numbered = self._numbered.get(place)
        if numbered is None:
            self._numbered[place] = [(fragment, new_number)]
        else:
            for other, number in numbered:
                if not fragment or not other or fragment == other:
                    self._add_to_page(place[0], fragment, number)
                    return number
            numbered.append((fragment, new_number))
        self._by_page.setdefault(place[0], []).append((fragment, new_number))
        return new_number

    def duplicate_of(self, source: Source) -> int | None:
        """The number of the first numbered source that ``source`` duplicates by URL, if any."""
        found = _place(source)
        if found is None:
            return None
        place, fragment = found
        for other, number in self._numbered.get(place, ()):
            if not fragment or not other or fragment == other:
                return number
        return None

    def add_duplicate(self, source: Source, number: int) -> None:
        """Record for ``numbers_for_url`` that ``source`` was given ``number`` (a stored alias)."""
        found = _place(source)
        if found is not None:
            self._add_to_page(found[0][0], found[1], number)

    def _add_to_page(self, page_url: str, fragment: str, number: int) -> None:
        entries = self._by_page.setdefault(page_url, [])
        if (fragment, number) not in entries:
            entries.append((fragment, number))

    def numbers_for_url(self, url: str) -> list[int]:
        """Numbers of the sources on the page of ``url``, in number order.

        With a fragment: the sources with that fragment first, then those without one; a
        source whose own fragment differs names another part of the page, so it is left out.
        """
        try:
            page_url, fragment = document_url(url)
        except ValueError:
            return []
        entries = self._by_page.get(page_url, ())
        if not fragment:
            return sorted({number for _, number in entries})
        exact = sorted({number for other, number in entries if other == fragment})
        whole_page = sorted({number for other, number in entries if not other} - set(exact))
        return exact + whole_page


def _place(source: Source) -> tuple[_Place, str] | None:
    """Where ``source`` sits (page URL, page, chunk, file) and its fragment; None without a URL."""
    if not source.url:
        return None
    try:
        page_url, fragment = document_url(source.url)
    except ValueError:
        return None
    return (page_url, source.page, source.chunk, source.path, source.filename), fragment
