"""The one rule turning a URL into the string every channel writes: valid per RFC 3986.

A source's URL comes from whatever the index holds, and may hold characters no URL may: a
backslash, white space, ``"``, ``<``, ``>``, a backtick, ``{``, ``}``, ``|``, ``^``, a control
or format character, a ``%`` that starts no escape. Written as they are, each changes the link:
browsers read ``\\`` as ``/`` in an http(s) URL (``https://docs.example/a\\`` would open
``/a/``, not the page indexed), a space or ``>`` ends a link in text, ``|`` ends Slack's
``<url|label>``. :func:`encoded_url` percent-encodes each such character (its UTF-8 bytes, as a
browser sends it), so the link opens exactly the address the source names, and every channel
then adds only its own syntax escapes (:mod:`renderers.escaping`).

What is kept as it is: every character a URL may hold where it stands, an existing ``%XX``
escape (never encoded twice), and an internationalized host name (``bücher.example``: its
letters are the host's, which a browser converts itself). Characters outside ASCII elsewhere
(path, query, fragment, user) are encoded, as the markdown parser writes the answer's own
links: a source and the model's link to it are then the same string. A host keeps only its
visible letters, marks and digits (and the full stops that separate labels); anything else in
it (a bidi control, a zero-width space, a Hangul filler, a fraction slash) is encoded like
anywhere else.

The authority ends where RFC 3986 ends it (at ``/``, ``?`` or ``#``), as the URL was checked
(:func:`bot.source_model.is_safe_url`, by ``urlsplit``): a ``\\`` in it is encoded, so a browser
reaches the host that check saw. A ``#`` after the first is encoded (a fragment holds none),
and ``[``/``]`` are kept only in the host (an IPv6 literal). The function is idempotent:
what it returns, it returns unchanged.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_SUB_DELIMS = "!$&'()*+,;="
# what the path, query and fragment may hold besides "%XX" (RFC 3986 pchar, "/" and "?")
_IN_PATH = frozenset(_UNRESERVED + _SUB_DELIMS + ":@/?")
# what a user part may hold besides "%XX" ("@" ends it)
_IN_USER = frozenset(_UNRESERVED + _SUB_DELIMS + ":")
# what a host and port may hold in ASCII (reg-name, an IPv6 or IPvFuture literal, ":port")
_IN_HOST = frozenset(_UNRESERVED + _SUB_DELIMS + ":[]")
# the kinds of non-ASCII character an internationalized host name is written with: letters,
# marks and digits (IDNA allows no other symbol or punctuation in a label)
_HOST_CATEGORIES = frozenset("LMN")
# a host name's label separators other than ".": the ideographic and full-width full stops
_HOST_DOTS = frozenset("\u3002\uff0e\uff61")
# letters and marks that show nothing (Unicode's Default_Ignorable_Code_Point among L and M):
# the Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels, Mongolian and
# other variation selectors. "paypal.com\u3164.evil.example" would read as another host.
_BLANK_LETTERS = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0f\uffa0"
    "\U000e0100-\U000e01ef]"
)

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
# Anything that might need encoding: a URL with none of these and at most one "#" (the usual
# one) is returned as it is, after one scan in C.
_SUSPECT = re.compile(r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%(?![0-9A-Fa-f]{2})")


# every channel writes the same few URLs of an answer (each through its own escaping), and
# a stream renders them again as it goes: each is encoded once
@functools.lru_cache(maxsize=4096)
def encoded_url(url: str) -> str:
    """``url`` with every character a URL may not hold where it stands percent-encoded (its
    UTF-8 bytes): ``\\``, white space, ``"<>`{}|^``, controls, a ``%`` that starts no escape,
    non-ASCII outside the host; existing ``%XX`` escapes and an internationalized host kept.
    Idempotent; ``url`` is not checked for a safe scheme (:func:`renderers.escaping.safe_url`
    does that)."""
    if _SUSPECT.search(url) is None and url.count("#") <= 1:
        return url
    scheme = _SCHEME.match(url)
    head = scheme.group(0) if scheme else ""
    rest = url[len(head) :]
    if head and rest.startswith("//"):
        end = _authority_end(rest)
        head += "//" + _authority(rest[2:end])
        rest = rest[end:]
    before, hash_sign, fragment = rest.partition("#")
    out = head + _encoded(before, _IN_PATH)
    if hash_sign:
        out += "#" + _encoded(fragment, _IN_PATH)
    return out


def _authority_end(rest: str) -> int:
    """Where the authority of ``rest`` (``//`` and what follows the scheme) ends."""
    ends = [i for i in (rest.find(c, 2) for c in "/?#") if i >= 0]
    return min(ends) if ends else len(rest)


def _authority(authority: str) -> str:
    """``user@host:port`` encoded: the user part as the path is, the host keeping its own
    non-ASCII letters (an internationalized name). The last ``@`` ends the user part, as
    ``urlsplit`` and browsers read it."""
    user, at, host = authority.rpartition("@")
    return (_encoded(user, _IN_USER) + at if at else "") + _encoded(host, _IN_HOST, host=True)


def _encoded(part: str, allowed: frozenset[str], *, host: bool = False) -> str:
    """``part`` with each character not in ``allowed`` percent-encoded, ``%XX`` escapes kept
    (and, in a ``host``, its visible non-ASCII characters)."""
    out: list[str] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "%" and _ESCAPE.match(part, i):
            out.append(part[i : i + 3])
            i += 3
            continue
        if ch in allowed or (host and ch > "\x7f" and _shows_in_host(ch)):
            out.append(ch)
        else:
            out.append("".join(f"%{byte:02X}" for byte in ch.encode("utf-8", "surrogatepass")))
        i += 1
    return "".join(out)


def _shows_in_host(ch: str) -> bool:
    """Whether ``ch`` may stay as it is in an internationalized host name: a visible letter,
    mark or digit, or a full stop that separates labels; never white space, punctuation or a
    symbol (a fraction slash "⁄" would read as a path), nor an invisible character (format,
    control, unassigned, private-use, or a letter that shows nothing: a Hangul filler)."""
    if ch in _HOST_DOTS:
        return True
    return unicodedata.category(ch)[0] in _HOST_CATEGORIES and _BLANK_LETTERS.match(ch) is None
