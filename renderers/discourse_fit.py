"""Fitting a Discourse answer into posts, each defining every footnote it references.

Order of what gives way (``Capabilities.max_chars``; Discourse's default ``max_post_length`` is
32,000): first the body moves, at a block boundary, to a further post, where the forum allows
one, so that every post keeps its richest definitions (a PDF citation's ``p. 12`` above all);
only when a post cannot be made to fit that way (one block alone is too long, or no further post
is allowed) are its definitions compacted (:data:`LEVELS`: the quote highlight leaves the link,
titles shorten, page/section and record columns go), never cut inside. Shorter definitions come
before a cut sentence: a richer level that would cut a sentence in as many posts, or leave a
post over the limit, where a shorter level does not, is passed over.

A block longer than a post is cut anyway: its first piece fills the room left in the post before
(with the definitions it needs), so posts are full rather than alternately full and nearly empty.
For the connector (``whole_sentences``) a cut falls at a line or a sentence end where one fits,
and a sentence of up to half a post is never cut inside: when a post cannot hold such a sentence
with its definitions, the sentence stays whole, in a post over the limit by its definitions, and
the connector keeps the first definitions there and lists the other sources in the post after it
(``renderers.discourse_spill``). Rendering alone keeps every post within the limit, each defining
the footnotes it references: a block whose definitions do not fit beside it is cut at a space,
however short the block, where pieces then each hold theirs (only a word whose own references
cannot be defined beside it leaves its definitions to a list after the post).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from functools import cached_property

from bot.markdown import CITATION_MARK
from renderers.base import CitationForm
from renderers.discourse_definitions import LEVELS, SHORTEST, definition_body, link_length
from renderers.discourse_numbers import prefix, references, shown_numbers
from renderers.discourse_packing import Packing
from renderers.discourse_sentences import ONLY_REFERENCES, at_break, breaks, first_sentence
from renderers.escaping import visible
from renderers.limits import first_piece, split_first
from renderers.markdown_writer import EntryLevel

# the smallest piece a block is cut into to make room for its definitions
MIN_PIECE = 80
# a post's footnote numbers in order of first reference (a dict as an ordered set): Discourse
# shows them 1, 2, … in that order, and a definition shown under another number than its own
# carries its own (renderers.discourse_numbers), so its size depends on the order
Refs = dict[int, None]


@dataclass(frozen=True)
class PostFitting:
    """How the connector lets :class:`PostFitter` fit posts (see there); the defaults are
    rendering alone."""

    max_posts: int | None = None
    whole_sentences: bool = False


class PostFitter:
    """Splits the body into posts of at most ``limit`` characters, each defining every footnote
    it references.

    ``max_posts``: how many posts the answer may take (the forum's replies in a row; 0: any
    number); ``None``, the default, allows only as many as it takes at the shortest
    definitions, so rendering alone never adds a post to keep definitions rich.

    ``whole_sentences`` (the connector, which moves the definitions a post cannot hold to the
    posts after it): a sentence of up to half a post is never cut inside to make room for its
    definitions; its post may then be over the limit by definitions. Without it (rendering
    alone) every post fits, a sentence with too many definitions cut at a space.
    ``masked`` (``masked_links``): False writes each link as its title, then the bare URL.
    """

    def __init__(
        self,
        listed: tuple[CitationForm, ...],
        limit: int,
        max_posts: int | None = None,
        whole_sentences: bool = False,
        masked: bool = True,
    ):
        self._forms = {form.n: form for form in listed}
        self._masked = masked  # masked_links: each link its title, or the title then the URL
        self._limit = limit
        self._max_posts = max_posts
        self._whole_sentences = whole_sentences
        self._measured: dict[EntryLevel, dict[int, int]] = {}

    def posts(self, blocks: list[str]) -> list[str]:
        """The raw posts: blocks in order, as many per post as fit with their definitions at
        the richest level the allowed number of posts permits; then each post gets the
        richest definitions that fit."""
        whole = "\n\n".join(blocks)
        forms = self._referenced_forms(whole)
        raw = self._raw(whole, forms, LEVELS[0], frozenset(), self._shown(whole, forms))
        if len(raw) <= self._limit:  # the usual answer: one post, nothing to measure
            return [raw] if blocks else []
        shortest = self._packed(blocks, self._sizes(SHORTEST))
        fewest = shortest.groups
        allowed = len(fewest) if self._max_posts is None else self._max_posts
        for level in LEVELS[:-1]:
            packing = self._packed(blocks, self._sizes(level))
            groups, starts = packing.groups, packing.starts
            if not packing.as_whole_as(shortest):
                # richer definitions are not worth a post over the limit, nor a sentence cut
                # in two in as many posts, that the shorter definitions avoid
                continue
            # one post more than the answer needs is worth its richer definitions only where
            # the forum takes it; as many posts as the shortest definitions need always are
            if len(groups) <= max(allowed, len(fewest)) or allowed == 0:
                if self._max_posts is None:
                    groups = self._fewer(blocks, groups, starts)
                return [self._post("\n\n".join(pieces)) for pieces in groups]
        return [self._post("\n\n".join(pieces)) for pieces in fewest]

    def _fewer(
        self, blocks: list[str], groups: list[list[str]], starts: list[tuple[int, str]]
    ) -> list[list[str]]:
        """``groups`` (packed at richer definitions), or, when two posts in a row would fit in
        one at the shortest definitions, the posts before them and the rest packed at the
        shortest, where that takes fewer posts.

        Packing is greedy, so a richer level can take fewer posts than the shortest (a
        paragraph cut elsewhere) and still leave its last sentence alone in a post that the
        shortest definitions would not need: rendering alone takes no post to keep
        definitions rich.
        """
        shortest = self._sizes(SHORTEST)
        for j in range(1, len(groups)):
            merged = "\n\n".join(groups[j - 1] + groups[j])
            if self._size(len(merged), self._referenced(merged), shortest) > self._limit:
                continue
            k, rest = starts[j - 1]
            tail = self._groups([rest, *blocks[k + 1 :]], shortest)
            if j - 1 + len(tail) < len(groups):
                return groups[: j - 1] + tail
        return groups

    def _groups(self, blocks: list[str], sizes: Mapping[int, int]) -> list[list[str]]:
        return self._packed(blocks, sizes).groups

    def _packed(self, blocks: list[str], sizes: Mapping[int, int]) -> Packing:
        """Blocks (and pieces of blocks) by post, each post's definitions measured at
        ``sizes`` (see :class:`Packing`)."""
        groups: list[list[str]] = []
        starts: list[tuple[int, str]] = []
        inside = over = 0
        length, numbers = 0, Refs()
        for index, block in enumerate(blocks):
            rest, cut = block, False
            while visible(rest):
                # a rest longer than a post is not searched for its references (that would
                # search a long block's text again for each of its pieces)
                refs = self._referenced(rest) if len(rest) <= self._limit else Refs()
                size = self._size(length + 2 + len(rest), numbers | refs, sizes)
                if groups and not cut and size <= self._limit:
                    groups[-1].append(rest)
                    length, numbers = length + 2 + len(rest), numbers | refs
                    break
                if len(rest) <= self._limit and self._size(len(rest), refs, sizes) <= self._limit:
                    groups.append([rest])  # greedy by block: a block a post holds moves whole
                    starts.append((index, rest))
                    length, numbers = len(rest), refs
                    break
                # A block no post holds is cut anyway: its first piece fills the room left in
                # this post (with its definitions) rather than the post ending short and the
                # block's last piece standing alone in the next one. Two pieces of one block
                # never share a post (they would read as two paragraphs).
                piece, before = "", rest
                if groups and not cut:
                    piece, rest = self._cut(rest, length, numbers, sizes, clean=True)
                if piece:
                    groups[-1].append(piece)
                else:
                    start = rest
                    piece, rest = self._cut(rest, -2, Refs(), sizes, clean=False)
                    if not visible(piece):  # only spaces or quote marks: nothing to post
                        continue
                    groups.append([piece])
                    starts.append((index, start))
                    length, numbers = -2, Refs()
                length, numbers = length + 2 + len(piece), numbers | self._referenced(piece)
                inside += bool(visible(rest)) and not at_break(before, piece)
                over += self._size(length, numbers, sizes) > self._limit
                cut = True
        return Packing(groups, starts, inside, over)

    @cached_property
    def _linkless(self) -> frozenset[int]:
        # a definition may take at most half a post: a link longer than that shows as its
        # title from the start, rather than pushing the text around it into post after post
        half = self._limit // 2
        return frozenset(
            n
            for n, form in self._forms.items()
            if len(definition_body(form, SHORTEST, masked=self._masked)) + 10 > half
        )

    def _sizes(self, level: EntryLevel) -> dict[int, int]:
        # each definition line at ``level``, measured once: posts are filled by size
        if level not in self._measured:
            forms = list(self._forms.values())
            lines = self._lines(forms, level, self._linkless)
            self._measured[level] = {
                form.n: len(line) for form, line in zip(forms, lines, strict=True)
            }
        return self._measured[level]

    def _referenced(self, body: str) -> Refs:
        # footnote references as the forum reads them, in order (answer text that looks like
        # one is escaped; one inside code is none): the order is the numbers the forum shows,
        # so the definitions' numbers are measured as they will be written (_raw)
        forms = self._forms
        return dict.fromkeys(n for n in references(body) if n in forms)

    @staticmethod
    def _size(body_length: int, numbers: Refs, sizes: Mapping[int, int]) -> int:
        if not numbers:
            return body_length
        extra = sum(sizes[n] + 1 + len(prefix(n, i)) for i, n in enumerate(numbers, 1))
        return body_length + 1 + extra

    def _cut(
        self, text: str, length: int, numbers: Refs, sizes: Mapping[int, int], clean: bool
    ) -> tuple[str, str]:
        """The largest first piece of ``text`` that fits, with its definitions, in a post whose
        body is ``length`` characters (-2 for a new post) and cites ``numbers``, and the rest:
        cut at a line or sentence end (inside a sentence only one longer than half a post).

        ``clean`` (filling a post): ``("", text)`` when no such piece fits. A new post always
        gets a piece: a first sentence of up to half a post comes whole, even when its
        definitions do not fit beside it (the connector moves them to the post after it).
        """
        room = self._limit - length - 2 - self._size(0, numbers, sizes)
        best = self._best(text, room, length, numbers, sizes, clean)
        piece, rest = split_first(text, best, clean) if best else ("", text)
        if not self._whole_sentences:
            if piece or clean:
                return piece, rest
            # Nothing of MIN_PIECE fits beside its definitions (a short rest citing several
            # sources): a shorter piece ending at a sentence keeps the post within the limit.
            for end in reversed(breaks(text, min(len(text), MIN_PIECE))):
                if self._piece_fits(text, end, length, numbers, sizes, False, whole=True):
                    return split_first(text, end, clean=False)
            # else the largest shorter piece cut at a space that fits: a piece of MIN_PIECE
            # would leave the post over the limit, its definitions moved to a list after it
            for size in range(min(len(text), MIN_PIECE) - 1, 0, -1):
                if self._piece_fits(text, size, length, numbers, sizes, True):
                    return split_first(text, size)
            return split_first(text, MIN_PIECE, clean=False)
        if piece and at_break(text, piece):
            return piece, rest
        # the largest piece that ends at a sentence and fits
        for end in reversed(breaks(text, best)):
            if self._piece_fits(text, end, length, numbers, sizes, True, whole=True):
                return split_first(text, end)
        sentence = first_sentence(text, self._limit)
        if piece and ONLY_REFERENCES.fullmatch(sentence[len(piece) :]):
            return piece, rest  # cut inside the sentence's references, after its last word
        # A sentence of up to half a post is not cut to make room for its definitions (a
        # longer one, which leaves them little room anyway, is cut at a space as before).
        # "[^n]" becomes "\[n\]" where the connector cannot define it: one character more.
        if len(sentence) + len(CITATION_MARK.findall(sentence)) <= self._limit // 2:
            return ("", text) if clean else (sentence, text[len(sentence) :].lstrip())
        if piece or clean:
            return piece, rest
        return split_first(text, MIN_PIECE, clean=False)

    def _best(
        self,
        text: str,
        room: int,
        length: int,
        numbers: Refs,
        sizes: Mapping[int, int],
        clean: bool,
    ) -> int:
        """The largest size to cut ``text`` at whose piece fits (0 when none of
        :data:`MIN_PIECE` or more does): the whole room when that fits, else by bisection."""
        if room >= MIN_PIECE and self._piece_fits(text, room, length, numbers, sizes, clean):
            return room
        best = 0
        low, high = MIN_PIECE, room - 1
        while low <= high:
            mid = (low + high) // 2
            if self._piece_fits(text, mid, length, numbers, sizes, clean):
                best, low = mid, mid + 1
            else:
                high = mid - 1
        return best

    def _piece_fits(
        self,
        text: str,
        size: int,
        length: int,
        numbers: Refs,
        sizes: Mapping[int, int],
        clean: bool,
        whole: bool = False,
    ) -> bool:
        """Whether the piece cut at ``size`` fits with its definitions (and there is one);
        ``whole``: and it ends at a line or sentence end."""
        piece = first_piece(text, size, clean)
        if whole and not (piece and at_break(text, piece)):
            return False
        total = self._size(length + 2 + len(piece), numbers | self._referenced(piece), sizes)
        return bool(piece) and total <= self._limit

    def _post(self, body: str) -> str:
        """``body`` and the richest definitions that fit.

        Past the shortest level (very many footnotes under a small limit), the longest links
        give way to their titles, one at a time.
        """
        forms = self._referenced_forms(body)
        shown = self._shown(body, forms)
        for level in LEVELS:
            raw = self._raw(body, forms, level, self._linkless, shown)
            if len(raw) <= self._limit:
                return raw
        linkless = set(self._linkless)
        for form in sorted(forms, key=link_length, reverse=True):
            linkless.add(form.n)
            raw = self._raw(body, forms, SHORTEST, linkless, shown)
            if len(raw) <= self._limit:
                break
        # over the limit only when the limit cannot hold a minimal piece at all, or a sentence
        # a post holds cannot also hold its definitions (the connector lists them after it)
        return raw

    def _referenced_forms(self, body: str) -> list[CitationForm]:
        return [self._forms[n] for n in sorted(self._referenced(body))]

    @staticmethod
    def _shown(body: str, forms: list[CitationForm]) -> dict[int, int]:
        # the numbers Discourse shows, by a parse where code could hide a reference: worked
        # out once per post, not once per level tried
        return shown_numbers(body, {form.n for form in forms}) if forms else {}

    def _raw(
        self,
        body: str,
        forms: list[CitationForm],
        level: EntryLevel,
        linkless: Set[int],
        shown: Mapping[int, int],
    ) -> str:
        lines = self._lines(forms, level, linkless, shown)
        return f"{body}\n\n" + "\n".join(lines) if lines else body

    def _lines(
        self,
        forms: list[CitationForm],
        level: EntryLevel,
        linkless: Set[int],
        shown: Mapping[int, int] | None = None,
    ) -> list[str]:
        """The definition lines; ``shown``: the number the post shows each footnote as (see
        :mod:`renderers.discourse_numbers`), none when measuring a definition alone."""
        numbers = shown or {}
        return [
            f"[^{f.n}]: {prefix(f.n, numbers.get(f.n))}"
            + definition_body(f, level, f.n not in linkless, self._masked)
            for f in forms
        ]
