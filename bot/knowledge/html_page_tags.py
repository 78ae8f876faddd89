"""The tags that say where an HTML page is published and who may read it: URL, base, audience.

``<link rel="canonical">`` (or ``<meta name="citecast:url">``) gives the public URL, a
relative one resolved against the page's ``<base href>`` as a browser does (a malformed one
is ignored), and ``<meta name="citecast:audience">`` (or ``property="citecast:audience"``)
the audience, like Markdown front matter.

The URL tags and ``<base>`` are the first ones in ``<head>`` (outside ``<template>`` and
``<noscript>``): whoever writes a page's body (a comment, a pasted snippet, an inline SVG or
a hidden element) must not send its citations to another site. Every audience tag counts, in
the head or not, but only to narrow: the page is for the groups all of them allow, so a tag
in the body can never publish what the head keeps for staff, and one placed after content a
browser moves to the body still keeps the page private; tags that no group may all see skip
the page with the reason. So does a tag meant as the audience tag but misspelled
(``citecast:audiences``, ``citecast_audience``, ``cite-cast:audience``), as front matter's
near-miss keys do, one written as microdata or a pragma (``itemprop=``, ``http-equiv=``),
and one whose ``name`` is written twice with the audience tag second: like a browser, the
reader takes the first copy of an attribute. An audience tag whose ``content`` is written
twice with another value is refused too: which of its two audiences was meant, no one can tell.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from urllib.parse import urljoin

from bot.knowledge.audience_rules import narrower
from bot.knowledge.document import Unreadable
from bot.knowledge.front_matter_audience import audience_from, is_tag_near_miss

Attribute = tuple[str, str]  # an attribute's name and value
# Attributes that name a meta tag, in a browser or in another vocabulary (microdata, a pragma)
_NAMING = ("name", "property", "itemprop", "http-equiv")


def _misnamed(values: dict[str, str], repeated: Sequence[Attribute]) -> str | None:
    """How a meta tag with these attributes (``values``: the copy of each a browser reads;
    ``repeated``: the later copies) names citecast's audience in a way citecast does not
    read, or None: a near miss (``name="citecast:audiences"``, ``name="cite-cast:audience"``),
    the tag as microdata or a pragma (``itemprop="citecast:audience"``), or the tag in the
    second copy of an attribute written twice (a browser reads the first)."""
    for attribute, value in values.items():
        word = value.lower()
        if attribute in _NAMING and (
            is_tag_near_miss(word) or (word == "citecast:audience" and attribute != "name")
        ):
            return f"{attribute}={value!r}"
    for attribute, value in repeated:
        word = value.lower()
        if attribute in _NAMING and (word == "citecast:audience" or is_tag_near_miss(word)):
            return f"{attribute}={value!r} (written twice: a browser reads the first)"
    return None


def _one_content(values: dict[str, str], repeated: Sequence[Attribute]) -> None:
    """Refuse an audience tag whose ``content`` is written twice with another value: the
    reader takes the first copy, as a browser does, and ``content="public" content="staff"``
    would publish a page whose author may have meant the second."""
    first = values.get("content", "")
    for attribute, value in repeated:
        if attribute == "content" and _groups(value) != _groups(first):
            raise Unreadable(
                f"its citecast:audience tag writes content twice ({first!r}, then {value!r}): "
                'write one, <meta name="citecast:audience" content="GROUPS">'
            )


def _groups(content: str) -> frozenset[str] | None:
    """The groups an audience ``content`` names, or None when it names none citecast reads."""
    try:
        return frozenset(audience_from(content))
    except Unreadable:
        return None


class PageTags:
    """A page's URL, ``<base>`` and audience tags, as the reader meets them."""

    def __init__(self) -> None:
        self.canonical: str | None = None
        self.meta_url: str | None = None
        self.base: str | None = None  # the first <base href>, as in a browser
        # the groups of each citecast:audience tag, in page order
        self.audiences: list[tuple[str, ...]] = []

    def read(
        self, tag: str, values: dict[str, str], own: bool, repeated: Sequence[Attribute] = ()
    ) -> None:
        """Note ``tag`` (its attributes ``values``, the first of each name as in a browser;
        ``repeated``: the later copies of one written twice) if it is one of the page's tags;
        ``own``: it stands where the page is the author's (see the module)."""
        if tag == "meta":
            name = values.get("name", "").lower()
            # Open Graph's property= is how many sites write their meta tags: one naming the
            # audience that way was ignored, and the page it meant to keep private was public
            named = (name, values.get("property", "").lower())
            if "citecast:audience" in named:
                # every one counts, and only to narrow: one in the body can keep the page from
                # more readers, never publish what the head keeps for staff
                _one_content(values, repeated)
                self.audiences.append(audience_from(values.get("content", "")))
            elif miss := _misnamed(values, repeated):
                # meant to keep the page private, but no tag citecast reads: read as public,
                # it published the page (front matter's near-miss keys are refused alike)
                raise Unreadable(
                    f"meta tag {miss} is not citecast's audience tag: write "
                    '<meta name="citecast:audience" content="GROUPS"> (or content="public")'
                )
            elif name == "citecast:url" and own and self.meta_url is None:
                self.meta_url = values.get("content") or None
        elif tag == "link" and "canonical" in values.get("rel", "").lower().split():
            if own and self.canonical is None:
                self.canonical = values.get("href") or None
        elif tag == "base" and own and self.base is None and values.get("href", "").strip():
            self.base = values["href"].strip()

    def url(self) -> str | None:
        """The page's public URL: a canonical link's, else a ``citecast:url`` tag's, resolved
        against ``<base href>``; None without either."""
        url = self.canonical or self.meta_url
        if url and self.base:
            # a malformed <base href> ("http://[::1") is ignored, as a browser ignores it
            with contextlib.suppress(ValueError):
                url = urljoin(self.base, url.strip())
        return url

    def audience(self) -> tuple[str, ...] | None:
        """The page's audience (see :func:`page_audience`)."""
        return page_audience(self.audiences)


def page_audience(tags: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The audience of a page with these ``citecast:audience`` tags: the groups that every one
    of them allows (a layout's default ``public`` after the page's own ``staff`` is ``staff``);
    None without any. Unreadable when no group may see what all of them allow."""
    if not tags:
        return None
    groups = tags[0]
    for more in tags[1:]:
        groups = narrower(groups, more)
    if not groups:
        named = " and ".join(dict.fromkeys(", ".join(tag) for tag in tags))
        raise Unreadable(
            f"its citecast:audience tags name {named}: no group may see all of them; "
            "keep one tag, in <head>"
        )
    return groups
